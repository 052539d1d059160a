using HiddenCost.Synthetic.Etl;
using HiddenCost.Synthetic.Model;

namespace HiddenCost.Analysis.Tests.Support;

/// <summary>Runs the analyzer over a synthetic trace the way a user would: written to a file, then read back.</summary>
internal static class SyntheticTraces
{
    public static AnalysisResult Analyze(BuiltTrace trace, string name) => Analyze(trace.Save, name);

    /// <summary>A trace of <paramref name="records"/> as the scenario's settings write it (records changed by a test).</summary>
    public static AnalysisResult Analyze(EtlTraceSettings settings, IEnumerable<TraceRecord> records, string name)
    {
        var writer = new EtlFileWriter(settings);
        writer.AddRange(records);
        return Analyze(writer.Save, name);
    }

    /// <summary>As <see cref="Analyze(EtlTraceSettings, IEnumerable{TraceRecord}, string)"/>, the file cut <paramref name="cutBytes"/> short of its end.</summary>
    public static AnalysisResult AnalyzeCut(EtlTraceSettings settings, IEnumerable<TraceRecord> records, int cutBytes, string name)
    {
        var writer = new EtlFileWriter(settings);
        writer.AddRange(records);
        return Analyze(path => File.WriteAllBytes(path, writer.ToArray()[..^cutBytes]), name);
    }

    private static AnalysisResult Analyze(Action<string> save, string name)
    {
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-{name}-{Guid.NewGuid():N}.etl");
        save(path);
        try
        {
            var result = TraceAnalyzer.Analyze(path);
            Assert.IsNull(result.Error, result.Error);
            return result;
        }
        finally
        {
            File.Delete(path);
        }
    }
}
