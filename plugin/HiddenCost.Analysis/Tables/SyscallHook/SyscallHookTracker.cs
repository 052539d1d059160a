using System.Runtime.InteropServices;
using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;

namespace HiddenCost.Analysis.Tables.SyscallHook;

/// <summary>
/// The Syscall Hook analysis without ETW types: fed decoded kernel facts in time order, it pairs syscall enters
/// and exits on the thread each processor runs (SysCl events carry no thread id: the last context switch on
/// the event's processor names it), counts CPU samples taken inside syscalls, finds the third-party kernel
/// modules in those samples' kernel stacks, watches the sample stream for profiling gaps, and builds the
/// Syscall Hook Overhead and Profiling Gaps tables.
/// </summary>
public sealed class SyscallHookTracker
{
    public const string RecordWith = "wpr -start MultiProfile.wprp!SysCall";

    private readonly Func<string, CulpritIdentity?> _catalogue;
    private readonly Func<int, long, ProcessRef?> _processOfThread;
    private readonly Func<string, ulong, string?>? _symbols;
    private readonly Func<int, int, long, string?>? _stackNames;
    private readonly KernelModuleMap _modules = new();
    private readonly SampleIntervals _intervals = new();
    private readonly ProfilingGapDetector _gaps = new();
    private readonly Dictionary<int, ThreadSyscalls> _threads = new();
    private readonly List<ThreadSyscalls> _endedThreads = new();
    private readonly ThreadSyscalls _unknownThread = new(-1);
    private readonly List<PendingSample> _samples = new();
    private readonly RunningThreads _running;
    /// <summary>Per processor: syscalls entered while no context switch had named its thread.</summary>
    private OpenSyscalls?[] _unknownOpen = Array.Empty<OpenSyscalls?>();

    private long _enters, _exits, _switches, _unknownThreadEnters, _unreturned, _orphanExits;
    private long _samplesInSyscalls, _samplesWithStack;

    /// <summary>Kernel samples kept per thread as a possible entry path of its next syscall (the latest ones).</summary>
    private const int MaxPreEnter = 8;

    /// <param name="catalogue">Module file name → vendor, product, category, or null when the catalogue does not know it.</param>
    /// <param name="processOfThread">
    /// Thread id and a time in its life → its process, or null when the trace does not say. Asked when the tables
    /// are built, so rundowns at the end of the trace (WPR's memory mode logs them only there) count.
    /// </param>
    /// <param name="symbols">Module file name and RVA → symbol name, or null; omit when no symbols are available.</param>
    /// <param name="running">The pass's view of the thread on each processor (its own when null).</param>
    /// <param name="stackNames">
    /// Stack id (as given to <see cref="SampleStack"/>), a thread and a time it was sampled → the stack as text for the
    /// Top Stack column, or null; omit to leave the column empty.
    /// </param>
    public SyscallHookTracker(Func<string, CulpritIdentity?> catalogue, Func<int, long, ProcessRef?> processOfThread,
        Func<string, ulong, string?>? symbols = null, RunningThreads? running = null, Func<int, int, long, string?>? stackNames = null)
    {
        _stackNames = stackNames;
        _catalogue = catalogue;
        _processOfThread = processOfThread;
        _symbols = symbols;
        _running = running ?? new RunningThreads();
    }

    public KernelModuleMap Modules => _modules;

    // ---- facts -------------------------------------------------------------------------------------------

    /// <summary>A kernel image (process 0) load or rundown. Not counted as activity for gaps (rundowns come when sampling may be off); call <see cref="OtherEvent"/> for a real load.</summary>
    public void KernelImage(long t, ulong imageBase, ulong imageSize, string path) => _modules.Loaded(t, imageBase, imageSize, path);

    public void KernelImageUnloaded(long t, ulong imageBase, ulong imageSize, string path)
    {
        _modules.Unloaded(t, imageBase, imageSize, path);
        _gaps.Event(t, isActivity: true);
    }

    /// <summary>
    /// A thread end: syscalls it was still inside never return (a thread that terminates itself never leaves
    /// NtTerminateThread), and a later thread with the same id is another thread.
    /// </summary>
    public void ThreadEnded(long t, int threadId)
    {
        _gaps.Event(t, isActivity: true);
        if (!_threads.Remove(threadId, out var thread)) return;
        _unreturned += thread.Open.Count;
        thread.Open.Clear();
        if (thread.ByAddress.Count > 0) _endedThreads.Add(thread);
    }

