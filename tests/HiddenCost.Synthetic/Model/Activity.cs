using HiddenCost.Synthetic.Events;

namespace HiddenCost.Synthetic.Model;

/// <summary>
/// What a thread does during a run segment, as CPU samples see it: one or more call stacks (leaf frame first;
/// the first frame is the sampled instruction pointer). A sample taken in the segment gets one of the stacks.
/// </summary>
public sealed class Activity
{
    public Activity(string name, params ulong[][] stacks)
    {
        if (stacks.Length == 0 || stacks.Any(s => s.Length == 0)) throw new ArgumentException("an activity needs at least one non-empty stack");
        Name = name;
        Stacks = stacks;
    }

    public string Name { get; }
    public IReadOnlyList<ulong[]> Stacks { get; }

    public override string ToString() => Name;
}

/// <summary>How a thread leaves the CPU at the end of a run segment (CSwitch OldThreadWaitReason/State/WaitMode).</summary>
public readonly record struct SwitchOut(byte WaitReason, byte State, sbyte WaitMode)
{
    /// <summary>Preempted while runnable (WrPreempted, Ready, kernel mode).</summary>
    public static SwitchOut Preempted => new(Events.WaitReason.WrPreempted, KThreadState.Ready, 0);

    /// <summary>A user-mode wait on a dispatcher object (UserRequest, Waiting, user mode): Monitor waits, WaitForSingleObject.</summary>
    public static SwitchOut UserWait => new(Events.WaitReason.UserRequest, KThreadState.Waiting, 1);

    public static SwitchOut Wait(byte waitReason, sbyte waitMode = 1) => new(waitReason, KThreadState.Waiting, waitMode);

    /// <summary>SwitchToThread: the thread yields and stays Ready (WrYieldExecution).</summary>
    public static SwitchOut Yield => new(Events.WaitReason.WrYieldExecution, KThreadState.Ready, 1);

    /// <summary>Sleep(0) with another thread ready: DelayExecution, the thread stays Ready.</summary>
    public static SwitchOut SleepZero => new(Events.WaitReason.DelayExecution, KThreadState.Ready, 1);

    public bool IsWaiting => State == KThreadState.Waiting;
}

/// <summary>A thread on a CPU from <see cref="Start"/> (inclusive) to <see cref="End"/> (exclusive), in QPC ticks.</summary>
public sealed record RunSegment(int Cpu, SyntheticThread Thread, long Start, long End, Activity Activity, SwitchOut SwitchOut);
