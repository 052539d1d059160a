using System.Runtime.InteropServices;
using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Etl;
using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Stacks;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>
/// Feeds the Spin-Wait tracker from the event stream. A sample can only be classified once its stack has arrived
/// (user parts and stack keys come late) and the CLR rundown has named the methods in it (MethodDCEndVerbose comes
/// at the end of the trace), so samples, contention events and the lock-wait switches that may end a spin run are
/// logged compactly and replayed in stream order at <see cref="Complete"/>, each distinct stack classified once.
/// Yields and Sleep(0) switches need no stacks: they are counted per thread as they come. Processes are resolved
/// only after the pass too (<see cref="TraceSession.Final"/>), so a trace that describes its processes only in the
/// rundown at its end (WPR's memory mode) names them as well as one that describes them at the start.
/// </summary>
public sealed class SpinWaitAnalysis : ITraceAnalysis
{
    private const int MaxFrames = 1024;

    private readonly TraceSession _session;
    private readonly SpinEventLog _log;
    private readonly SpinWaitTracker _tracker;
    private readonly SpinWaitReadiness _readiness = new();
    private readonly List<ProcessRef> _processes = new();
    private readonly Dictionary<ProcessRef, int> _processIndex = new(ReferenceEqualityComparer.Instance);
    private readonly HashSet<int> _sampledSinceLockWait = new();
    private readonly Dictionary<(ProcessRef Process, int Stack), SampleClass> _classes = new();
    private readonly Dictionary<int, ThreadSwitches> _switches = new();
    private readonly List<(int Thread, ThreadSwitches Counts)> _endedSwitches = new();
    private ProcessRef[] _final = Array.Empty<ProcessRef>();
    private readonly StackFrame[] _frames = new StackFrame[MaxFrames];
    private readonly SampleStackMatcher _stackMatcher;

    public SpinWaitAnalysis(TraceSession session) : this(session, SpinLogOptions.Default) { }

    /// <param name="logOptions">How the event log keeps its chunks in memory and in its temporary file (tests make them tiny).</param>
    internal SpinWaitAnalysis(TraceSession session, SpinLogOptions logOptions)
    {
        _session = session;
        _log = new SpinEventLog(logOptions);
        _tracker = new SpinWaitTracker(logOptions);
        _stackMatcher = new SampleStackMatcher(_log, (thread, timestamp) => session.Stacks.IsWaitingForUserPart(thread, timestamp));
        session.AddStackListener(_stackMatcher);
    }

    /// <summary>Bytes the event log wrote to its temporary file (for tests).</summary>
    internal long LogSpilledBytes => _log.SpilledBytes;

    /// <summary>Bytes of spin runs waiting to be placed that the tracker wrote to its temporary file (for tests).</summary>
    internal long RunsSpilledBytes => _tracker.SpilledBytes;

    public IReadOnlyList<TableSpec> Tables { get; } = new[] { SpinWaitTables.PerLock.Spec, SpinWaitTables.ByProcess.Spec };

    public void OnEvent(in EtwEvent e)
    {
        _readiness.Observe(e);
        if (e.IsKernel)
        {
            if (e.Group == KernelGroups.PerfInfo) OnPerfInfo(e);
            else if (e.Group == KernelGroups.Thread && ContextSwitch.TryDecode(e, out var cs)) OnContextSwitch(e.TimeNs, cs);
            return;
        }
        if (ClrContentionStart.TryDecode(e, out var start))
            _log.AddContentionStart(e.TimeNs, e.ThreadId, ProcessIndex(_session.ProcessOfThread(e.ThreadId, e.TimeNs, e.ProcessId)),
                start.LockId, start.AssociatedObjectId);
        else if (ClrContentionStop.TryDecode(e, out var stop))
            _log.AddContentionStop(e.TimeNs, e.ThreadId, ProcessIndex(_session.ProcessOfThread(e.ThreadId, e.TimeNs, e.ProcessId)), stop.DurationNs);
    }

    public IReadOnlyList<Table> Complete(AnalysisContext context)
    {
        _final = _processes.Select(_session.Final).ToArray();
        foreach (var (thread, c) in _switches.Select(s => (s.Key, s.Value)).Concat(_endedSwitches))
            _tracker.Switches(_session.Final(c.Process), thread, c.Yields, c.FirstYieldNs, c.LastYieldNs, c.Delays);
        using (_log) new SpinReplay(_tracker, _final, Classify).Run(_log);
        var (perLock, byProcess) = _tracker.Build(context.LastEventNs);
        foreach (var note in _readiness.Notes().Concat(SpinWaitNotes.LogInMemory(_log.SpillFailure ?? _tracker.SpillFailure)))
        {
            perLock.AddNote(note);
            byProcess.AddNote(note);
        }
        if (_session.Symbols.MissingNote("Native spin functions are not recognised and call sites") is { } missing)
        {
            perLock.AddNote(TableNote.Info("symbols.missing", missing));
            byProcess.AddNote(TableNote.Info("symbols.missing", missing));
        }
        return new Table[] { perLock, byProcess };
    }

