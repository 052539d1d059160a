namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>CSwitch OldThreadWaitReason (KWAIT_REASON) and OldThreadState values the analysis distinguishes.</summary>
public static class KernelWait
{
    public const byte Executive = 0, DelayExecution = 4, UserRequest = 6, WrDelayExecution = 11, WrUserRequest = 13,
        WrQueue = 15, WrLpcReceive = 16, WrLpcReply = 17,
        WrKeyedEvent = 21, WrYieldExecution = 33, WrAlertByThreadId = 37;

    /// <summary>OldThreadState: the thread blocked (a ready or preempted thread is 1 Ready / 7 DeferredReady).</summary>
    public const byte StateWaiting = 5;

    /// <summary>SwitchToThread / Thread.Yield; a yielding thread leaves Ready, not Waiting.</summary>
    public static bool IsYield(byte reason) => reason == WrYieldExecution;

    /// <summary>Sleep / SleepEx, any interval.</summary>
    public static bool IsDelay(byte reason) => reason is DelayExecution or WrDelayExecution;

    /// <summary>
    /// A Sleep(0)-style switch: DelayExecution by a thread that did not block (it leaves Ready, handing the CPU to
    /// another ready thread). A Sleep(n) that really waits leaves Waiting, and is an ordinary wait, not a spin.
    /// </summary>
    public static bool IsSleepZero(byte reason, byte state) => IsDelay(reason) && state != StateWaiting;

    /// <summary>
    /// The waits a lock blocks in: a CLR Monitor's event (UserRequest), a critical section's or SRW lock's keyed
    /// event or WaitOnAddress (WrKeyedEvent, WrAlertByThreadId), kernel-mode waits on executive objects.
    /// </summary>
    public static bool IsLockWait(byte reason, byte state) =>
        state == StateWaiting && reason is Executive or UserRequest or WrUserRequest or WrKeyedEvent or WrAlertByThreadId;

    /// <summary>
    /// A wait that ends a spin: the thread went to wait for work (a queue: an I/O completion port, a thread pool's) or
    /// for an LPC message or reply, which no lock blocks in. Only those: a sleep is part of a spin loop (.NET's
    /// SpinWait sleeps a millisecond every so often), and a suspension (for a GC), a hard fault or a kernel lock can
    /// stop a spin halfway.
    /// </summary>
    public static bool IsOtherWait(byte reason, byte state) => state == StateWaiting && reason is WrQueue or WrLpcReceive or WrLpcReply;
}
