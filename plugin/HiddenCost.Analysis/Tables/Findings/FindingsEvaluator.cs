namespace HiddenCost.Analysis.Tables.Findings;

/// <summary>
/// Every problem instance in one trace's figures, assessed against the thresholds. A problem whose table the trace is not
/// ready for gets one not-checked finding naming the missing events; whatever its table still shows (a trace that lacks
/// only some of the events) is assessed too, since those figures are real, but the not-checked row says the check is
/// incomplete.
/// </summary>
public static class FindingsEvaluator
{
    public static IReadOnlyList<Finding> Assess(ProblemFigureSet figures, FindingThresholds thresholds)
    {
        var all = new List<Finding>();
        bool Ready(string table) => figures.Readiness.FirstOrDefault(r => r.Table == table) is not { Ready: false };
        void Add(string problem, string table, Func<IEnumerable<Finding>> assess)
        {
            if (!Ready(table)) all.Add(NotChecked(problem, figures.Readiness.First(r => r.Table == table)));
            all.AddRange(assess());
        }
        Add(Problems.SyscallHook, SyscallHookRule.SeeTable, () => SyscallHookRule.Assess(figures.SyscallHooks, thresholds.SyscallHook));
        Add(Problems.SpinWait, SpinWaitRule.PerLockTable, () => SpinWaitRule.Assess(figures.SpinLocks, figures.OpenMp, thresholds.SpinWait, thresholds.OpenMp));
        Add(Problems.NotifyBuffer, NotifyBufferRule.SeeTable, () => NotifyBufferRule.Assess(figures.NotifyWatchers, thresholds));
        Add(Problems.EventLogRender, EventLogRule.SeeTable, () => EventLogRule.Assess(figures.EventLogClients, thresholds.EventLogRender));
        return all;
    }

    /// <summary>
    /// The rows of the Findings table: findings at low or above, worst and dearest first, then what was not checked; ties
    /// in the order the problems are checked (syscall hook, spin-wait, notify buffer, event-log render).
    /// </summary>
    public static IReadOnlyList<Finding> Rows(IEnumerable<Finding> assessed) =>
        assessed.Where(f => f.Severity != Severity.None)
            .OrderBy(f => f.Severity == Severity.NotChecked)
            .ThenByDescending(f => f.Severity)
            .ThenByDescending(f => f.CostMs ?? 0)
            .ToArray();

    private static Finding NotChecked(string problem, ReadinessFigures readiness)
    {
        var missing = readiness.MissingRequired.Count > 0 ? string.Join("; ", readiness.MissingRequired) : "events it needs";
        var record = readiness.RecordWith is { } line ? $"Record with `{line}` to check it." : "Record the events Trace Readiness lists to check it.";
        return new Finding(problem, Severity.NotChecked, "", "", null, false, [],
            $"the trace lacks {missing}", $"{readiness.Table} could not be checked: {record}", "Trace Readiness", null, null);
    }
}