    private void OnPerfInfo(in EtwEvent e)
    {
        if (SampledProfile.TryDecode(e, out var s))
        {
            if (s.ThreadId <= 0) return; // the idle thread
            var process = _session.ProcessOfThread(s.ThreadId, e.TimeNs, e.ProcessId);
            if (process.Pid is 0 or 4) return; // Idle and System run no user code, so never a lock's spin (stand-ins: at replay)
            long index = _log.AddSample(e.TimeNs, s.ThreadId, ProcessIndex(process), s.InstructionPointer);
            _stackMatcher.Expect(e.RawTimestamp, s.ThreadId, index, e.TimeNs);
            _sampledSinceLockWait.Add(s.ThreadId);
        }
        else if (ProfileInterval.TryDecode(e, out var interval) && interval.Source == 0 && interval.NewInterval > 0)
        {
            _tracker.ProfileInterval(e.TimeNs, interval.IntervalNs, interval.PreviousIntervalNs);
        }
    }

    private void OnContextSwitch(long t, in ContextSwitch cs)
    {
        int old = cs.OldThreadId;
        if (old <= 0) return;
        byte reason = cs.OldThreadWaitReason, state = cs.OldThreadState;
        bool yield = KernelWait.IsYield(reason);
        if (yield || KernelWait.IsSleepZero(reason, state))
        {
            // Sleep(0) storms switch millions of times: one lookup by thread; the session hands out one instance per
            // process (or stand-in), so a different instance is a reused thread id.
            var process = _session.ProcessOfThread(old, t);
            ref var c = ref CollectionsMarshal.GetValueRefOrAddDefault(_switches, old, out bool seen);
            if (seen && !ReferenceEquals(c.Process, process)) _endedSwitches.Add((old, c));
            if (!seen || !ReferenceEquals(c.Process, process)) c = new ThreadSwitches(process);
            if (yield) c.AddYield(t);
            else c.Delays++;
        }
        // A wait may end a spin run (replayed in order), so one is logged when the thread was sampled since its last
        // one: since its last switch-in would miss a spin that was preempted or yielded before it blocked.
        else if ((KernelWait.IsLockWait(reason, state) || KernelWait.IsOtherWait(reason, state)) && _sampledSinceLockWait.Remove(old))
            _log.AddSwitchOut(t, old, ProcessIndex(_session.ProcessOfThread(old, t)), reason, state);
    }

    private int ProcessIndex(ProcessRef process)
    {
        if (!_processIndex.TryGetValue(process, out int index))
        {
            _processIndex[process] = index = _processes.Count;
            _processes.Add(process);
        }
        return index;
    }

    private SampleClass Classify(in LoggedSample sample)
    {
        var stack = new StackId(sample.Stack);
        int pid = _final[sample.Process].Pid;
        if (stack.IsNone)
        {
            _frames[0] = Resolve(pid, sample.InstructionPointer, sample.TimeNs);
            return SpinClassifier.Classify(_frames.AsSpan(0, 1), hasStack: false);
        }
        // Keyed by the resolved process: stand-ins are one per thread, a stack is classified once per process.
        var key = (_final[sample.Process], stack.Value);
        if (_classes.TryGetValue(key, out var known)) return known;
        var frames = _session.Stacks.Store.GetFrames(stack);
        int n = Math.Min(frames.Count, MaxFrames);
        for (int i = 0; i < n; i++) _frames[i] = Resolve(pid, frames[i], sample.TimeNs);
        var c = SpinClassifier.Classify(_frames.AsSpan(0, n), hasStack: n > 0);
        _classes[key] = c;
        return c;
    }

    private StackFrame Resolve(int pid, ulong address, long t)
    {
        var frame = _session.State.ResolveFrame(pid, address, t);
        if (frame.Method is { } method) return StackFrame.Managed(method.FullName, address: address);
        if (KernelAddress.IsKernel(address, _session.State.KernelPointerSize)) return StackFrame.Kernel(frame.Image?.FileName, address: address);
        return frame.Image is { } image ? StackFrame.Native(image.FileName, FunctionName(image, address), address) : new StackFrame(FrameOrigin.Unknown, null, null, address);
    }

    /// <summary>The native function's name when its image's PDB resolves (null without symbols: frames stay module-only, as always).</summary>
    private string? FunctionName(Etl.State.ImageInfo image, ulong address) =>
        _session.Symbols.Name(image, address) is { } name ? name[(name.IndexOf('!') + 1)..] : null;
}

/// <summary>One thread's yields (their first and last time, for the rate) and Sleep(0) delay switches.</summary>
internal struct ThreadSwitches(ProcessRef process)
{
    public readonly ProcessRef Process = process;
    public long Yields, Delays;
    public long FirstYieldNs = long.MaxValue, LastYieldNs = long.MinValue;

    public void AddYield(long t)
    {
        Yields++;
        if (t < FirstYieldNs) FirstYieldNs = t;
        if (t > LastYieldNs) LastYieldNs = t;
    }
}
