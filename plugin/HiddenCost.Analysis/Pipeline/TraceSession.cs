using HiddenCost.Analysis.Common;
using HiddenCost.Etl;
using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Stacks;
using HiddenCost.Etl.State;

namespace HiddenCost.Analysis.Pipeline;

/// <summary>
/// What all analyses of one pass share: the system state (processes, threads, images, CLR methods), the
/// stack collector (stacks matched to their events), and one string pool. The analyzer feeds it each event
/// before the analyses see it, so they can ask "which process is this thread in, now?". It builds only the parts
/// <see cref="Needs"/> names (what the pass's analyses declared they read); reading a part it does not build is a
/// mistake in a declaration and throws, so a test that runs each analysis alone finds it.
/// </summary>
public sealed class TraceSession : IStackListener
{
    private readonly List<IStackListener> _stackListeners = new();
    private readonly Dictionary<ProcessInfo, ProcessRef> _processRefs = new(ReferenceEqualityComparer.Instance);
    private readonly Dictionary<int, ProcessRef> _unnamed = new();
    private readonly Dictionary<int, ProcessRef> _standInByThread = new();
    private readonly Dictionary<int, ProcessRef> _standInByProcess = new();
    private readonly Dictionary<ProcessRef, (int ThreadId, int ProcessId, long FirstNs)> _standIns = new(ReferenceEqualityComparer.Instance);
    private ProcessInfo? _lastInfo;
    private ProcessRef? _lastRef;
    private readonly StackCollector _stacks;
    private readonly StackedKernelEvents _stackedEvents = new();
    private readonly RunningThreads _running = new();
    private readonly bool _countsUndecodable;
    private bool _complete;

    /// <param name="needs">The parts of the session the planned analyses read; the others are not built.</param>
    /// <param name="symbols">Names native frames from PDBs when given (the run's symbol path); null: <c>module+0xRVA</c> as always.</param>
    /// <param name="countsUndecodable">
    /// Whether it counts the events its decoders cannot decode (<see cref="Undecodable"/>); a pass run in lanes counts them
    /// in one lane's session only, since every lane sees the same events.
    /// </param>
    public TraceSession(SessionNeeds needs = SessionNeeds.All, Symbols.Resolution.SymbolResolver? symbols = null, bool countsUndecodable = true)
    {
        Needs = needs;
        _countsUndecodable = countsUndecodable;
        Strings = new StringPool();
        State = new TraceState(Strings, StatePartsFor(needs));
        _stacks = new StackCollector(listener: this);
        Symbols = new SymbolNames(symbols, State);
    }

    /// <summary>The parts this session builds.</summary>
    public SessionNeeds Needs { get; }

    /// <summary>Native function names from PDBs, asked for only when a table needs one.</summary>
    public SymbolNames Symbols { get; }

    /// <summary>Kernel events that carried a stack, by kind (Event Counts and Trace Readiness read it).</summary>
    public StackedKernelEvents StackedEvents => Built(SessionNeeds.StackedEvents) ? _stackedEvents : throw NotBuilt(SessionNeeds.StackedEvents);

    /// <summary>Events of kinds the tables read that their decoders could not decode (damage inside payloads).</summary>
    public UndecodableEvents Undecodable => _countsUndecodable ? _undecodable
        : throw new InvalidOperationException("this lane's session does not count undecodable events: the first lane's does");

    private readonly UndecodableEvents _undecodable = new();

    /// <summary>The thread running on each processor, from the context switches the session sees before the analyses do.</summary>
    public RunningThreads Running => Built(SessionNeeds.RunningThreads) ? _running : throw NotBuilt(SessionNeeds.RunningThreads);

    public StringPool Strings { get; }

    /// <summary>Processes, threads, images and methods over time, as far as <see cref="Needs"/> asks (lookups of the rest find nothing).</summary>
    public TraceState State { get; }

    public StackCollector Stacks => Built(SessionNeeds.Stacks) ? _stacks : throw NotBuilt(SessionNeeds.Stacks);

    /// <summary>Every completed stack is passed to <paramref name="listener"/> (register in the constructor).</summary>
    public void AddStackListener(IStackListener listener) => _stackListeners.Add(listener);

    public void Observe(in EtwEvent e)
    {
        State.Observe(e);
        // Before the analyses see the switch: those that track it report it too and get the state before it.
        if (Built(SessionNeeds.RunningThreads) && e.IsKernel && e.Group == KernelGroups.Thread && e.Opcode == ContextSwitch.Opcode
            && ContextSwitch.TryDecode(e, out var cs))
            _running.Switch(e.TimeNs, e.Cpu, cs.NewThreadId, cs.OldThreadId);
        if (Built(SessionNeeds.Stacks)) _stacks.Observe(e);
        if (Built(SessionNeeds.StackedEvents)) _stackedEvents.Observe(e);
        if (_countsUndecodable) _undecodable.Observe(e, Strings);
    }

    /// <summary>Call once after the last event: finishes stacks still waiting for their user part.</summary>
    public void Complete()
    {
        if (Built(SessionNeeds.Stacks)) _stacks.Complete();
        _complete = true;
    }

