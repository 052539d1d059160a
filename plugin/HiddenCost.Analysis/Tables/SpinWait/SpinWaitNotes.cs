using HiddenCost.Analysis.Catalogs;
using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>What the tracker could not attribute or measure, for the notes.</summary>
/// <param name="DefaultInterval">CPU samples were taken, and the trace does not state their interval.</param>
internal readonly record struct SpinWaitCounts(bool DefaultInterval, long UnattributedNs, long SetAsideNs, long Unstopped, long ImplausibleDurations, long OrphanStops);

/// <summary>The notes of the two Spin-Wait tables (both carry every one).</summary>
internal static class SpinWaitNotes
{
    /// <summary>What the tracker could not attribute or measure.</summary>
    public static IEnumerable<TableNote> Tracker(SpinWaitCounts c)
    {
        static string Ms(long ns) => $"{ns / 1e6:N1} ms";
        if (c.DefaultInterval)
            yield return TableNote.Info("spin-wait.default-sample-interval", "The trace does not state its profile interval: each CPU sample counts as 1 ms.");
        if (c.UnattributedNs > 0)
            yield return TableNote.Info("spin-wait.unattributed-spin", $"{Ms(c.UnattributedNs)} of spin had no stack naming its call site or lock; it is shown as '{SpinWaitTracker.UnattributedSite}'.");
        if (c.SetAsideNs > 0)
            yield return TableNote.Info("spin-wait.runtime-code-set-aside", $"{Ms(c.SetAsideNs)} of runtime code (coreclr.dll/clr.dll) called from managed code is not counted as spin: " +
                         "it neither ended in a contention nor took a runtime code path seen spinning before one, and without the runtime's " +
                         "symbols it cannot be told from GC, JIT or other calls into the runtime.");
        if (c.Unstopped > 0)
            yield return TableNote.Info("spin-wait.unstopped-contentions", $"{c.Unstopped:N0} contentions had no ContentionStop (a timed-out wait on System.Threading.Lock, or the trace ended first): " +
                         "their wait is counted until the thread ran its own code again or the trace ended.");
        if (c.ImplausibleDurations > 0)
            yield return TableNote.Warning("spin-wait.implausible-durations", $"{c.ImplausibleDurations:N0} ContentionStop events gave a DurationNs longer than the time since their ContentionStart (or not a number): " +
                         "their wait is measured from the two events' times instead.");
        if (c.OrphanStops > 0)
            yield return TableNote.Info("spin-wait.orphan-stops", $"{c.OrphanStops:N0} ContentionStop events had no ContentionStart on their thread (the trace began mid-wait); their wait is not counted.");
    }

    /// <summary>A required kind of event the trace has none of.</summary>
    public static TableNote MissingEvents(EventRequirement requirement, string recordWith) => TableNote.Info("spin-wait.missing-events",
        $"The trace has no {requirement.Name} events ({requirement.RecordedBy}), needed for {requirement.Purpose}. Record with `{recordWith}`.");

    /// <summary>The event log could not use its temporary file, so it held every sample in memory (figures are the same).</summary>
    public static IEnumerable<TableNote> LogInMemory(string? spillFailure)
    {
        if (spillFailure is not null)
            yield return TableNote.Info("spin-wait.log-in-memory", $"The CPU samples and contention events kept for the end of the pass stayed in memory, " +
                         $"so memory grew with the trace: {spillFailure}. The figures are not affected.");
    }
}
