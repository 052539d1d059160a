namespace HiddenCost.Etl.Stacks;

/// <summary>
/// A stack matched to the event it belongs to: that event's raw timestamp (<see cref="EtwEvent.RawTimestamp"/>),
/// process and thread. <see cref="Stack"/> may hold pending key parts until the trace defines them.
/// </summary>
public readonly record struct StackMatch(long EventTimestamp, int ProcessId, int ThreadId, StackId Stack);

/// <summary>Receives every stack the collector completes, in the order they complete.</summary>
public interface IStackListener
{
    void OnStack(in StackMatch match);
}
