using HiddenCost.Synthetic.Etl;

namespace HiddenCost.Synthetic.Events;

/// <summary>
/// StackWalk group (0x18). Every event is PERFINFO, version 2, as in the PerfView samples. Frames are leaf first.
/// </summary>
public static class StackWalkEvents
{
    public const byte StackType = 32;
    public const byte KeyDeleteType = 35;
    public const byte KeyRundownType = 36;
    public const byte StackKeyKernelType = 37;
    public const byte StackKeyUserType = 38;

    /// <summary>
    /// Stack (32): u64 EventTimeStamp; u32 StackProcess; u32 StackThread; ptr Frames[] (etl-format §2.5;
    /// PerfView StackWalkStackTraceData). Matched to its event by timestamp and thread; logged just after it.
    /// </summary>
    public static KernelRecord Stack(EventContext c, long eventTimestamp, uint processId, uint threadId, IReadOnlyList<ulong> frames)
    {
        var p = new PayloadBuilder(c.PointerSize).I64(eventTimestamp).U32(processId).U32(threadId);
        foreach (var f in frames) p.Pointer(f);
        return PerfInfoEvents.KernelEvent(c, RecordKind.PerfInfo, KernelGroup.StackWalk, StackType, 2, p);
    }

    /// <summary>
    /// StackKeyKernel (37) / StackKeyUser (38): u64 EventTimeStamp; u32 ProcessId; u32 ThreadId; ptr StackKey
    /// (24 bytes at p = 8, as in the samples). The key's frames come from KeyRundown/KeyDelete.
    /// </summary>
    public static KernelRecord StackKey(EventContext c, bool kernel, long eventTimestamp, uint processId, uint threadId, ulong key)
    {
        var p = new PayloadBuilder(c.PointerSize).I64(eventTimestamp).U32(processId).U32(threadId).Pointer(key);
        return PerfInfoEvents.KernelEvent(c, RecordKind.PerfInfo, KernelGroup.StackWalk, kernel ? StackKeyKernelType : StackKeyUserType, 2, p);
    }

    /// <summary>KeyRundown (36) / KeyDelete (35): ptr StackKey; ptr Frames[] (layout as decoded in the samples).</summary>
    public static KernelRecord KeyDefinition(EventContext c, bool rundown, ulong key, IReadOnlyList<ulong> frames)
    {
        var p = new PayloadBuilder(c.PointerSize).Pointer(key);
        foreach (var f in frames) p.Pointer(f);
        return PerfInfoEvents.KernelEvent(c, RecordKind.PerfInfo, KernelGroup.StackWalk, rundown ? KeyRundownType : KeyDeleteType, 2, p);
    }
}
