namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>CSwitch OldThreadWaitReason (KWAIT_REASON) and OldThreadState values the analysis distinguishes.</summary>
public static class KernelWait
{
    public const byte Executive = 0, DelayExecution = 4, UserRequest = 6, WrDelayExecution = 11, WrUserRequest = 13,
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
    /// A wait that ends a spin: the thread blocked on something no lock waits in (a queue, I/O, an LPC reply). Sleeps
    /// are part of spin loops (.NET's SpinWait sleeps a millisecond every so often), so they are not.
    /// </summary>
    public static bool IsOtherWait(byte reason, byte state) =>
        state == StateWaiting && !IsLockWait(reason, state) && !IsDelay(reason) && !IsYield(reason);
}
