using HiddenCost.Analysis.Common;
using HiddenCost.Etl;
using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Stacks;
using HiddenCost.Etl.State;

namespace HiddenCost.Analysis.Pipeline;

/// <summary>
/// What all analyses of one pass share: the system state (processes, threads, images, CLR methods), the
/// stack collector (stacks matched to their events), and one string pool. The analyzer feeds it each event
/// before the analyses see it, so they can ask "which process is this thread in, now?".
/// </summary>
public sealed class TraceSession : IStackListener
{
    private readonly List<IStackListener> _stackListeners = new();
    private readonly Dictionary<ProcessInfo, ProcessRef> _processRefs = new(ReferenceEqualityComparer.Instance);

    public TraceSession()
    {
        Strings = new StringPool();
        State = new TraceState(Strings);
        Stacks = new StackCollector(listener: this);
    }

    public StringPool Strings { get; }
    public TraceState State { get; }
    public StackCollector Stacks { get; }

    /// <summary>Every completed stack is passed to <paramref name="listener"/> (register in the constructor).</summary>
    public void AddStackListener(IStackListener listener) => _stackListeners.Add(listener);

    public void Observe(in EtwEvent e)
    {
        State.Observe(e);
        Stacks.Observe(e);
    }

    /// <summary>Call once after the last event: finishes stacks still waiting for their user part.</summary>
    public void Complete() => Stacks.Complete();

    void IStackListener.OnStack(in StackMatch match)
    {
        foreach (var listener in _stackListeners) listener.OnStack(match);
    }

    /// <summary>The process instance alive with <paramref name="processId"/> at that time.</summary>
    public ProcessRef Process(int processId, long timeNs)
    {
        if (processId < 0) return ProcessRef.Unknown;
        var info = State.GetProcess(processId, timeNs);
        if (info is null) return processId == 0 ? Idle : new ProcessRef(processId, long.MinValue, $"Process {processId}");
        if (!_processRefs.TryGetValue(info, out var process))
            _processRefs[info] = process = new ProcessRef(info.ProcessId, info.StartTimeNs, info.ImageName.Length > 0 ? info.ImageName : $"Process {processId}");
        return process;
    }

    /// <summary>The process of thread <paramref name="threadId"/> at that time, else of <paramref name="fallbackProcessId"/>.</summary>
    public ProcessRef ProcessOfThread(int threadId, long timeNs, int fallbackProcessId = -1)
    {
        var thread = threadId > 0 ? State.GetThread(threadId, timeNs) : null;
        return Process(thread?.ProcessId ?? fallbackProcessId, timeNs);
    }

    private static readonly ProcessRef Idle = new(0, long.MinValue, "Idle");
}