    /// <summary>A context switch on <paramref name="cpu"/>: <paramref name="newThreadId"/> runs there from now on.</summary>
    public void ContextSwitch(long t, int cpu, int oldThreadId, int newThreadId)
    {
        _gaps.Event(t, isActivity: true);
        _switches++;
        if (!_running.Switch(t, cpu, newThreadId, oldThreadId).HadSwitched && UnknownOpen(cpu) is { Count: > 0 } unknownOpen)
            // The first switch names the thread that was running: it owns the syscalls entered while it was unknown
            // (they stay counted under "Unknown", but their exits can now be paired).
            _unreturned += unknownOpen.MoveTo(Thread(oldThreadId).Open);
    }

    /// <summary>PerfInfo SysClEnter: the thread running on <paramref name="cpu"/> enters the service routine at <paramref name="address"/>.</summary>
    public void SyscallEnter(long t, int cpu, ulong address)
    {
        _gaps.Event(t, isActivity: true);
        _enters++;
        OpenSyscalls open;
        SyscallStats stats;
        if (_running.HasSwitched(cpu))
        {
            var thread = Thread(_running.Running(cpu));
            if (thread.FirstNs == long.MaxValue) thread.FirstNs = t;
            open = thread.Open;
            stats = thread.Get(address);
            if (thread.PreEnter is { } entry)
            {
                foreach (int handle in entry) Claim(handle, stats);
                thread.PreEnter = null;
            }
        }
        else
        {
            open = UnknownOpenAt(cpu);
            stats = _unknownThread.Get(address);
            _unknownThreadEnters++;
        }
        stats.Calls++;
        stats.Seen(t);
        long epoch = _gaps.LastSampleNs;
        if (stats.EpochStartNs != epoch)
        {
            EndEpoch(stats, last: false);
            stats.EpochStartNs = epoch;
        }
        stats.EpochCalls++;
        if (!open.Push(t, stats)) _unreturned++;
    }

    /// <summary>PerfInfo SysClExit: the thread running on <paramref name="cpu"/> returns from its innermost syscall.</summary>
    public void SyscallExit(long t, int cpu)
    {
        _gaps.Event(t, isActivity: true);
        _exits++;
        OpenSyscalls? open = UnknownOpen(cpu);
        if (_running.HasSwitched(cpu))
        {
            var exiting = Thread(_running.Running(cpu));
            exiting.LastExitNs = t;
            exiting.PreEnter = null;
            exiting.UserSinceExit = false;
            open = exiting.Open;
        }
        if (open is null || !open.TryPop(out long enterNs, out var stats))
        {
            _orphanExits++;
            return;
        }
        stats!.Returned++;
        stats.TotalNs += t - enterNs;
        stats.Seen(t);
    }

    /// <summary>A profile-interval event (SetInterval, CollectionStart/End) of the timer source.</summary>
    /// <param name="previousNs">SetInterval's OldInterval (0 if none): what samples before the trace's first such event were taken at.</param>
    public void SampleInterval(long t, long intervalNs, long previousNs = 0) => _intervals.Set(t, intervalNs, previousNs);

    /// <summary>
    /// Any other kernel event (not a sample). <paramref name="isActivity"/> is false for stacks and rundowns: they
    /// count as events during a profiling gap but alone never show that the kernel logger kept working.
    /// </summary>
    public void OtherEvent(long t, bool isActivity = true) => _gaps.Event(t, isActivity);

