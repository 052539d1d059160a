using HiddenCost.Synthetic.Etl;
using HiddenCost.Synthetic.Events;

namespace HiddenCost.Synthetic.Model;

/// <summary>
/// Builds a consistent synthetic trace: processes, threads and images (rundown at the start), threads running
/// on CPUs in non-overlapping segments (context switches and ready events are derived from them, so they pair
/// up and a thread is never on two CPUs at once), CPU samples with stacks taken from what runs, and any other
/// events a scenario logs from a running thread.
/// <para>
/// Time is QPC ticks. Scenario events and segment boundaries must fall on even ticks; samples fall on odd ticks,
/// so a sample is never ambiguous about which side of an event it lies on. A thread-bound event must lie strictly
/// inside one of its thread's segments (<see cref="On"/>), so it is never logged by another thread.
/// </para>
/// </summary>
public sealed partial class TraceBuilder
{
    private readonly List<TraceRecord> _records = [];
    private readonly List<SyntheticProcess> _processes = [];
    private readonly List<SyntheticImage> _kernelModules = [];
    private readonly List<Func<EventContext, TraceRecord>> _startRundown = [];
    private readonly List<Func<EventContext, TraceRecord>> _endRundown = [];
    private readonly AddressLayout _layout;
    private readonly Prng _ids;
    private int _nextPid = 1000;
    private int _nextTid = 1500;
    private bool _built;

    public TraceBuilder(TraceBuilderSettings settings)
    {
        if (settings.PointerSize is not (4 or 8)) throw new ArgumentException("PointerSize must be 4 or 8");
        if (settings.Cpus < 1) throw new ArgumentException("at least one CPU");
        Settings = settings;
        _layout = new AddressLayout(settings.PointerSize);
        _ids = new Prng(settings.Seed ^ 0x1D5_0F_5EEDUL);
        Random = new Prng(settings.Seed);
        _lanes = Enumerable.Range(0, settings.Cpus).Select(_ => new List<RunSegment>()).ToArray();

        Idle = NewProcess(0, 0, "Idle", "", settings.PointerSize, null, null);
        IdleThread = new SyntheticThread(Idle, 0, "", null) { Priority = 0 };
        Idle.Threads.Add(IdleThread);
        SystemProcess = NewProcess(4, 0, "System", "", settings.PointerSize, ProcessInfo.LocalSystemSid, null);
        AddThreadWithId(SystemProcess, 8, "");
        Kernel = AddKernelModule("ntoskrnl.exe", 0x104_6000, "ntkrnlmp.pdb");
        AddKernelModule("hal.dll", 0x6_0000);

        var etl = new EtlTraceSettings
        {
            PointerSize = settings.PointerSize,
            NumberOfProcessors = settings.Cpus,
            BufferSize = settings.BufferSize,
            Compress = settings.Compress,
            Build = settings.Build,
            StartTimeUtc = settings.StartTimeUtc,
            LoggerName = settings.LoggerName,
            LogFileName = settings.LogFileName,
        };
        Controller = AddProcess("wpr.exe", "wpr.exe -start MultiProfile.wprp -filemode", parentPid: 0);
        ControllerThread = AddThread(Controller);
        Etl = etl with { HeaderThreadId = (uint)ControllerThread.Tid, HeaderProcessId = (uint)Controller.Pid };
        Etl.Validate();
        ActivityStart = Etl.StartQpc + Ticks(settings.RundownMs * 1000);
    }

    public TraceBuilderSettings Settings { get; }
    public EtlTraceSettings Etl { get; }

    /// <summary>Seeded generator for scenario choices; consumed in a fixed order, so output is reproducible.</summary>
    public Prng Random { get; }

    /// <summary>QPC time after the start rundown, where scenario activity may begin.</summary>
    public long ActivityStart { get; }

    public SyntheticProcess Idle { get; }

    /// <summary>The idle thread (id 0) that runs on any CPU no scenario thread occupies.</summary>
    public SyntheticThread IdleThread { get; }

    public SyntheticProcess SystemProcess { get; }

    /// <summary>ntoskrnl.exe (process 0).</summary>
    public SyntheticImage Kernel { get; }

    /// <summary>The recording tool; it logs the header, the rundown and the sample interval.</summary>
    public SyntheticProcess Controller { get; }
    public SyntheticThread ControllerThread { get; }

    public IReadOnlyList<SyntheticProcess> Processes => _processes;
    public IReadOnlyList<SyntheticImage> KernelModules => _kernelModules;

    /// <summary>Ticks (rounded to an even count) in <paramref name="microseconds"/>.</summary>
    public long Ticks(double microseconds) => (long)Math.Round(microseconds * Etl.PerfFrequency / 1e6 / 2.0) * 2;