    private bool Built(SessionNeeds part) => (Needs & part) == part;

    private static InvalidOperationException NotBuilt(SessionNeeds part) =>
        new($"this pass's session does not build {part}: the analysis reading it must declare it (AnalysisEntry)");

    private static StateParts StatePartsFor(SessionNeeds needs) =>
        ((needs & SessionNeeds.Processes) != 0 ? StateParts.Processes : StateParts.None)
        | ((needs & SessionNeeds.Images) != 0 ? StateParts.Images : StateParts.None)
        | ((needs & SessionNeeds.ClrMethods) != 0 ? StateParts.ClrMethods : StateParts.None);

    void IStackListener.OnStack(in StackMatch match)
    {
        foreach (var listener in _stackListeners) listener.OnStack(match);
    }

    // Kept when any listener keeps it: the store may forget a stack id nobody keeps (StackStore.Hold).
    bool IStackListener.Take(in StackMatch match)
    {
        bool kept = false;
        foreach (var listener in _stackListeners) kept |= listener.Take(match);
        return kept;
    }

    /// <summary>
    /// The process instance alive with <paramref name="processId"/> at that time. During the pass, an id the trace
    /// has not described yet gets a stand-in (<see cref="ProcessRef.StandIn"/>), resolved by <see cref="Final"/>.
    /// </summary>
    public ProcessRef Process(int processId, long timeNs)
    {
        if (!Built(SessionNeeds.Processes)) throw NotBuilt(SessionNeeds.Processes);
        if (processId < 0) return ProcessRef.Unknown;
        var info = State.GetProcess(processId, timeNs);
        if (info is null)
        {
            if (processId == 0) return Idle;
            if (!_complete) return StandInFor(0, processId, timeNs);
            if (!_unnamed.TryGetValue(processId, out var unnamed))
                _unnamed[processId] = unnamed = new ProcessRef(processId, long.MinValue, $"Process {processId}");
            return unnamed;
        }
        if (_standInByProcess.Count > 0) _standInByProcess.Remove(processId); // a later unknown stretch of this id is another process
        // Events come in runs from one process: the last answer saves the lookup (a process's ref never changes).
        if (ReferenceEquals(info, _lastInfo)) return _lastRef!;
        if (!_processRefs.TryGetValue(info, out var process))
            _processRefs[info] = process = new ProcessRef(info.ProcessId, info.StartTimeNs, info.ImageName.Length > 0 ? info.ImageName : $"Process {processId}");
        _lastInfo = info;
        _lastRef = process;
        return process;
    }

    /// <summary>
    /// The process of thread <paramref name="threadId"/> at that time, else of <paramref name="fallbackProcessId"/>.
    /// During the pass, a thread the trace has not described yet (nor the fallback process) gets a stand-in for its
    /// process, and so does a known thread whose process is not described yet: WPR's memory mode describes what
    /// predates the trace only in the rundown at its end. Analyses that keep processes from the pass pass them
    /// through <see cref="Final"/> after it.
    /// </summary>
    public ProcessRef ProcessOfThread(int threadId, long timeNs, int fallbackProcessId = -1)
    {
        if (!Built(SessionNeeds.Processes)) throw NotBuilt(SessionNeeds.Processes);
        var thread = threadId > 0 ? State.GetThread(threadId, timeNs) : null;
        if (thread is not null)
        {
            if (_standInByThread.Count > 0) _standInByThread.Remove(threadId); // a later unknown stretch of this id is another thread
            return Process(thread.ProcessId, timeNs);
        }
        if (_complete || threadId <= 0 || (fallbackProcessId >= 0 && State.GetProcess(fallbackProcessId, timeNs) is not null))
            return Process(fallbackProcessId, timeNs);
        return StandInFor(threadId, fallbackProcessId, timeNs);
    }

    /// <summary>
    /// After the pass (<see cref="Complete"/>): the process a stand-in stood for, now that the whole trace (its end
    /// rundown included) has been read; any other process as it is.
    /// </summary>
    public ProcessRef Final(ProcessRef process)
    {
        if (process.StandIn == 0 || !_standIns.TryGetValue(process, out var seen)) return process;
        int pid = seen.ThreadId > 0 && State.GetThread(seen.ThreadId, seen.FirstNs) is { } thread ? thread.ProcessId : seen.ProcessId;
        return Process(pid, seen.FirstNs);
    }

    /// <summary>One stand-in per unknown thread (<paramref name="threadId"/> &gt; 0) or else per unknown process id.</summary>
    private ProcessRef StandInFor(int threadId, int processId, long timeNs)
    {
        var byId = threadId > 0 ? _standInByThread : _standInByProcess;
        int id = threadId > 0 ? threadId : processId;
        if (!byId.TryGetValue(id, out var standIn))
        {
            standIn = new ProcessRef(processId, long.MinValue, processId >= 0 ? $"Process {processId}" : ProcessRef.Unknown.Name)
            {
                StandIn = _standIns.Count + 1,
            };
            byId[id] = standIn;
            _standIns[standIn] = (threadId, processId, timeNs);
        }
        return standIn;
    }

    private static readonly ProcessRef Idle = new(0, long.MinValue, "Idle");
}
