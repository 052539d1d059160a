using HiddenCost.Etl;
using HiddenCost.Etl.Reading;

namespace HiddenCost.Analysis.Common;

/// <summary>
/// Tells which recent kernel event a StackWalk event belongs to, without the stack collector's full matching:
/// a StackWalk event names its event by raw timestamp and thread, and follows it closely, though not always on
/// the same processor. Callers remember each kernel event with a tag of their own (a row, an event kind) and get
/// that tag back the first time one of its stacks arrives — the kernel and user halves of one stack count once.
/// </summary>
public sealed class StackedEventRing
{
    /// <summary>How many recent events are searched (newest first).</summary>
    public const int Size = 256;

    private readonly Entry[] _entries = new Entry[Size];
    private int _next;

    /// <summary>Remembers a kernel event; <paramref name="tag"/> must not be negative.</summary>
    public void Remember(in EtwEvent e, int tag)
    {
        // A CPU sample names its thread in the payload (after the instruction pointer), not the header.
        int thread = e.Is(KernelGroups.PerfInfo, 46) ? PayloadReader.I32(e.Payload, e.PointerSize) : e.ThreadId;
        _entries[_next] = new Entry(e.RawTimestamp, thread, tag + 1);
        _next = (_next + 1) % Size;
    }

    /// <summary>True for StackWalk Stack, StackKeyKernel and StackKeyUser events: the ones that name an event.</summary>
    public static bool IsStackEvent(in EtwEvent e) => e.IsKernel && e.Group == KernelGroups.StackWalk && e.Opcode is 32 or 37 or 38;

    /// <summary>
    /// For a StackWalk event (<see cref="IsStackEvent"/>): the tag of the event it belongs to, the first time a stack
    /// of that event arrives; -1 when that event already had one or is not among the last <see cref="Size"/>.
    /// </summary>
    public int MarkStacked(in EtwEvent stack)
    {
        long eventTimestamp = PayloadReader.I64(stack.Payload, 0);
        int threadId = PayloadReader.I32(stack.Payload, 12);
        // Newest first: the event a stack belongs to is almost always the latest with its timestamp.
        for (int n = 1; n <= Size; n++)
        {
            ref var r = ref _entries[(_next - n + Size) % Size];
            if (r.TagPlusOne == 0 || r.Timestamp != eventTimestamp || (r.ThreadId >= 0 && threadId >= 0 && r.ThreadId != threadId)) continue;
            if (r.Stacked) return -1;
            r.Stacked = true;
            return r.TagPlusOne - 1;
        }
        return -1;
    }

    private struct Entry
    {
        public Entry(long timestamp, int threadId, int tagPlusOne)
        {
            Timestamp = timestamp;
            ThreadId = threadId;
            TagPlusOne = tagPlusOne;
            Stacked = false;
        }

        public long Timestamp;
        public int ThreadId;
        public int TagPlusOne;
        public bool Stacked;
    }
}