    /// <summary>
    /// A CPU sample of <paramref name="threadId"/> on <paramref name="cpu"/>. Returns a handle for
    /// <see cref="SampleStack"/> when the sample fell inside a syscall, else -1. Samples taken in a DPC or an
    /// interrupt are not the syscall's work and never count inside one; nor are samples of user-mode code
    /// (<paramref name="inUserMode"/>): a syscall that calls back into user mode (a window procedure run from
    /// GetMessage) is not at work meanwhile, and one whose exit was never logged must not take the thread's
    /// later user-mode samples. Once a user-mode sample shows the thread out of its open syscalls, its kernel-mode
    /// samples (page faults, APCs) count in none of them either, until it enters another.
    /// </summary>
    public int Sample(long t, int cpu, int threadId, bool inInterrupt = false, bool inUserMode = false)
    {
        long weight = _intervals.Current ?? 0;
        _gaps.Sample(t, _intervals.Current);
        if (inUserMode && !inInterrupt)
        {
            if (_threads.TryGetValue(threadId, out var inUser))
            {
                inUser.Open.InUserMode();
                inUser.PreEnter = null; // user code ran: kernel samples before it are no next syscall's entry, nor after it
                inUser.UserSinceExit = true;
            }
            else if (!_running.HasSwitched(cpu)) UnknownOpen(cpu)?.InUserMode();
        }
        if (inInterrupt || inUserMode) return -1;
        SyscallStats? stats = null;
        if (_threads.TryGetValue(threadId, out var thread)) stats = thread.Open.Innermost;
        if (stats is null && !_running.HasSwitched(cpu))
            // No context switch seen on this processor yet: the thread inside its unknown-thread syscall is still the one running.
            stats = UnknownOpen(cpu)?.Innermost;
        if (stats is null)
        {
            // Kernel code of a thread between syscalls, soon after its last one returned and with no user code sampled
            // since: the next syscall's entry path (KiSystemCall64, then the logging of its SysClEnter, where a hook on
            // that path runs before the event is stamped). It belongs to that syscall when the thread enters one.
            if (thread is null || thread.UserSinceExit || t - thread.LastExitNs > PreEnterWindow(t)) return -1;
            _samples.Add(new PendingSample(null, t, weight, threadId));
            (thread.PreEnter ??= new List<int>(2)).Add(_samples.Count - 1);
            if (thread.PreEnter.Count > MaxPreEnter) thread.PreEnter.RemoveAt(0);
            return _samples.Count - 1;
        }
        stats.Samples.Add(weight);
        _samplesInSyscalls++;
        _samples.Add(new PendingSample(stats, t, weight, threadId));
        return _samples.Count - 1;
    }

    /// <summary>A kernel sample taken on a syscall's entry path, before its SysClEnter: counted inside that syscall.</summary>
    private void Claim(int handle, SyscallStats stats)
    {
        ref var sample = ref CollectionsMarshal.AsSpan(_samples)[handle];
        sample.Stats = stats;
        stats.Samples.Add(sample.WeightNs);
        _samplesInSyscalls++;
    }

    /// <summary>How long after a syscall returned a kernel sample may be the next one's entry: two sample intervals.</summary>
    private long PreEnterWindow(long t) => 2 * _intervals.At(t);

    /// <summary>
    /// The stack (or its kernel part) of a sample <see cref="Sample"/> placed inside a syscall. Every third-party
    /// kernel module among the frames counts once for the sample, whether it is the leaf or deeper. Stacks may
    /// come long after their sample (cached stack keys are defined at the end of a trace). <paramref name="stackId"/>
    /// (an interned stack, 0 for none) is counted per routine and culprit for the Top Stack column.
    /// </summary>
    public void SampleStack(int handle, ReadOnlySpan<ulong> frames, int stackId = 0)
    {
        if ((uint)handle >= (uint)_samples.Count) return;
        ref var sample = ref CollectionsMarshal.AsSpan(_samples)[handle];
        if (sample.Stats is null) return; // a kernel sample between syscalls that no syscall entry claimed
        if (!sample.HasStack)
        {
            sample.HasStack = true;
            _samplesWithStack++;
            if (stackId > 0) (sample.Stats.Stacks ??= new()).Add(StackTally.Whole, stackId, sample.ThreadId, sample.Time);
        }
        foreach (var frame in frames)
        {
            var module = _modules.Find(frame, sample.Time);
            if (module is null || module.IsInbox || module.Name.LastCountedSample == handle) continue;
            module.Name.LastCountedSample = handle;
            sample.Stats.AddModuleSample(module.Name.Index, sample.WeightNs);
            if (stackId > 0) sample.Stats.Stacks!.Add(module.Name.Index, stackId, sample.ThreadId, sample.Time);
        }
    }

    // ---- tables ------------------------------------------------------------------------------------------

    public (Table<SyscallHookOverheadRow> Overhead, Table<ProfilingGapRow> Gaps) Build()
    {
        long unreturned = _unreturned;
        foreach (var state in _threads.Values) unreturned += state.Open.Count;
        foreach (var open in _unknownOpen) unreturned += open?.Count ?? 0;
        foreach (var thread in _endedThreads.Concat(_threads.Values).Append(_unknownThread))
            foreach (var stats in thread.ByAddress.Values)
                EndEpoch(stats, last: true);
        var gaps = _gaps.Finish(_intervals);
        var gapStarts = gaps.Select(g => g.Start).ToHashSet();
        return (BuildOverhead(unreturned, gapStarts), BuildGaps(gaps));
    }

