using System.Diagnostics;
using HiddenCost.Analysis;
using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Tables.DirectoryNotify;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;

// Usage: dotnet run --project tests/HiddenCost.NotifyBench -c Release -- [--events N] [--batches B]
// 1. N decoded FileIo facts (arms, completions, creates, writes, deletes, cleanups, demand-zero faults) straight
//    into the Directory Notify tracker: the analysis's own cost.
// 2. A synthetic notify-storm .etl of B batches through the whole pipeline (reader, decoders, state, stacks,
//    every analysis): the cost a user sees.
long events = 10_000_000;
int batches = 20_000;
for (int i = 0; i < args.Length; i++)
{
    switch (args[i])
    {
        case "--events": events = long.Parse(args[++i]); break;
        case "--batches": batches = int.Parse(args[++i]); break;
        default: Console.Error.WriteLine($"unknown argument {args[i]}"); return 2;
    }
}

Console.WriteLine($".NET {Environment.Version}, {Environment.ProcessorCount} CPUs, {Environment.OSVersion}");
Facts(events);
Pipeline(batches);
return 0;

static void Facts(long events)
{
    const string dir = @"\Device\HarddiskVolume3\Data\Inbox";
    var tracker = new DirectoryNotifyTracker();
    var watcher = new ProcessRef(100, 0, "SyncAgent.exe");
    var victims = Enumerable.Range(0, 8).Select(i => new ProcessRef(200 + i, 0, $"worker{i}.exe")).ToArray();
    var names = Enumerable.Range(0, 4096).Select(i => $@"{dir}\file{i}.dat").ToArray();
    tracker.FileName(0xD1, dir);
    for (int i = 0; i < names.Length; i++) tracker.FileName(0x10000 + (ulong)i, names[i]);
    ulong irp = 1;
    tracker.Arm(0, irp, 0xD0, 0xD1, watcher, 2 * 1024 * 1024);
    GC.Collect();
    long allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
    var clock = Stopwatch.StartNew();
    long t = 0, n = 0;
    while (n < events)
    {
        // One change batch: 6 file operations by a victim, 2 faults, then the watcher's completion and re-arm.
        var victim = victims[(int)(n % victims.Length)];
        int f = (int)(n % names.Length);
        ulong key = 0x10000 + (ulong)f;
        tracker.Create(t += 100, 0x900000 + (ulong)n, 0x700000 + (ulong)f, victim, names[f], 2);
        tracker.OperationEnd(t += 100, 0x900000 + (ulong)n, 2, 0);
        tracker.Change(t += 100, FileChangeKind.Write, key, victim);
        tracker.Change(t += 100, FileChangeKind.Delete, key, victim);
        tracker.Cleanup(t += 100, 0x700000 + (ulong)f);
        tracker.DemandZero(t += 100, victim);
        tracker.DemandZero(t += 100, victim);
        tracker.OperationEnd(t += 100, irp, 400, 0);
        tracker.Arm(t += 100, ++irp, 0xD0, 0xD1, watcher, 2 * 1024 * 1024);
        n += 9;
    }
    var (buffers, victimTable) = tracker.Build();
    clock.Stop();
    double seconds = clock.Elapsed.TotalSeconds;
    Console.WriteLine($"facts:    {n:N0} FileIo/page-fault facts in {seconds:0.000} s = {n / seconds / 1e6:0.00} M events/s, " +
                      $"{(GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore) / (double)n:0.0} bytes allocated per event; " +
                      $"{buffers.Rows.Count} watcher row, {victimTable.Rows.Count} victim rows, completions {buffers.Rows[0].Completions:N0}");
}

static void Pipeline(int batches)
{
    var scenario = NotifyBufferStorm.Generate(new NotifyBufferStormOptions { Batches = batches, BurstBatches = [] }, new TraceBuilderSettings { Compress = false });
    var path = Path.Combine(Path.GetTempPath(), $"hiddencost-notifybench-{batches}.etl");
    scenario.Save(path);
    try
    {
        TraceAnalyzer.Analyze(path); // warm-up
        var clock = Stopwatch.StartNew();
        var result = TraceAnalyzer.Analyze(path);
        clock.Stop();
        long traceEvents = result.Table(HiddenCost.Analysis.Tables.TraceInfo.TraceInfoAnalysis.Definition).Rows[0].Events;
        double seconds = clock.Elapsed.TotalSeconds;
        Console.WriteLine($"pipeline: {traceEvents:N0} events ({new FileInfo(path).Length / 1e6:0.0} MB, notify storm of {batches:N0} batches) " +
                          $"through every analysis in {seconds:0.000} s = {traceEvents / seconds / 1e6:0.00} M events/s, " +
                          $"{new FileInfo(path).Length / 1e6 / seconds:0} MB/s; peak working set {Process.GetCurrentProcess().PeakWorkingSet64 / 1e6:0} MB");
    }
    finally
    {
        File.Delete(path);
    }
}
