using HiddenCost.Etl.Stacks;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>
/// Gives each logged sample the stack the session's collector completes for it, matched as the collector matches
/// (the sample's raw timestamp and sampled thread). Listening, rather than asking the collector for a ticket, leaves
/// the collector's tickets to the other analyses: it answers one ticket per event.
/// Samples wait for their stack by the collector's own rule for tickets: a sample nothing has arrived for within
/// <see cref="StackCollector.TicketWaitNs"/> of trace time gives up and is classified by its instruction pointer
/// alone, while one whose kernel part waits on its thread for the user part keeps waiting (the collector always
/// finishes such a part). So what waits is bounded by the samples of that time, not by the trace's length (a trace
/// whose samples never get stacks held one entry per sample before). <see cref="MaxPending"/> stays as a backstop
/// for a trace whose clock stands still.
/// </summary>
internal sealed class SampleStackMatcher(SpinEventLog log, Func<int, long, bool>? kernelPartWaiting = null) : IStackListener
{
    public const int MaxPending = 1 << 20;

    private readonly Dictionary<(long Timestamp, int Thread), long> _pending = new();
    private readonly Queue<Expected> _order = new();

    private readonly record struct Expected(long TimeNs, long Timestamp, int Thread, long Index);

    public long Matched { get; private set; }

    /// <summary>Samples that gave up waiting for their stack (their time had passed, or the backstop).</summary>
    public long Expired { get; private set; }

    /// <summary>Samples still waiting for their stack.</summary>
    internal int PendingCount => _pending.Count;

    /// <summary>Keys queued for expiry (those of the last <see cref="StackCollector.TicketWaitNs"/>, at most 2 × <see cref="MaxPending"/> + 1).</summary>
    internal int QueuedKeys => _order.Count;

    /// <summary>Sample <paramref name="sampleIndex"/> of the log, taken at <paramref name="timeNs"/>, waits for the stack of (timestamp, thread).</summary>
    public void Expect(long rawTimestamp, int threadId, long sampleIndex, long timeNs)
    {
        if (_order.Count > 0) ExpireBefore(timeNs);
        if (!_pending.TryAdd((rawTimestamp, threadId), sampleIndex)) return;
        _order.Enqueue(new Expected(timeNs, rawTimestamp, threadId, sampleIndex));
        while (_pending.Count > MaxPending && _order.TryDequeue(out var oldest))
            if (GiveUp(oldest)) Expired++;
        // Keys already matched stay queued until they come round; when they pile up within one wait (a clock standing
        // still), keep only those still waiting. At most once per MaxPending samples: O(1) amortised.
        if (_order.Count > 2 * MaxPending) CompactOrder();
    }

    public void OnStack(in StackMatch match) => Take(match);

    /// <summary>Gives the stack to the sample waiting for it; true when one was (the log keeps the id).</summary>
    public bool Take(in StackMatch match)
    {
        if (match.Stack.IsNone || !_pending.Remove((match.EventTimestamp, match.ThreadId), out long index)) return false;
        log.SetStack(index, match.Stack.Value);
        Matched++;
        return true;
    }

    private void ExpireBefore(long nowNs)
    {
        while (_order.TryPeek(out var oldest) && nowNs - oldest.TimeNs > StackCollector.TicketWaitNs)
        {
            _order.Dequeue();
            // A sample whose kernel part waits for its user part keeps waiting (out of the queue): the collector
            // finishes that part, and the stack then comes.
            if (kernelPartWaiting?.Invoke(oldest.Thread, oldest.Timestamp) == true) continue;
            if (GiveUp(oldest)) Expired++;
        }
    }

    /// <summary>Stops waiting for this sample's stack, unless it is no longer the one waiting under its key.</summary>
    private bool GiveUp(in Expected e)
    {
        var key = (e.Timestamp, e.Thread);
        if (!_pending.TryGetValue(key, out long index) || index != e.Index) return false;
        _pending.Remove(key);
        return true;
    }

    private void CompactOrder()
    {
        int count = _order.Count;
        for (int i = 0; i < count; i++)
        {
            var e = _order.Dequeue();
            if (_pending.TryGetValue((e.Timestamp, e.Thread), out long index) && index == e.Index) _order.Enqueue(e);
        }
    }
}
