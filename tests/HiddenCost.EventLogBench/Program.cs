using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.EventLog;
using HiddenCost.EventLogBench;

// Usage: dotnet run --project tests/HiddenCost.EventLogBench -c Release -- [--events N] [--repeats R] [--mode facts|etl|both]
//        [--renders-per-client K] [--dir DIR]
long target = 10_000_000;
int repeats = 3, rendersPerClient = 30_000;
string mode = "both", folder = Path.Combine(Path.GetTempPath(), "hiddencost-bench");
for (int i = 0; i < args.Length; i++)
{
    switch (args[i])
    {
        case "--events" when i + 1 < args.Length: target = long.Parse(args[++i], CultureInfo.InvariantCulture); break;
        case "--repeats" when i + 1 < args.Length: repeats = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
        case "--mode" when i + 1 < args.Length && args[i + 1] is "facts" or "etl" or "both": mode = args[++i]; break;
        case "--renders-per-client" when i + 1 < args.Length: rendersPerClient = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
        case "--dir" when i + 1 < args.Length: folder = args[++i]; break;
        default:
            Console.Error.WriteLine($"unknown argument '{args[i]}'; usage: [--events N] [--repeats R] [--mode facts|etl|both] [--renders-per-client K] [--dir DIR]");
            return 2;
    }
}

Console.WriteLine($"Event Log Render Cost benchmark — {RuntimeInformation.FrameworkDescription}, {RuntimeInformation.OSDescription}, {Environment.ProcessorCount} cores");
int status = 0;
if (mode is "facts" or "both") status |= Facts(target, repeats);
if (mode is "etl" or "both") status |= Etl(target, repeats, rendersPerClient, folder);
return status;

static int Facts(long target, int repeats)
{
    Console.WriteLine($"\n[facts] {target:N0} registry and RPC events as decoded facts (plus 2 context switches per call) through EventLogTracker, table built; best of {repeats} after a warm-up.");
    MeasureFacts(target / 10); // warm-up: the JIT optimises the per-event code before the timed passes
    var best = MeasureFacts(target);
    for (int r = 1; r < repeats; r++)
    {
        var next = MeasureFacts(target);
        if (next.Elapsed < best.Elapsed) best = next;
    }
    var (counts, elapsed, allocated, table) = best;
    double seconds = elapsed.TotalSeconds;
    Console.WriteLine($"events: {counts.RegistryAndRpcEvents:N0} registry+RPC, {counts.ContextSwitches:N0} context switches; calls: {counts.Renders:N0} renders, {counts.Queries:N0} queries");
    Console.WriteLine($"analysis: {seconds:F2} s = {counts.RegistryAndRpcEvents / seconds / 1e6:F1} M registry+RPC events/s " +
        $"({(counts.RegistryAndRpcEvents + counts.ContextSwitches) / seconds / 1e6:F1} M events/s with switches)");
    Console.WriteLine($"allocated: {allocated / 1e6:F1} MB in all ({(double)allocated / counts.RegistryAndRpcEvents:F2} bytes per event); working set {Environment.WorkingSet / 1e6:F0} MB");
    return Check(table, counts.Renders);
}

static int Etl(long target, int repeats, int rendersPerClient, string folder)
{
    var path = EtlWorkload.Trace(folder, rendersPerClient);
    var probe = EtlWorkload.Run(path, session: true, analysis: true); // warm-up, and the file's event counts
    int passes = (int)Math.Ceiling((double)target / probe.RegistryAndRpcEvents);
    Console.WriteLine($"\n[etl] {path}: {new FileInfo(path).Length / 1e6:F0} MB, {probe.Events:N0} events of which {probe.RegistryAndRpcEvents:N0} registry and RPC;");
    Console.WriteLine($"      {passes} passes = {passes * probe.RegistryAndRpcEvents:N0} registry and RPC events through reader, shared session and analysis; best of {repeats}.");
    TimeSpan Best(bool session, bool analysis)
    {
        var best = TimeSpan.MaxValue;
        for (int r = 0; r < repeats; r++)
        {
            var watch = Stopwatch.StartNew();
            for (int p = 0; p < passes; p++) EtlWorkload.Run(path, session, analysis);
            if (watch.Elapsed < best) best = watch.Elapsed;
        }
        return best;
    }
    var readerOnly = Best(false, false);
    var withSession = Best(true, false);
    var full = Best(true, true);
    double events = (double)passes * probe.Events, registryAndRpc = (double)passes * probe.RegistryAndRpcEvents;
    Console.WriteLine($"reader only:                {readerOnly.TotalSeconds,6:F2} s  {events / readerOnly.TotalSeconds / 1e6,5:F1} M events/s");
    Console.WriteLine($"reader + session:           {withSession.TotalSeconds,6:F2} s  {events / withSession.TotalSeconds / 1e6,5:F1} M events/s");
    Console.WriteLine($"reader + session + analysis:{full.TotalSeconds,6:F2} s  {events / full.TotalSeconds / 1e6,5:F1} M events/s, " +
        $"{registryAndRpc / full.TotalSeconds / 1e6:F1} M registry+RPC events/s; the analysis adds {(full - withSession).TotalSeconds:F2} s " +
        $"({(full - withSession).TotalMilliseconds * 1e6 / registryAndRpc:F0} ns per registry/RPC event)");
    return Check(probe.Table!, 2L * rendersPerClient);
}

static int Check(Table<RenderCostRow> table, long expectedRenders)
{
    long renders = table.Rows.Sum(r => r.Renders);
    Console.WriteLine($"table: {table.Rows.Count} rows, {renders:N0} renders, registry ops per message " +
        string.Join(", ", table.Rows.Select(r => r.RegistryOpsPerMessage)));
    if (renders == expectedRenders) return 0;
    Console.Error.WriteLine($"table shows {renders} renders, the workload made {expectedRenders}");
    return 1;
}

static (FactWorkload.Counts Counts, TimeSpan Elapsed, long Allocated, Table<RenderCostRow> Table) MeasureFacts(long target)
{
    GC.Collect();
    var tracker = new EventLogTracker();
    long before = GC.GetTotalAllocatedBytes(precise: true);
    var watch = Stopwatch.StartNew();
    var counts = FactWorkload.Run(tracker, target);
    var table = tracker.Build(long.MaxValue / 2);
    watch.Stop();
    return (counts, watch.Elapsed, GC.GetTotalAllocatedBytes(precise: true) - before, table);
}
