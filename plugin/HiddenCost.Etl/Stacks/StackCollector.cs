using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Reading;
using HiddenCost.Etl.Records;

namespace HiddenCost.Etl.Stacks;

/// <summary>
/// Attaches stacks to the events they belong to, in one streaming pass. Feed it every event in stream order
/// (<see cref="Observe"/>); it reads the StackWalk events (Stack, StackKeyKernel/User with their KeyCreate,
/// KeyDelete and KeyRundown definitions) and the STACK_TRACE32/64 extended items of EVENT_HEADER events, and
/// combines kernel and user parts:
/// <list type="bullet">
/// <item>A part belongs to the event with the same raw timestamp on the same thread (the part's EventTimeStamp
/// and StackThread).</item>
/// <item>A kernel part waits on its thread for the user part. Windows walks the user stack once, when the thread
/// returns to user mode, and stamps it with the time the thread entered the kernel: every waiting kernel part of
/// that thread at or after that time gets it. Kernel parts of the System and Idle processes, of ended threads,
/// and those left at <see cref="Complete"/> are finished without a user part.</item>
/// <item>A key's frames arrive after its references (KeyDelete, KeyRundown): the stack holds a pending part
/// that <see cref="StackStore"/> fills in when the definition comes. After <see cref="Complete"/> every key the
/// trace defines is resolved.</item>
/// </list>
/// Two ways to use the result: register an <see cref="IStackListener"/> for every completed stack, or call
/// <see cref="Expect(in EtwEvent)"/> for the events you want and read <see cref="StackOf"/> with the ticket
/// later. Memory: the interned stacks, one int per ticket, and the parts still waiting (bounded per thread).
/// </summary>
public sealed class StackCollector
{
    /// <summary>Kernel parts that may wait on one thread for its user part.</summary>
    public const int MaxWaitingPerThread = 4096;

    /// <summary>How long (trace time) a ticket waits for the first part of its stack before it is given none.</summary>
    public const long TicketWaitNs = 1_000_000_000;

    private const int MaxFrames = 1024;

    private readonly IStackListener? _listener;
    private readonly Dictionary<ulong, int> _openKeys = new();
    private readonly Dictionary<int, List<Waiting>> _waitingByThread = new();
    private readonly Dictionary<(long Timestamp, int Thread), int> _tickets = new();
    private readonly Queue<(long TimeNs, long Timestamp, int Thread)> _ticketAges = new();
    private readonly List<StackId> _ticketResults = new();
    private readonly ulong[] _scratch = new ulong[MaxFrames];
    // Key parts (pending, or resolved to a duplicate) that kernel parts waiting for their user part hold (how many each), and deleted keys' parts
    // released to the store once the last of those is finished.
    private readonly Dictionary<int, int> _waitingOnPending = new();
    private readonly HashSet<int> _releaseWhenUnheld = new();
    private long _now;

    private readonly record struct Waiting(long Timestamp, int ProcessId, int KernelPart);

    public StackCollector(StackStore? store = null, IStackListener? listener = null)
    {
        Store = store ?? new StackStore();
        _listener = listener;
    }

    public StackStore Store { get; }

    /// <summary>StackWalk Stack events seen.</summary>
    public long StackEvents { get; private set; }
    /// <summary>StackKeyKernel / StackKeyUser references seen.</summary>
    public long KeyReferences { get; private set; }
    /// <summary>KeyCreate / KeyDelete / KeyRundown definitions seen.</summary>
    public long KeyDefinitions { get; private set; }
    /// <summary>STACK_TRACE32/64 extended items seen on EVENT_HEADER events.</summary>
    public long ExtendedStackItems { get; private set; }
    /// <summary>Stacks matched to events (listener calls).</summary>
    public long Completed { get; private set; }
    /// <summary>Kernel parts finished without a user part because the thread waited too long or ended, or the trace ended.</summary>
    public long KernelOnlyFlushed { get; private set; }

