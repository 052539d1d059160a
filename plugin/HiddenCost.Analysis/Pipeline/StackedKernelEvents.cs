using HiddenCost.Etl;
using HiddenCost.Etl.Reading;
using HiddenCost.Etl.Records;

namespace HiddenCost.Analysis.Pipeline;

/// <summary>
/// How many kernel events of each kind carried a stack, counted once per pass for every analysis that asks (Event
/// Counts' With Stack, Trace Readiness's stacks per wanted event). A StackWalk event names its event by raw
/// timestamp and thread and follows it closely, though not always on the same processor, so it is matched against
/// the last <see cref="RingSize"/> kernel events, newest first; the kernel and user halves of one stack count once.
/// Only the recent events with the stack's timestamp are looked at: each event is chained to the previous one whose
/// timestamp hashes alike, so a stack walks a few entries instead of up to the whole ring.
/// </summary>
public sealed class StackedKernelEvents
{
    /// <summary>How many recent kernel events a stack is matched against (a power of two: positions wrap by a mask).</summary>
    public const int RingSize = 256;
    private const int RingMask = RingSize - 1;
    private const int BucketBits = 10;

    private readonly Entry[] _ring = new Entry[RingSize];
    // The newest event number + 1 whose timestamp hashes to each bucket; 0: none yet.
    private readonly long[] _newestInBucket = new long[1 << BucketBits];
    private readonly Dictionary<int, long> _stacked = new();
    private long _count; // kernel events ever put in the ring; event number n is at _ring[n & RingMask]

    /// <summary>
    /// A kernel event's kind as Event Counts lists it: group, opcode, version and whether its header is PERFINFO.
    /// </summary>
    public static int KindOf(in EtwEvent e) =>
        e.Group << 8 | e.Opcode | e.Version << 16 | (e.Kind == RecordHeaderKind.PerfInfo ? 1 << 24 : 0);

    public void Observe(in EtwEvent e)
    {
        if (!e.IsKernel) return;
        if (e.Group == KernelGroups.StackWalk && e.Opcode is 32 or 37 or 38)
        {
            if (MarkStacked(e) is var kind and >= 0) _stacked[kind] = _stacked.GetValueOrDefault(kind) + 1;
            return;
        }
        // A CPU sample names its thread in the payload (after the instruction pointer), not the header.
        int thread = e.Is(KernelGroups.PerfInfo, 46) ? PayloadReader.I32(e.Payload, e.PointerSize) : e.ThreadId;
        long timestamp = e.RawTimestamp;
        ref long newest = ref _newestInBucket[Bucket(timestamp)];
        _ring[_count & RingMask] = new Entry(timestamp, thread, KindOf(e), previousInBucket: newest);
        newest = ++_count;
    }

    /// <summary>Kernel events of <paramref name="kind"/> (<see cref="KindOf"/>) that carried a stack.</summary>
    public long WithStack(int kind) => _stacked.GetValueOrDefault(kind);

    /// <summary>Kernel events of a group and opcode, any version or header, that carried a stack.</summary>
    public long WithStack(byte group, byte opcode)
    {
        long n = 0;
        foreach (var (kind, count) in _stacked)
            if ((kind & 0xFFFF) == (group << 8 | opcode)) n += count;
        return n;
    }

    /// <summary>The kind of the event a stack belongs to, the first time one of its stacks arrives; else -1.</summary>
    private int MarkStacked(in EtwEvent stack)
    {
        long eventTimestamp = PayloadReader.I64(stack.Payload, 0);
        int threadId = PayloadReader.I32(stack.Payload, 12);
        // Newest first: the event a stack belongs to is almost always the latest with its timestamp. Events older
        // than the ring's are gone (their slots hold newer events), and the chain only goes older.
        long oldest = _count - RingSize;
        for (long next = _newestInBucket[Bucket(eventTimestamp)]; next > 0 && next - 1 >= oldest; next = _ring[(next - 1) & RingMask].PreviousInBucket)
        {
            ref var r = ref _ring[(next - 1) & RingMask];
            if (r.Timestamp != eventTimestamp || (r.ThreadId >= 0 && threadId >= 0 && r.ThreadId != threadId)) continue;
            if (r.Stacked) return -1;
            r.Stacked = true;
            return r.Kind;
        }
        return -1;
    }

    private static int Bucket(long timestamp) => (int)((ulong)timestamp * 0x9E3779B97F4A7C15 >> (64 - BucketBits));

    private struct Entry(long timestamp, int threadId, int kind, long previousInBucket)
    {
        public readonly long Timestamp = timestamp;
        public readonly int ThreadId = threadId;
        public readonly int Kind = kind;
        /// <summary>The event number + 1 of the previous event whose timestamp hashes alike; 0: none.</summary>
        public readonly long PreviousInBucket = previousInBucket;
        public bool Stacked;
    }
}
