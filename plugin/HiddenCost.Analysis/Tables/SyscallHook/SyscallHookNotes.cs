using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tables.SyscallHook;

/// <summary>What the tracker counted that the notes speak of.</summary>
public readonly record struct SyscallHookCounts(long Enters, long Exits, long Switches, long UnknownThreadEnters, long Samples,
    long SamplesInSyscalls, long SamplesWithStack, long CallsInGaps, long Unreturned, long OrphanExits, int KernelImages, bool DefaultInterval);

/// <summary>The notes of the Syscall Hook Overhead and Profiling Gaps tables.</summary>
public static class SyscallHookNotes
{
    private const string RecordWith = SyscallHookTracker.RecordWith;

    /// <summary>The notes of Syscall Hook Overhead: what the trace lacks, and what some figures leave out.</summary>
    public static IEnumerable<TableNote> Overhead(SyscallHookCounts c)
    {
        if (c.Enters == 0)
        {
            yield return TableNote.Info("syscall-hook.no-syscall-events", $"No syscall events (PerfInfo SysClEnter/SysClExit): the trace was recorded without syscall tracing. Record with `{RecordWith}`.");
            yield break;
        }
        if (c.Exits == 0)
            yield return TableNote.Info("syscall-hook.no-syscall-exits", $"No SysClExit events: syscalls are counted, but their durations cannot be measured. Record with `{RecordWith}`.");
        if (c.Switches == 0)
            yield return TableNote.Info("syscall-hook.no-context-switches", $"No context switches (Thread CSwitch): syscalls cannot be tied to threads, so they are counted under \"Unknown\" and enters and exits are paired per processor. Record with `{RecordWith}`.");
        else if (c.UnknownThreadEnters > 0)
            yield return TableNote.Info("syscall-hook.unknown-thread-syscalls", $"{c.UnknownThreadEnters:N0} syscalls ran on a processor before its first context switch: their thread is unknown, so they are counted under process \"Unknown\".");
        if (c.Samples == 0)
            yield return TableNote.Info("syscall-hook.no-samples", $"No CPU samples (PerfInfo SampledProfile): syscall counts and durations are shown, but the CPU spent in hooking modules cannot be measured. Record with `{RecordWith}`.");
        else if (c.SamplesInSyscalls > 0 && c.SamplesWithStack == 0)
            yield return TableNote.Info("syscall-hook.no-sample-stacks", $"No stacks on the CPU samples: culprit modules are found in sample stacks, so none can be named. Record with `{RecordWith}` (stack walk on Profile).");
        else if (c.SamplesInSyscalls > c.SamplesWithStack)
            yield return TableNote.Info("syscall-hook.samples-without-stacks", $"{c.SamplesInSyscalls - c.SamplesWithStack:N0} of {c.SamplesInSyscalls:N0} samples inside syscalls had no stack: they count in Samples in Syscalls but cannot show a culprit.");
        if (c.CallsInGaps > 0)
            yield return TableNote.Info("syscall-hook.syscalls-in-gaps", $"{c.CallsInGaps:N0} syscalls of rows with a culprit were made during profiling gaps (see Profiling Gaps), when no CPU sample could see " +
                         "the hook: Hook Overhead per Syscall divides Hook CPU by the syscalls made while samples were taken.");
        if (c.Samples > 0 && c.DefaultInterval)
            yield return TableNote.Info("syscall-hook.default-sample-interval", "The trace has no profile-interval event: Hook CPU assumes the Windows default sample interval of 1 ms.");
        if (c.Unreturned > 0)
            yield return TableNote.Info("syscall-hook.unreturned-syscalls", $"{c.Unreturned:N0} syscalls had no exit: the trace or their thread ended inside them, or their exit was never logged " +
                         "(NtCallbackReturn goes back into the kernel without one; a lost buffer loses exits, and the thread's next exit is then " +
                         "paired with the wrong syscall). They count in Syscalls but not in Total or Mean Syscall Time.");
        if (c.OrphanExits > 0)
            yield return TableNote.Info("syscall-hook.orphan-exits", $"{c.OrphanExits:N0} syscall exits had no enter on their thread (the syscall began before the trace, or its thread was not known then): ignored.");
        if (c.KernelImages == 0)
            yield return TableNote.Info("syscall-hook.no-kernel-images", "No kernel image loads or rundowns: syscalls cannot be named by module and culprit modules cannot be found.");
    }

    /// <summary>The notes of Profiling Gaps.</summary>
    public static IEnumerable<TableNote> Gaps(SyscallHookCounts c)
    {
        if (c.Samples == 0)
            yield return TableNote.Info("profiling-gaps.no-samples", $"No CPU samples (PerfInfo SampledProfile): profiling gaps cannot be found. Record with `{RecordWith}`.");
        else if (c.DefaultInterval)
            yield return TableNote.Info("profiling-gaps.default-sample-interval",
                "The trace has no profile-interval event: gaps are spans without samples longer than 10 × the default 1 ms interval.");
    }

    /// <summary>Said on Syscall Hook Overhead when none of the first <paramref name="probes"/> syscall entries carried a stack.</summary>
    public static TableNote NoSyscallStacks(int probes) => TableNote.Info("syscall-hook.no-syscall-stacks",
        $"SysClEnter events carry no stacks (the first {probes:N0} checked): calling stacks of hooked syscalls are not available. Record with `{RecordWith}`.");
}
