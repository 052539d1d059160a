using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;

namespace HiddenCost.Synthetic.Samples;

/// <summary>A committed sample trace: its file name, what it shows, and how it is generated.</summary>
public sealed record SampleDefinition(string FileName, string Title, string Holds, Func<GeneratedSample> Generate);

/// <summary>A generated sample: the file's bytes and its ground truth as Markdown.</summary>
public sealed record GeneratedSample(SampleDefinition Definition, BuiltTrace Trace, object Truth, string TruthMarkdown)
{
    public byte[] Bytes => Trace.Bytes;
}

/// <summary>
/// The synthetic sample traces under <c>samples/</c>, one per scenario plus the combined trace that
/// <c>hiddencost</c> opens by default. Everything here is fixed (options, seeds), so generating again gives the
/// same bytes; tests compare the committed files with a fresh generation.
/// </summary>
public static class SampleCatalog
{
    public const string CombinedFileName = "hiddencost-sample.etl";

    public static IReadOnlyList<SampleDefinition> All { get; } =
    [
        new("syscall-hook-storm.etl", "Syscall hook storm",
            "3 CPUs of Sleep(0)/SwitchToThread loops (OrderRouter.exe, QuoteFeed.exe) with tedrdrv.sys in the syscall-logging path, " +
            "MathWorker.exe computing without syscalls, csagent.sys loaded but idle, CPU samples paused for 40 ms. " +
            "64-bit, 4 CPUs, XPRESS-compressed buffers, keyed (cached) stacks on samples and on SysClEnter.",
            () => Wrap("syscall-hook-storm.etl", SyscallHookStorm.Generate(null, Settings(compress: true, StackEncoding.Keyed, "syscall-hook-storm.etl")),
                t => TruthMarkdown.Syscall(t))),
        new("spin-contention.etl", "Spin contention",
            "InventoryService.exe (.NET 8) with 4 workers spinning and blocking on 3 locks plus a call site that never blocks, " +
            "PollingService.exe yielding with SwitchToThread/Sleep(0), render.exe spin-waiting in libiomp5md.dll. " +
            "64-bit, 6 CPUs, uncompressed buffers, plain StackWalk stacks.",
            () => Wrap("spin-contention.etl", SpinContention.Generate(null, Settings(compress: false, StackEncoding.Plain, "spin-contention.etl")),
                t => TruthMarkdown.Spin(t))),
        new("notify-buffer-storm.etl", "Notify buffer storm",
            @"SyncAgent.exe (2 MiB buffer) and explorer.exe (16 KiB) watching \Device\HarddiskVolume3\Data\Inbox while ingest.exe " +
            "creates, writes and deletes files there in 400 batches (2 bursts of 300 files), backup.exe renames reports and " +
            "SearchProtocolHost.exe only reads. 64-bit, 4 CPUs, XPRESS-compressed buffers.",
            () => Wrap("notify-buffer-storm.etl", NotifyBufferStorm.Generate(null, Settings(compress: true, StackEncoding.Keyed, "notify-buffer-storm.etl")),
                t => TruthMarkdown.Notify(t))),
        new("event-log-render.etl", "Event log render",
            "The EventLog svchost (-s EventLog, wevtsvc.dll) serving MS-EVEN6 renders and queries to WmiPrvSE.exe (for " +
            "InventoryAgent.exe's Win32_NTLogEvent query) and mmc.exe concurrently, 13 registry operations per render, .evtx " +
            "reads per query, another svchost reading the registry. 64-bit, 5 CPUs, XPRESS-compressed buffers.",
            () => Wrap("event-log-render.etl", EventLogRender.Generate(null, Settings(compress: true, StackEncoding.Keyed, "event-log-render.etl")),
                t => TruthMarkdown.EventLog(t))),
        new(CombinedFileName, "All four problems in one trace",
            "The four scenarios above on one 19-CPU machine, each on its own CPUs (same options). The syscall storm's " +
            "sampling pause covers every CPU here, so spin figures differ slightly from spin-contention.etl. " +
            "64-bit, XPRESS-compressed buffers, keyed stacks. This is the trace `hiddencost` analyses when given none.",
            () => Wrap(CombinedFileName, CombinedSample.Generate(null, Settings(compress: true, StackEncoding.Keyed, CombinedFileName)),
                t => TruthMarkdown.Combined(t))),
    ];

    /// <summary>The recording settings of the samples (seed 1; the scenario adds the CPUs it needs).</summary>
    public static TraceBuilderSettings Settings(bool compress, StackEncoding stacks, string fileName) => new()
    {
        Compress = compress,
        Stacks = stacks,
        LogFileName = fileName,
        Cpus = 1,
        Seed = 1,
    };

    private static GeneratedSample Wrap<T>(string fileName, ScenarioTrace<T> s, Func<T, string> markdown) where T : notnull =>
        new(All.First(d => d.FileName == fileName), s.Trace, s.Truth, markdown(s.Truth));
}