    /// <summary>
    /// Learns from one event; true when it was a StackWalk event (which has no meaning of its own).
    /// Call it for every event, in stream order.
    /// </summary>
    public bool Observe(in EtwEvent e)
    {
        _now = e.TimeNs;
        if (_ticketAges.Count > 0) ExpireTickets();
        if (e.IsKernel)
        {
            if (e.Group == KernelGroups.StackWalk)
            {
                ObserveStackWalk(e);
                return true;
            }
            if (e.Group == KernelGroups.Thread && e.Opcode == ThreadEvent.End && e.Payload.Length >= 8)
                FlushThread(PayloadReader.I32(e.Payload, 4));
            return false;
        }
        if (e.Kind == RecordHeaderKind.EventHeader && e.ExtendedData.Length > 0) ObserveExtendedStack(e);
        return false;
    }

    /// <summary>
    /// Asks for the stack of <paramref name="e"/>; returns a ticket for <see cref="StackOf"/>. Uses the thread the
    /// stack will name: SampledProfile's sampled thread, CSwitch's new (or old) thread, else the event's thread.
    /// For EVENT_HEADER events with a stack extended item the answer is immediate, unless the item's user part comes
    /// later (call <see cref="Observe"/> for the event first).
    /// </summary>
    public int Expect(in EtwEvent e)
    {
        if (e.Kind == RecordHeaderKind.EventHeader)
        {
            // A stack item whose user part comes in a later StackWalk event (MatchId set) left its kernel part waiting
            // on the thread when the event was observed: the ticket is answered when the two are joined (or the kernel
            // part is given up), as the listener is.
            if (IsWaiting(e.ThreadId, e.RawTimestamp)) return Expect(e.RawTimestamp, e.ThreadId, e.TimeNs);
            int ticket = NewTicket();
            if (e.ExtendedData.Length > 0 && TryReadExtendedStack(e, out int kernel, out int user, out _))
                _ticketResults[ticket] = Store.Intern(kernel, user);
            return ticket;
        }
        if (SampledProfile.TryDecode(e, out var sample)) return Expect(e.RawTimestamp, sample.ThreadId, e.TimeNs);
        if (ContextSwitch.TryDecode(e, out var cswitch))
        {
            // The stack walked at a context switch is the new thread's (WPA's "New Thread Stack"); the old thread's
            // id is registered too, so whichever thread the StackWalk event names gets matched.
            int both = Expect(e.RawTimestamp, cswitch.NewThreadId, e.TimeNs);
            if (_tickets.TryAdd((e.RawTimestamp, cswitch.OldThreadId), both)) _ticketAges.Enqueue((e.TimeNs, e.RawTimestamp, cswitch.OldThreadId));
            return both;
        }
        return Expect(e.RawTimestamp, e.ThreadId, e.TimeNs);
    }

    /// <summary>Asks for the stack of the event at raw timestamp <paramref name="timestamp"/> on <paramref name="threadId"/>.</summary>
    /// <remarks>Asking twice for the same pending event (two analyses wanting one sample's stack) gives the same ticket.</remarks>
    public int Expect(long timestamp, int threadId, long timeNs)
    {
        if (_tickets.TryGetValue((timestamp, threadId), out int pending)) return pending;
        int ticket = NewTicket();
        _tickets.Add((timestamp, threadId), ticket);
        _ticketAges.Enqueue((timeNs, timestamp, threadId));
        return ticket;
    }

    /// <summary>The stack a ticket got (<see cref="StackId.None"/> while unmatched or when the event had none).</summary>
    public StackId StackOf(int ticket) => (uint)ticket < (uint)_ticketResults.Count ? _ticketResults[ticket] : StackId.None;

    public int TicketCount => _ticketResults.Count;

    /// <summary>Finishes every waiting kernel part (the trace has ended). Call once after the last event.</summary>
    public void Complete()
    {
        foreach (var thread in _waitingByThread.Keys.ToArray()) FlushThread(thread);
        _tickets.Clear();
        _ticketAges.Clear();
    }