    /// <summary>QPC time <paramref name="milliseconds"/> after <see cref="ActivityStart"/> (even).</summary>
    public long At(double milliseconds) => ActivityStart + Ticks(milliseconds * 1000);

    public double TicksToMs(long ticks) => ticks * 1000.0 / Etl.PerfFrequency;

    /// <summary>Nanoseconds since the trace start, as a reader reports event times.</summary>
    public long ToTraceNs(long qpc) => TraceClock.ToTraceNanoseconds(Etl, qpc);

    public int NextPid()
    {
        _nextPid += 4 * (int)_ids.Next(1, 60);
        return _nextPid;
    }

    public int NextTid()
    {
        _nextTid += 4 * (int)_ids.Next(1, 30);
        return _nextTid;
    }

    /// <summary>A fresh kernel pool address (IRPs, file objects, file keys, KCBs), unique in the trace.</summary>
    public ulong PoolAddress() => _layout.Pool();

    /// <summary>Lowest kernel address: frames at or above it are the kernel part of a stack.</summary>
    public ulong KernelBoundary => _layout.KernelBoundary;

    /// <summary>
    /// Adds a process. With no <paramref name="startQpc"/> it exists before the trace and appears in the start
    /// rundown; otherwise a Process Start is logged then (on CPU 0).
    /// </summary>
    public SyntheticProcess AddProcess(string imageName, string commandLine, int? pointerSize = null, int? parentPid = null, byte[]? sid = null, long? startQpc = null, int? pid = null)
    {
        EnsureNotBuilt();
        var size = pointerSize ?? Settings.PointerSize;
        if (size > Settings.PointerSize) throw new ArgumentException("a 64-bit process cannot run on a 32-bit kernel");
        var id = pid ?? NextPid();
        if (_processes.Any(p => p.Pid == id && p.EndQpc is null))
            throw new ArgumentException($"process id {id} is in use");
        return NewProcess(id, parentPid ?? 4, imageName, commandLine, size, sid, startQpc);
    }

    /// <summary>Ends a process (Process End and Thread End events on CPU 0).</summary>
    public void EndProcess(SyntheticProcess process, long endQpc, int exitStatus = 0)
    {
        EnsureNotBuilt();
        EnsureEven(endQpc);
        process.EndQpc = endQpc;
        process.ExitStatus = exitStatus;
        foreach (var t in process.Threads) t.EndQpc ??= endQpc;
    }

    public SyntheticThread AddThread(SyntheticProcess process, string name = "", long? startQpc = null, byte priority = 8) =>
        AddThreadWithId(process, NextTid(), name,
            startQpc ?? (Settings.ThreadsStartWithActivity && process.StartQpc is null && process != Controller && process.Pid > 4 ? ActivityStart : null),
            priority);

    /// <summary>A kernel module (process 0) at the next kernel address.</summary>
    public SyntheticImage AddKernelModule(string fileName, ulong size, string? pdbName = null)
    {
        EnsureNotBuilt();
        var folder = fileName is "ntoskrnl.exe" or "hal.dll" ? @"\SystemRoot\system32\" : @"\SystemRoot\system32\drivers\";
        var image = NewImage(Idle, folder + fileName, _layout.KernelModule(size), size, pdbName, null);
        _kernelModules.Add(image);
        return image;
    }

