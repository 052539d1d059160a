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
        // Keys already matched stay queued until they come round; when they pile up, keep only those still waiting.
        // (Dropping matched keys from the head alone stops at the first sample that never gets a stack, and the queue
        // then grew by one entry a sample for the rest of the trace.) At most once per MaxPending samples: O(1) amortised.
        if (_order.Count > 2 * MaxPending) CompactOrder();
    }

    private void CompactOrder()
    {
        var waiting = new HashSet<(long, int)>();
        int count = _order.Count;
        for (int i = 0; i < count; i++)
        {
            var key = _order.Dequeue();
            if (_pending.ContainsKey(key) && waiting.Add(key)) _order.Enqueue(key);
        }
    }

    /// <summary>Keys queued for eviction (at most 2 × <see cref="MaxPending"/> + 1).</summary>
    internal int QueuedKeys => _order.Count;

    public void OnStack(in StackMatch match)
    {
        if (match.Stack.IsNone || !_pending.Remove((match.EventTimestamp, match.ThreadId), out long index)) return;
        log.SetStack(index, match.Stack.Value);
        Matched++;
    }
}