    private void ObserveStackWalk(in EtwEvent e)
    {
        switch (e.Opcode)
        {
            case StackWalkTypes.Stack when StackWalkStack.TryDecode(e, out var stack):
            {
                StackEvents++;
                int n = stack.CopyFrames(e.Payload, _scratch);
                var frames = _scratch.AsSpan(0, n);
                int split = KernelPrefix(frames, e.PointerSize);
                int kernel = Store.InternPart(frames[..split]);
                int user = Store.InternPart(frames[split..]);
                if (kernel != 0) AddKernelPart(stack.EventTimestamp, stack.ProcessId, stack.ThreadId, kernel);
                if (user != 0) AddUserPart(stack.EventTimestamp, stack.ProcessId, stack.ThreadId, user);
                break;
            }
            case StackWalkTypes.StackKeyKernel or StackWalkTypes.StackKeyUser when StackKeyReference.TryDecode(e, out var reference):
            {
                KeyReferences++;
                if (!_openKeys.TryGetValue(reference.Key, out int part))
                    _openKeys[reference.Key] = part = Store.NewPendingPart();
                if (reference.IsUser) AddUserPart(reference.EventTimestamp, reference.ProcessId, reference.ThreadId, part);
                else AddKernelPart(reference.EventTimestamp, reference.ProcessId, reference.ThreadId, part);
                break;
            }
            case StackWalkTypes.KeyCreate or StackWalkTypes.KeyDelete or StackWalkTypes.KeyRundown when StackKeyDefinition.TryDecode(e, out var definition):
            {
                KeyDefinitions++;
                int n = definition.CopyFrames(e.Payload, _scratch);
                var frames = _scratch.AsSpan(0, n);
                if (definition.EndsKey)
                {
                    if (_openKeys.Remove(definition.Key, out int part))
                    {
                        Store.ResolvePart(part, frames);
                        if (_waitingOnPending.ContainsKey(part)) _releaseWhenUnheld.Add(part);
                        else Store.Release(part);
                    }
                }
                else if (_openKeys.TryGetValue(definition.Key, out int pending) && Store.IsPending(pending))
                {
                    Store.ResolvePart(pending, frames);
                }
                else
                {
                    _openKeys[definition.Key] = Store.InternPart(frames);
                }
                break;
            }
        }
    }

    private void ObserveExtendedStack(in EtwEvent e)
    {
        if (!TryReadExtendedStack(e, out int kernel, out int user, out bool pendingUser)) return;
        ExtendedStackItems++;
        if (pendingUser && user == 0) AddKernelPart(e.RawTimestamp, e.ProcessId, e.ThreadId, kernel);
        else Emit(e.RawTimestamp, e.ProcessId, e.ThreadId, kernel, user);
    }

    /// <summary>
    /// STACK_TRACE32/64 item: u64 MatchId; then 4- or 8-byte addresses. MatchId 0 means the item holds the whole
    /// stack; otherwise its user part comes in a later StackWalk event.
    /// </summary>
    private bool TryReadExtendedStack(in EtwEvent e, out int kernel, out int user, out bool pendingUser)
    {
        kernel = user = 0;
        pendingUser = false;
        foreach (var item in new ExtendedData(e.ExtendedData))
        {
            int size = item.Type switch
            {
                ExtendedDataType.StackTrace64 => 8,
                ExtendedDataType.StackTrace32 => 4,
                _ => 0,
            };
            if (size == 0 || item.Data.Length < 8) continue;
            pendingUser = PayloadReader.U64(item.Data, 0) != 0;
            int n = Math.Min((item.Data.Length - 8) / size, MaxFrames);
            for (int i = 0; i < n; i++) _scratch[i] = PayloadReader.Pointer(item.Data, 8 + i * size, size);
            var frames = _scratch.AsSpan(0, n);
            int split = KernelPrefix(frames, size);
            kernel = Store.InternPart(frames[..split]);
            user = Store.InternPart(frames[split..]);
            return true;
        }
        return false;
    }

    private static int KernelPrefix(ReadOnlySpan<ulong> frames, int pointerSize)
    {
        int i = 0;
        while (i < frames.Length && KernelAddress.IsKernel(frames[i], pointerSize)) i++;
        return i;
    }