    /// <summary>
    /// Sets aside a routine's calls of the epoch ending now when it may have been a profiling gap: one the detector kept
    /// as a candidate, or, at the end (<paramref name="last"/>: a thread that made none of those calls after a gap), also
    /// the trace's last epoch (a gap may run to its end). Calls before the first sample are the trace's start, never a gap.
    /// </summary>
    private void EndEpoch(SyscallStats stats, bool last)
    {
        if (stats.EpochCalls > 0 && stats.EpochStartNs >= 0 && ((last && stats.EpochStartNs == _gaps.LastSampleNs) || _gaps.IsCandidate(stats.EpochStartNs)))
            (stats.CallsInPossibleGaps ??= new()).Add((stats.EpochStartNs, stats.EpochCalls));
        stats.EpochCalls = 0;
    }

    private Table<SyscallHookOverheadRow> BuildOverhead(long unreturned, HashSet<long> gapStarts)
    {
        var rows = new List<SyscallHookOverheadRow>();
        long callsInGaps = 0;
        foreach (var process in ProcessesOfThreads())
            foreach (var stats in process.ByAddress.Values)
                callsInGaps += AddRows(rows, process.Process, stats, gapStarts);
        rows.Sort(static (a, b) =>
        {
            int c = (b.HookCpuMs ?? -1).CompareTo(a.HookCpuMs ?? -1);
            if (c == 0) c = b.Syscalls.CompareTo(a.Syscalls);
            if (c == 0) c = string.Compare(a.Process, b.Process, StringComparison.OrdinalIgnoreCase);
            if (c == 0) c = (a.Pid ?? -1).CompareTo(b.Pid ?? -1);
            if (c == 0) c = string.CompareOrdinal(a.Syscall, b.Syscall);
            if (c == 0) c = string.CompareOrdinal(a.CulpritModule, b.CulpritModule);
            return c;
        });
        var table = SyscallHookTables.Overhead.Table(rows);
        foreach (var note in SyscallHookNotes.Overhead(Counts(unreturned, callsInGaps))) table.AddNote(note);
        return table;
    }

    /// <returns>The routine's calls made during profiling gaps.</returns>
    private long AddRows(List<SyscallHookOverheadRow> rows, ProcessRef process, SyscallStats stats, HashSet<long> gapStarts)
    {
        string syscall = SyscallName(stats.Address, stats.FirstNs);
        // The rate while the process made this syscall: over its first to last event, not the whole trace.
        double? rate = stats.Calls >= 2 && stats.LastNs > stats.FirstNs ? stats.Calls / ((stats.LastNs - stats.FirstNs) / 1e9) : null;
        double? totalMs = stats.Returned > 0 ? stats.TotalNs / 1e6 : null;
        double? meanUs = stats.Returned > 0 ? stats.TotalNs / 1e3 / stats.Returned : null;
        long samplesNs = stats.Samples.Nanoseconds(_intervals);
        long? pid = process.PidCell;

        var withoutCulprit = new SyscallHookOverheadRow(
            CulpritModule: null,
            Vendor: null,
            Product: null,
            Category: null,
            Process: process.Name,
            Pid: pid,
            Syscall: syscall,
            Syscalls: stats.Calls,
            SyscallsPerSecond: rate,
            TotalSyscallTimeMs: totalMs,
            MeanSyscallTimeUs: meanUs,
            SamplesInSyscalls: stats.Samples.Count,
            HookCpuMs: null,
            HookOverheadPerSyscallUs: null,
            Inflation: null,
            First: stats.FirstNs,
            Last: stats.LastNs,
            TopStack: TopStack(stats, StackTally.Whole)
        );
        if (stats.Modules is null)
        {
            rows.Add(withoutCulprit);
            return 0;
        }
        // Samples see the hook only while they are taken: per syscall, Hook CPU is spread over the calls made then.
        long inGaps = stats.CallsInGaps(gapStarts), sampledCalls = stats.Calls - inGaps;
        foreach (var (index, tally) in stats.Modules)
        {
            var module = _modules.Names[index];
            var identity = _catalogue(module.FileName);
            long hookNs = tally.Nanoseconds(_intervals);
            double? inflation = samplesNs > hookNs ? (double)samplesNs / (samplesNs - hookNs) : null;
            rows.Add(withoutCulprit with
            {
                CulpritModule = module.FileName,
                Vendor = identity?.Vendor,
                Product = NullIfEmpty(identity?.Product),
                Category = identity?.Category ?? SyscallHookTables.UnknownModuleCategory,
                HookCpuMs = hookNs / 1e6,
                HookOverheadPerSyscallUs = sampledCalls > 0 ? hookNs / 1e3 / sampledCalls : null,
                Inflation = inflation,
                TopStack = TopStack(stats, module.Index),
            });
        }
        return inGaps;
    }

