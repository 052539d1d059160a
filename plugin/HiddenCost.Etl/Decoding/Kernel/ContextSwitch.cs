using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Kernel;

/// <summary>
/// Thread CSwitch (36): WMI_CONTEXTSWAP, 24 bytes in v2–v4. Logged by the processor that switches, with no
/// thread id in its header: the event's CPU is where <see cref="NewThreadId"/> starts running.
/// </summary>
public readonly record struct ContextSwitch(
    int NewThreadId,
    int OldThreadId,
    sbyte NewThreadPriority,
    sbyte OldThreadPriority,
    byte PreviousCState,
    sbyte NewThreadPriorityDecrement,
    byte OldThreadWaitReason,
    sbyte OldThreadWaitMode,
    byte OldThreadState,
    byte OldThreadWaitIdealProcessor,
    uint NewThreadWaitTime,
    int OldThreadRemainingQuantum)
{
    public const byte Opcode = 36;

    /// <summary>KTHREAD_STATE Waiting: only then is <see cref="OldThreadWaitReason"/> meaningful.</summary>
    public const byte StateWaiting = 5;

    public static bool Matches(in EtwEvent e) => e.Is(KernelGroups.Thread, Opcode);

    public static bool TryDecode(in EtwEvent e, out ContextSwitch value)
    {
        value = default;
        if (!Matches(e) || e.Payload.Length < 8) return false;
        var p = e.Payload;
        value = new ContextSwitch(PayloadReader.I32(p, 0), PayloadReader.I32(p, 4),
            (sbyte)PayloadReader.U8(p, 8), (sbyte)PayloadReader.U8(p, 9), PayloadReader.U8(p, 10),
            (sbyte)PayloadReader.U8(p, 11), PayloadReader.U8(p, 12), (sbyte)PayloadReader.U8(p, 13),
            PayloadReader.U8(p, 14), PayloadReader.U8(p, 15), PayloadReader.U32(p, 16), PayloadReader.I32(p, 20));
        return true;
    }
}

/// <summary>
/// Thread ReadyThread (50): ETW_READY_THREAD_EVENT, 8 bytes. The readying thread is the one running on the
/// event's CPU (<see cref="EtwEvent.ThreadId"/> filled in by the reader).
/// </summary>
public readonly record struct ReadyThread(int ReadiedThreadId, byte AdjustReason, sbyte AdjustIncrement, byte Flags)
{
    public const byte Opcode = 50;

    public bool ExecutingDpc => (Flags & 0x1) != 0;
    public bool KernelStackNotResident => (Flags & 0x2) != 0;
    public bool ProcessOutOfMemory => (Flags & 0x4) != 0;
    public bool DirectSwitchAttempt => (Flags & 0x8) != 0;

    public static bool Matches(in EtwEvent e) => e.Is(KernelGroups.Thread, Opcode);

    public static bool TryDecode(in EtwEvent e, out ReadyThread value)
    {
        value = default;
        if (!Matches(e) || e.Payload.Length < 4) return false;
        var p = e.Payload;
        value = new ReadyThread(PayloadReader.I32(p, 0), PayloadReader.U8(p, 4), (sbyte)PayloadReader.U8(p, 5), PayloadReader.U8(p, 6));
        return true;
    }
}