    private void AddKernelPart(long timestamp, int pid, int tid, int part)
    {
        if (pid is 0 or 4)
        {
            // Idle and System threads never run user code: no user part will come.
            Emit(timestamp, pid, tid, part, 0);
            return;
        }
        if (!_waitingByThread.TryGetValue(tid, out var waiting)) _waitingByThread[tid] = waiting = new List<Waiting>(4);
        if (waiting.Count >= MaxWaitingPerThread)
        {
            var oldest = waiting[0];
            waiting.RemoveAt(0);
            KernelOnlyFlushed++;
            Emit(oldest.Timestamp, oldest.ProcessId, tid, oldest.KernelPart, 0);
            Unhold(oldest.KernelPart);
        }
        waiting.Add(new Waiting(timestamp, pid, part));
        if (Store.IsPending(part) || Store.Resolved(part) != part) _waitingOnPending[part] = _waitingOnPending.GetValueOrDefault(part) + 1;
    }

    /// <summary>A waiting kernel part is finished: a deleted key's part nothing else holds goes back to the store.</summary>
    private void Unhold(int part)
    {
        if (_waitingOnPending.Count == 0 || !_waitingOnPending.TryGetValue(part, out int held)) return;
        if (held > 1)
        {
            _waitingOnPending[part] = held - 1;
            return;
        }
        _waitingOnPending.Remove(part);
        if (_releaseWhenUnheld.Remove(part)) Store.Release(part);
    }

    private void AddUserPart(long timestamp, int pid, int tid, int part)
    {
        bool matchedOwnEvent = false;
        if (_waitingByThread.TryGetValue(tid, out var waiting) && waiting.Count > 0)
        {
            foreach (var w in waiting)
            {
                if (w.Timestamp >= timestamp)
                {
                    matchedOwnEvent |= w.Timestamp == timestamp;
                    Emit(w.Timestamp, w.ProcessId, tid, w.KernelPart, part);
                }
                else
                {
                    // Older kernel parts missed their user part: it would have come before this one.
                    KernelOnlyFlushed++;
                    Emit(w.Timestamp, w.ProcessId, tid, w.KernelPart, 0);
                }
                Unhold(w.KernelPart);
            }
            waiting.Clear();
        }
        if (!matchedOwnEvent) Emit(timestamp, pid, tid, 0, part);
    }

    private void FlushThread(int tid)
    {
        if (!_waitingByThread.Remove(tid, out var waiting)) return;
        foreach (var w in waiting)
        {
            KernelOnlyFlushed++;
            Emit(w.Timestamp, w.ProcessId, tid, w.KernelPart, 0);
            Unhold(w.KernelPart);
        }
    }

    private void Emit(long timestamp, int pid, int tid, int kernelPart, int userPart)
    {
        // Held only when a ticket takes it or the listener keeps it: a stack of an event nobody asked about, made with a
        // key that turns out to name known frames (a trace defines the same stacks under new keys again and again),
        // is forgotten then rather than kept for the whole pass.
        var stack = Store.InternUnheld(kernelPart, userPart);
        Completed++;
        bool kept = false;
        if (_tickets.Remove((timestamp, tid), out int ticket))
        {
            _ticketResults[ticket] = stack;
            kept = true;
        }
        if (_listener is not null) kept |= _listener.Take(new StackMatch(timestamp, pid, tid, stack));
        if (kept) Store.Hold(stack);
    }

    private int NewTicket()
    {
        _ticketResults.Add(StackId.None);
        return _ticketResults.Count - 1;
    }

    private void ExpireTickets()
    {
        while (_ticketAges.Count > 0 && _now - _ticketAges.Peek().TimeNs > TicketWaitNs)
        {
            var (_, timestamp, thread) = _ticketAges.Dequeue();
            if (!_tickets.ContainsKey((timestamp, thread))) continue;
            // A ticket whose kernel part arrived waits on its thread instead; only give up on those with nothing yet.
            if (!IsWaiting(thread, timestamp)) _tickets.Remove((timestamp, thread));
        }
    }

    /// <summary>
    /// True while the kernel part of the event at <paramref name="timestamp"/> on <paramref name="threadId"/> waits
    /// for its user part: its stack is certain to be completed (joined, or finished kernel-only) later.
    /// </summary>
    public bool IsWaitingForUserPart(int threadId, long timestamp) => IsWaiting(threadId, timestamp);

    private bool IsWaiting(int thread, long timestamp)
    {
        if (!_waitingByThread.TryGetValue(thread, out var waiting)) return false;
        foreach (var w in waiting) if (w.Timestamp == timestamp) return true;
        return false;
    }
}
