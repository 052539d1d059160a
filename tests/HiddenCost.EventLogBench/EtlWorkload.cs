using System.Diagnostics;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Analysis.Tables.EventLog;
using HiddenCost.Etl;
using HiddenCost.Etl.Decoding.Rpc;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;

namespace HiddenCost.EventLogBench;

/// <summary>
/// The Event Log analysis as the pipeline runs it: a synthetic event-log-render trace (the synthetic writer's
/// scenario, without CPU samples so registry and RPC events dominate) is read, fed to the shared session and
/// to the analysis, pass after pass until the requested number of registry and RPC events went through.
/// Reader-only and reader+session passes over the same file show what the analysis itself adds.
/// </summary>
internal static class EtlWorkload
{
    public readonly record struct Pass(long Events, long RegistryAndRpcEvents, TimeSpan Elapsed, Table<RenderCostRow>? Table);

    /// <summary>Writes the trace once into <paramref name="folder"/> (same options, same bytes) and returns its path.</summary>
    public static string Trace(string folder, int rendersPerClient)
    {
        Directory.CreateDirectory(folder);
        var path = Path.Combine(folder, $"event-log-render-{rendersPerClient}.etl");
        if (File.Exists(path)) return path;
        var watch = Stopwatch.StartNew();
        var scenario = EventLogRender.Generate(new EventLogRenderOptions { WmiRenders = rendersPerClient, ViewerRenders = rendersPerClient },
            new TraceBuilderSettings { SampleIntervalMs = 0 });
        var temp = path + "." + Environment.ProcessId + ".tmp";
        scenario.Save(temp);
        File.Move(temp, path, overwrite: true);
        Console.WriteLine($"wrote {path} ({new FileInfo(path).Length / 1e6:F0} MB) in {watch.Elapsed.TotalSeconds:F0} s");
        return path;
    }

    /// <summary>One pass: reading only, reading with the shared session, or reading, session and the Event Log analysis.</summary>
    public static Pass Run(string path, bool session, bool analysis)
    {
        var watch = Stopwatch.StartNew();
        using var reader = EtlReader.Open(path);
        var shared = new TraceSession();
        var eventLog = new EventLogAnalysis(shared);
        long events = 0, registryAndRpc = 0, first = long.MaxValue, last = long.MinValue;
        foreach (var e in reader.ReadEvents())
        {
            events++;
            if ((e.IsKernel && e.Group == KernelGroups.Registry) || e.ProviderId == RpcProvider.Id) registryAndRpc++;
            first = Math.Min(first, e.TimeNs);
            last = Math.Max(last, e.TimeNs);
            if (session) shared.Observe(e);
            if (analysis) eventLog.OnEvent(e);
        }
        Table<RenderCostRow>? table = null;
        if (session) shared.Complete();
        if (analysis)
            table = eventLog.Complete(new AnalysisContext(path, reader.FileLength, reader.Header, reader.Health, events, first, last))[0] as Table<RenderCostRow>;
        watch.Stop();
        return new Pass(events, registryAndRpc, watch.Elapsed, table);
    }
}
