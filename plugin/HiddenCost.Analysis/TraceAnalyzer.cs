using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Etl;

namespace HiddenCost.Analysis;

/// <summary>
/// Runs every analysis in one ordered pass over a trace. Never throws for a bad trace: the error comes back
/// in <see cref="AnalysisResult.Error"/> with every table present (empty, with the error as a note).
/// </summary>
public static class TraceAnalyzer
{
    private const long ProgressEveryEvents = 1 << 16;

    public static AnalysisResult Analyze(string path, IProgress<double>? progress = null, CancellationToken cancellationToken = default)
    {
        var session = new TraceSession();
        // An array, walked as one: a foreach over the interface list allocated an enumerator for every event.
        ITraceAnalysis[] analyses = [.. TableCatalog.CreateAnalyses(session)];
        try
        {
            using var reader = EtlReader.Open(path);
            long count = 0, first = long.MaxValue, last = long.MinValue;
            using var stream = reader.ReadEvents().GetEnumerator();
            while (stream.MoveNext())
            {
                var e = stream.Current;
                count++;
                if (e.TimeNs < first) first = e.TimeNs;
                if (e.TimeNs > last) last = e.TimeNs;
                session.Observe(e);
                foreach (var analysis in analyses) analysis.OnEvent(e);
                if ((count & (ProgressEveryEvents - 1)) == 0)
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    progress?.Report(Math.Min(0.99, (double)e.FileOffset / Math.Max(1, reader.FileLength)));
                }
            }
            if (count == 0) first = last = 0;
            session.Complete();
            var context = new AnalysisContext(path, reader.FileLength, reader.Header, reader.Health, count, first, last);
            var tables = analyses.SelectMany(a => a.Complete(context)).ToArray();
            progress?.Report(1.0);
            return new AnalysisResult(path, tables, null);
        }
        catch (EtlFormatException e)
        {
            return Failed(path, e.Message);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return Failed(path, $"{path}: {e.Message}");
        }
    }

    private static AnalysisResult Failed(string path, string error)
    {
        var tables = TableCatalog.All.Select(spec =>
        {
            var t = new Table(spec);
            t.AddNote(error);
            return t;
        }).ToArray();
        return new AnalysisResult(path, tables, error);
    }
}