    /// <summary>
    /// Maps an image into a process. Images under <c>\Windows\System32</c> or <c>\Windows\SysWOW64</c> get one base
    /// shared by every process; others get a per-process base. With <paramref name="loadQpc"/> an Image Load is
    /// logged then (on CPU 0); otherwise the image appears in the start rundown. <paramref name="pdb"/> gives the image a
    /// real PDB's identity (a built image's RSDS record) instead of the synthetic one.
    /// </summary>
    public SyntheticImage AddImage(SyntheticProcess process, string ntPath, ulong size, long? loadQpc = null, string? pdbName = null, PdbIdentity? pdb = null)
    {
        EnsureNotBuilt();
        var shared = ntPath.Contains(@"\Windows\System32\", StringComparison.OrdinalIgnoreCase)
                     || ntPath.Contains(@"\Windows\SysWOW64\", StringComparison.OrdinalIgnoreCase);
        var imageBase = shared
            ? _layout.SharedDll(ntPath.ToLowerInvariant(), size, process.PointerSize)
            : _layout.ProcessImage(process.Pid, size, process.PointerSize);
        var image = NewImage(process, ntPath, imageBase, size, pdbName, loadQpc, pdb);
        process.Images.Add(image);
        return image;
    }

    /// <summary>Adds a record as is (the caller chose CPU, time and header fields).</summary>
    public void Emit(TraceRecord record)
    {
        EnsureNotBuilt();
        if (record.Cpu < 0 || record.Cpu >= Settings.Cpus) throw new ArgumentException($"CPU {record.Cpu} outside 0..{Settings.Cpus - 1}");
        _records.Add(record);
    }

    /// <summary>
    /// The logging context of an event raised by <paramref name="thread"/> at <paramref name="timestamp"/>: the CPU
    /// it runs on, its ids, and the kernel pointer size (or the process's, for user-mode providers with
    /// <paramref name="userMode"/>). The thread must be running strictly inside a segment at that time.
    /// </summary>
    public EventContext On(SyntheticThread thread, long timestamp, bool userMode = false)
    {
        EnsureEven(timestamp);
        var list = _threadSegments.TryGetValue(thread, out var l) ? l : [];
        var i = FindLast(list, timestamp);
        if (i < 0 || timestamp >= list[i].End)
            throw new InvalidOperationException($"{thread} is not running at {timestamp} (inside a segment, not on its end)");
        var segment = list[i];
        var continues = i > 0 && list[i - 1].Cpu == segment.Cpu && list[i - 1].End == segment.Start;
        if (timestamp == segment.Start && !continues)
            throw new InvalidOperationException($"{thread}: event at the switch-in time {timestamp}; log it after the context switch");
        return new EventContext(segment.Cpu, timestamp, userMode ? thread.Process.PointerSize : Settings.PointerSize, (uint)thread.Tid, (uint)thread.Process.Pid);
    }

    /// <summary>Context on a CPU with no running-thread check (for events logged outside any scenario thread).</summary>
    public EventContext OnCpu(int cpu, long timestamp, SyntheticThread? logger = null)
    {
        EnsureEven(timestamp);
        return new EventContext(cpu, timestamp, Settings.PointerSize, (uint)(logger?.Tid ?? 0), (uint)(logger?.Process.Pid ?? 0));
    }

    /// <summary>Registers an event for the start rundown (logged on CPU 0 before <see cref="ActivityStart"/>).</summary>
    public void AtStartRundown(Func<EventContext, TraceRecord> factory) => _startRundown.Add(factory);

    /// <summary>Registers an event for the end rundown (logged on CPU 0 after the last event).</summary>
    public void AtEndRundown(Func<EventContext, TraceRecord> factory) => _endRundown.Add(factory);

    private SyntheticProcess NewProcess(int pid, int parentPid, string imageName, string commandLine, int pointerSize, byte[]? sid, long? startQpc)
    {
        if (startQpc is { } s) EnsureEven(s);
        var p = new SyntheticProcess(pid, parentPid, imageName, commandLine, pointerSize, sid, startQpc);
        _processes.Add(p);
        return p;
    }

    private SyntheticThread AddThreadWithId(SyntheticProcess process, int tid, string name, long? startQpc = null, byte priority = 8)
    {
        EnsureNotBuilt();
        if (startQpc is { } s) EnsureEven(s);
        var start = process.Images.FirstOrDefault()?.Base ?? 0;
        var t = new SyntheticThread(process, tid, name, startQpc) { Priority = priority, Win32StartAddress = start == 0 ? 0 : start + 0x1A40 };
        process.Threads.Add(t);
        return t;
    }

    private SyntheticImage NewImage(SyntheticProcess process, string ntPath, ulong imageBase, ulong size, string? pdbName, long? loadQpc, PdbIdentity? identity = null)
    {
        if (loadQpc is { } l) EnsureEven(l);
        var fileName = ntPath[(ntPath.LastIndexOf('\\') + 1)..];
        var hash = StableHash(fileName.ToLowerInvariant());
        var pdb = identity ?? new PdbIdentity(SyntheticPdbGuid(hash), 1, pdbName ?? Path.ChangeExtension(fileName, ".pdb"));
        var image = new SyntheticImage(process, ntPath, imageBase, size, 0x6000_0000u + (uint)(hash % 0x0800_0000), (uint)(size + (hash & 0xFFF)), pdb, loadQpc);
        return image;
    }

    /// <summary>GUIDs that can never be a real PDB's: the first eight bytes spell "SYNTHETI".</summary>
    private static Guid SyntheticPdbGuid(ulong hash)
    {
        Span<byte> b = stackalloc byte[16];
        "SYNTHETI"u8.CopyTo(b);
        BitConverter.TryWriteBytes(b[8..], hash);
        return new Guid(b);
    }

    /// <summary>FNV-1a: stable across runs and .NET versions (string.GetHashCode is randomised).</summary>
    internal static ulong StableHash(string s)
    {
        var h = 14695981039346656037UL;
        foreach (var c in s)
        {
            h ^= c;
            h *= 1099511628211UL;
        }
        return h;
    }

    private static void EnsureEven(long ticks)
    {
        if ((ticks & 1) != 0) throw new ArgumentException($"scenario times must be even QPC ticks (samples use odd ones): {ticks}");
    }

    private void EnsureNotBuilt()
    {
        if (_built) throw new InvalidOperationException("the trace has been built");
    }
}
