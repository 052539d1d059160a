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

    /// <summary>
    /// Receives a stack (<see cref="OnStack"/>) and says whether the listener keeps its id past the call. An id nobody
    /// keeps (and no ticket took) may be forgotten by the store once its stack keys turn out to name frames it already
    /// holds under another id. A listener that keeps some stacks and not others (one waiting for certain events'
    /// stacks) returns false for the others; the default keeps every one, as a listener that only implements
    /// <see cref="OnStack"/> may.
    /// </summary>
    bool Take(in StackMatch match)
    {
        OnStack(match);
        return true;
    }
}
