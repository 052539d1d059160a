using System.Diagnostics;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Analysis.Tables.SpinWait;
using HiddenCost.Etl;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;

namespace HiddenCost.Benchmarks;

/// <summary>
/// The Spin-Wait analysis end to end on a synthetic spin-contention trace (written by HiddenCost.Synthetic, labelled
/// synthetic) of the given length: a reader-only pass, then reader + shared session (state, stacks) + the analysis,
/// as <c>TraceAnalyzer</c> runs it (without the other analyses).
/// </summary>
internal static class SpinWaitTraceBenchmark
{
    public sealed record Result(long Bytes, long Events, long Samples, long Switches, TimeSpan ReaderOnly, TimeSpan WithAnalysis, int LockRows);

    public static string Generate(double durationMs, string directory)
    {
        Directory.CreateDirectory(directory);
        var path = Path.Combine(directory, $"spin-contention-{durationMs:0}ms.etl");
        if (File.Exists(path)) return path;
        var scenario = SpinContention.Generate(new SpinContentionOptions { DurationMs = durationMs },
            new TraceBuilderSettings { Stacks = StackEncoding.Keyed, Compress = true });
        scenario.Save(path + ".tmp");
        File.Move(path + ".tmp", path, overwrite: true);
        return path;
    }

    public static Result Run(string path)
    {
        var clock = Stopwatch.StartNew();
        long events = 0, samples = 0, switches = 0, bytes;
        using (var reader = EtlReader.Open(path))
        {
            bytes = reader.FileLength;
            foreach (var e in reader.ReadEvents())
            {
                events++;
                if (e.Is(KernelGroups.PerfInfo, SampledProfile.Opcode)) samples++;
                else if (e.Is(KernelGroups.Thread, ContextSwitch.Opcode)) switches++;
            }
        }
        var readerOnly = clock.Elapsed;

        clock.Restart();
        var session = new TraceSession();
        var analysis = new SpinWaitAnalysis(session);
        using (var reader = EtlReader.Open(path))
        {
            long first = long.MaxValue, last = long.MinValue, count = 0;
            foreach (var e in reader.ReadEvents())
            {
                count++;
                first = Math.Min(first, e.TimeNs);
                last = Math.Max(last, e.TimeNs);
                session.Observe(e);
                analysis.OnEvent(e);
            }
            session.Complete();
            var tables = analysis.Complete(new AnalysisContext(path, reader.FileLength, reader.Header, reader.Health, count, first, last));
            return new Result(bytes, events, samples, switches, readerOnly, clock.Elapsed, tables[0].RowCount);
        }
    }
}