    /// <summary>The most sampled stack of the routine (with <paramref name="module"/> in it, or any: <see cref="StackTally.Whole"/>), as text.</summary>
    private string? TopStack(SyscallStats stats, int module) =>
        _stackNames is not null && stats.Stacks?.Top(module) is { } top ? _stackNames(top.Stack, top.ThreadId, top.Time) : null;

    /// <summary>The routine's symbol when one resolves, else <c>module+0xRVA</c>: never a bare address.</summary>
    private string SyscallName(ulong address, long t)
    {
        var module = _modules.Find(address, t);
        if (module is not null && _symbols?.Invoke(module.FileName, address - module.Base) is { Length: > 0 } symbol)
            return symbol;
        return _modules.Describe(address, t);
    }

    private SyscallHookCounts Counts(long unreturned, long callsInGaps) => new(_enters, _exits, _switches, _unknownThreadEnters, _gaps.Samples,
        _samplesInSyscalls, _samplesWithStack, callsInGaps, unreturned, _orphanExits, _modules.Modules.Count, _intervals.IsDefault);

    private Table<ProfilingGapRow> BuildGaps(IReadOnlyList<ProfilingGapDetector.Gap> gaps)
    {
        var table = SyscallHookTables.Gaps.Table(gaps.Select(gap => new ProfilingGapRow(
            Start: gap.Start,
            End: gap.End,
            DurationMs: (gap.End - gap.Start) / 1e6,
            EventsDuringGap: gap.EventsDuring,
            LikelyCause: LikelyCause(gap)
        )));
        foreach (var note in SyscallHookNotes.Gaps(Counts(0, 0))) table.AddNote(note);
        return table;
    }

    private string LikelyCause(ProfilingGapDetector.Gap gap)
    {
        foreach (var (time, ns) in _intervals.Changes)
            if (time >= gap.Start && time <= gap.End)
                return $"The sample interval was changed to {ns / 1e6:0.####} ms during the gap: another session reconfigured the kernel logger's profiling.";
        return gap.Resumed
            ? "Sampling paused while other kernel events went on: another session most likely took over or reconfigured the kernel logger's profiling (e.g. a security product starting its own kernel trace)."
            : "Sampling stopped for the rest of the trace while other kernel events went on: another session most likely took over the kernel logger's profiling (e.g. a security product starting its own kernel trace).";
    }

    /// <summary>Every thread's syscalls merged into its process; threads the trace does not place go under "Unknown".</summary>
    private IEnumerable<ProcessSyscalls> ProcessesOfThreads()
    {
        var processes = new Dictionary<ProcessRef, ProcessSyscalls>();
        void Add(ProcessRef process, ThreadSyscalls thread)
        {
            if (!processes.TryGetValue(process, out var p)) processes[process] = p = new ProcessSyscalls(process);
            p.Merge(thread);
        }
        foreach (var thread in _endedThreads.Concat(_threads.Values))
            if (thread.ByAddress.Count > 0)
                Add(_processOfThread(thread.ThreadId, thread.FirstNs) is { IsKnown: true } process ? process : ProcessRef.Unknown, thread);
        if (_unknownThread.ByAddress.Count > 0) Add(ProcessRef.Unknown, _unknownThread);
        return processes.Values;
    }

    // ---- state -------------------------------------------------------------------------------------------

    private ThreadSyscalls Thread(int threadId)
    {
        if (!_threads.TryGetValue(threadId, out var thread)) _threads[threadId] = thread = new ThreadSyscalls(threadId);
        return thread;
    }

    /// <summary>The syscalls entered on <paramref name="cpu"/> while its thread was unknown, or null when there were none.</summary>
    private OpenSyscalls? UnknownOpen(int cpu) => (uint)cpu < (uint)_unknownOpen.Length ? _unknownOpen[cpu] : null;

    private OpenSyscalls UnknownOpenAt(int cpu)
    {
        if (cpu < 0) cpu = 0;
        if (cpu >= _unknownOpen.Length) Array.Resize(ref _unknownOpen, Math.Max(cpu + 1, _unknownOpen.Length * 2));
        return _unknownOpen[cpu] ??= new OpenSyscalls();
    }

    private static string? NullIfEmpty(string? s) => string.IsNullOrEmpty(s) ? null : s;

    private struct PendingSample(SyscallStats? stats, long time, long weightNs, int threadId)
    {
        public SyscallStats? Stats = stats;
        public readonly long Time = time;
        public readonly long WeightNs = weightNs;
        public readonly int ThreadId = threadId;
        public bool HasStack;
    }
}
