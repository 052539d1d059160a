using HiddenCost.Etl.Stacks;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>
/// Gives each logged sample the stack the session's collector completes for it, matched as the collector matches
/// (the sample's raw timestamp and sampled thread). Listening, rather than asking the collector for a ticket, leaves
/// the collector's tickets to the other analyses: it answers one ticket per event. Samples still waiting are
/// bounded: past <see cref="MaxPending"/> the oldest give up and are classified by their instruction pointer alone.
/// </summary>
internal sealed class SampleStackMatcher(SpinEventLog log) : IStackListener
{
    public const int MaxPending = 1 << 20;

    private readonly Dictionary<(long Timestamp, int Thread), long> _pending = new();
    private readonly Queue<(long Timestamp, int Thread)> _order = new();

    public long Matched { get; private set; }

    /// <summary>Sample <paramref name="sampleIndex"/> of the log waits for the stack of (timestamp, thread).</summary>
    public void Expect(long rawTimestamp, int threadId, long sampleIndex)
    {
        var key = (rawTimestamp, threadId);
        if (!_pending.TryAdd(key, sampleIndex)) return;
        _order.Enqueue(key);
        while (_pending.Count > MaxPending && _order.TryDequeue(out var oldest)) _pending.Remove(oldest);
        // Keys already matched stay queued until they come round; drop them early when they pile up.
        if (_order.Count > 2 * MaxPending)
        {
            while (_order.TryPeek(out var head) && !_pending.ContainsKey(head)) _order.Dequeue();
        }
    }

    public void OnStack(in StackMatch match)
    {
        if (match.Stack.IsNone || !_pending.Remove((match.EventTimestamp, match.ThreadId), out long index)) return;
        log.SetStack(index, match.Stack.Value);
        Matched++;
    }
}
