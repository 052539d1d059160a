using HiddenCost.Synthetic.Etl;

namespace HiddenCost.Synthetic.Events;

/// <summary>Fields of WMI_EXTENDED_THREAD_INFORMATION (Thread Start/End/DCStart/DCEnd).</summary>
public sealed record ThreadInfo(uint ProcessId, uint ThreadId)
{
    public ulong StackBase { get; init; }
    public ulong StackLimit { get; init; }
    public ulong UserStackBase { get; init; }
    public ulong UserStackLimit { get; init; }
    public ulong Affinity { get; init; } = ulong.MaxValue;
    public ulong Win32StartAddress { get; init; }
    public ulong TebBase { get; init; }
    public uint SubProcessTag { get; init; }
    public byte BasePriority { get; init; } = 8;
    public byte PagePriority { get; init; } = 5;
    public byte IoPriority { get; init; } = 2;
    public byte ThreadFlags { get; init; }
    public string ThreadName { get; init; } = "";
}

/// <summary>The switched-out thread's state and wait reason in a CSwitch (KTHREAD_STATE, KWAIT_REASON; event-payloads.md §5.2).</summary>
public static class KThreadState
{
    public const byte Ready = 1;
    public const byte Running = 2;
    public const byte Terminated = 4;
    public const byte Waiting = 5;
}

/// <summary>KWAIT_REASON values used by the scenarios (event-payloads.md §5.2; phnt ntkeapi.h).</summary>
public static class WaitReason
{
    public const byte Executive = 0;
    public const byte DelayExecution = 4;
    public const byte UserRequest = 6;
    public const byte WrQueue = 15;
    public const byte WrLpcReceive = 16;
    public const byte WrLpcReply = 17;
    public const byte WrPushLock = 28;
    public const byte WrPreempted = 32;
    public const byte WrYieldExecution = 33;
}

/// <summary>Payload of a CSwitch event (MS "CSwitch" MOF; ntwmi.h WMI_CONTEXTSWAP), 24 bytes.</summary>
public readonly record struct CSwitchInfo(uint NewThreadId, uint OldThreadId)
{
    public sbyte NewThreadPriority { get; init; }
    public sbyte OldThreadPriority { get; init; }
    public byte PreviousCState { get; init; }
    public sbyte SpareByte { get; init; }
    public byte OldThreadWaitReason { get; init; }
    public sbyte OldThreadWaitMode { get; init; }
    public byte OldThreadState { get; init; }
    public byte OldThreadWaitIdealProcessor { get; init; }
    public uint NewThreadWaitTime { get; init; }
    public int Reserved { get; init; }
}

/// <summary>Thread group (0x05).</summary>
public static class ThreadEvents
{
    public const byte StartType = 1;
    public const byte EndType = 2;
    public const byte DCStartType = 3;
    public const byte DCEndType = 4;
    public const byte CSwitchType = 36;
    public const byte ReadyThreadType = 50;

    /// <summary>
    /// Thread Start/End/DCStart/DCEnd: SYSTEM header, version 3, as in every sample (Win8 to Win11 26100).
    /// Layout (event-payloads/etl-format §2.5; ntwmi.h WMI_EXTENDED_THREAD_INFORMATION): u32 ProcessId;
    /// u32 ThreadId; ptr StackBase; ptr StackLimit; ptr UserStackBase; ptr UserStackLimit; ptr Affinity;
    /// ptr Win32StartAddr; ptr TebBase; u32 SubProcessTag; u8 BasePriority; u8 PagePriority; u8 IoPriority;
    /// u8 ThreadFlags; then, on current builds, UTF-16 ThreadName (the Win11 26100 sample: 74 bytes with an
    /// empty name). The header names the thread itself, as in that sample.
    /// </summary>
    public static KernelRecord Lifetime(EventContext c, byte type, ThreadInfo t)
    {
        if (type is not (StartType or EndType or DCStartType or DCEndType))
            throw new ArgumentException($"not a thread lifetime type: {type}");
        var p = new PayloadBuilder(c.PointerSize)
            .U32(t.ProcessId).U32(t.ThreadId)
            .Pointer(t.StackBase).Pointer(t.StackLimit).Pointer(t.UserStackBase).Pointer(t.UserStackLimit)
            .Pointer(c.PointerSize == 4 ? t.Affinity & uint.MaxValue : t.Affinity)
            .Pointer(t.Win32StartAddress).Pointer(t.TebBase)
            .U32(t.SubProcessTag).U8(t.BasePriority).U8(t.PagePriority).U8(t.IoPriority).U8(t.ThreadFlags)
            .WString(t.ThreadName);
        return PerfInfoEvents.KernelEvent(c with { ThreadId = t.ThreadId, ProcessId = t.ProcessId },
            RecordKind.System, KernelGroup.Thread, type, 3, p);
    }

    /// <summary>
    /// CSwitch (36), 24 bytes: u32 NewThreadId; u32 OldThreadId; i8 NewThreadPriority; i8 OldThreadPriority;
    /// u8 PreviousCState; i8 SpareByte; u8 OldThreadWaitReason; i8 OldThreadWaitMode; u8 OldThreadState;
    /// u8 OldThreadWaitIdealProcessor; u32 NewThreadWaitTime; i32 Reserved (MS "CSwitch" MOF; ntwmi.h
    /// WMI_CONTEXTSWAP). PERFINFO header (Geoff Chappell's WMI_CONTEXTSWAP page: marker 0xC0110002; WRK
    /// WmiTraceContextSwap builds a PERFINFO_TRACE_HEADER), version 2 as that page and the MOF name it.
    /// </summary>
    public static KernelRecord CSwitch(EventContext c, CSwitchInfo s)
    {
        var p = new PayloadBuilder(c.PointerSize)
            .U32(s.NewThreadId).U32(s.OldThreadId)
            .I8(s.NewThreadPriority).I8(s.OldThreadPriority).U8(s.PreviousCState).I8(s.SpareByte)
            .U8(s.OldThreadWaitReason).I8(s.OldThreadWaitMode).U8(s.OldThreadState).U8(s.OldThreadWaitIdealProcessor)
            .U32(s.NewThreadWaitTime).I32(s.Reserved);
        return PerfInfoEvents.KernelEvent(c, RecordKind.PerfInfo, KernelGroup.Thread, CSwitchType, 2, p);
    }

    /// <summary>
    /// ReadyThread (50), 8 bytes: u32 TThreadId; u8 AdjustReason; i8 AdjustIncrement; u8 Flags; u8 Reserved
    /// (MS "ReadyThread" MOF; ntwmi.h ETW_READY_THREAD_EVENT). PERFINFO header (PerfView: ReadyThread carries no
    /// thread id in its header), version 2. The readying thread is whoever runs on the logging CPU.
    /// </summary>
    public static KernelRecord ReadyThread(EventContext c, uint readiedThreadId, byte adjustReason = 1, sbyte adjustIncrement = 0, byte flags = 0)
    {
        var p = new PayloadBuilder(c.PointerSize).U32(readiedThreadId).U8(adjustReason).I8(adjustIncrement).U8(flags).U8(0);
        return PerfInfoEvents.KernelEvent(c, RecordKind.PerfInfo, KernelGroup.Thread, ReadyThreadType, 2, p);
    }
}
