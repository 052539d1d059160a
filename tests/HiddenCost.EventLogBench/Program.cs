using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using HiddenCost.Analysis.Tables.EventLog;
using HiddenCost.EventLogBench;

// Usage: dotnet run --project tests/HiddenCost.EventLogBench -c Release -- [--events N] [--repeats R]
long target = 10_000_000;
int repeats = 3;
for (int i = 0; i < args.Length; i++)
{
    switch (args[i])
    {
        case "--events" when i + 1 < args.Length: target = long.Parse(args[++i], CultureInfo.InvariantCulture); break;
        case "--repeats" when i + 1 < args.Length: repeats = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
        default:
            Console.Error.WriteLine($"unknown argument '{args[i]}'; usage: [--events N] [--repeats R]");
            return 2;
    }
}

Console.WriteLine($"Event Log Render Cost benchmark — {RuntimeInformation.FrameworkDescription}, {RuntimeInformation.OSDescription}, {Environment.ProcessorCount} cores");
Console.WriteLine($"{target:N0} registry and RPC events as decoded facts (plus 2 context switches per call) through EventLogTracker, table built; best of {repeats} after a warm-up.");

Measure(target / 10); // warm-up: the JIT optimises the per-event code before the timed passes
var (counts, elapsed, allocated, table) = Measure(target);
for (int r = 1; r < repeats; r++)
{
    var next = Measure(target);
    if (next.Elapsed < elapsed) (counts, elapsed, allocated, table) = next;
}

double seconds = elapsed.TotalSeconds;
Console.WriteLine($"events: {counts.RegistryAndRpcEvents:N0} registry+RPC, {counts.ContextSwitches:N0} context switches; calls: {counts.Renders:N0} renders, {counts.Queries:N0} queries");
Console.WriteLine($"analysis: {seconds:F2} s = {counts.RegistryAndRpcEvents / seconds / 1e6:F1} M registry+RPC events/s " +
    $"({(counts.RegistryAndRpcEvents + counts.ContextSwitches) / seconds / 1e6:F1} M events/s with switches)");
Console.WriteLine($"allocated: {allocated / 1e6:F1} MB in all ({(double)allocated / counts.RegistryAndRpcEvents:F2} bytes per event); peak working set {Environment.WorkingSet / 1e6:F0} MB");
long tableRenders = table.Rows.Sum(r => (long)r[table.Spec.IndexOf("Renders")]!);
Console.WriteLine($"table: {table.Rows.Count} rows, {tableRenders:N0} renders, registry ops per message {table.Rows[0][table.Spec.IndexOf("Registry Ops per Message")]}");
if (tableRenders != counts.Renders)
{
    Console.Error.WriteLine($"table shows {tableRenders} renders, the workload made {counts.Renders}");
    return 1;
}
return 0;

static (FactWorkload.Counts Counts, TimeSpan Elapsed, long Allocated, HiddenCost.Analysis.Model.Table Table) Measure(long target)
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
