namespace HiddenCost.Analysis.Tables.Findings;

/// <summary>The problems Findings checks, as the Problem column names them, with the table that holds their detail.</summary>
public static class Problems
{
    public const string SyscallHook = "Syscall hook";
    public const string SpinWait = "Spin-wait";
    public const string NotifyBuffer = "Notify buffer";
    public const string EventLogRender = "Event-log render";
}

/// <summary>One figure behind a finding: its name, value and unit, and how Evidence says it.</summary>
/// <param name="Unit">"ms", "µs", "bytes", "bytes/s", "%", "×" or "" for a count.</param>
public sealed record Figure(string Name, double Value, string Unit, string Evidence);

/// <summary>
/// One problem instance as the rules assess it: a Findings row when its severity is low or above or not checked;
/// with <see cref="Severity.None"/> it is kept for compare only (a fixed problem shows its figures after the fix).
/// </summary>
/// <param name="Culprit">Who causes the cost; with <see cref="Problem"/> the key compare matches findings by.</param>
/// <param name="CostMs">CPU, or an estimate (<see cref="CostEstimated"/>); null when not checked.</param>
/// <param name="Figures">The figures that prove it (Evidence lists them); empty when not checked.</param>
/// <param name="EvidenceNote">Said after the figures: how an estimate was made, or the events a trace lacks.</param>
public sealed partial record Finding(
    string Problem, Severity Severity, string Culprit, string Victims, double? CostMs, bool CostEstimated,
    IReadOnlyList<Figure> Figures, string? EvidenceNote, string Recommendation, string SeeTable, long? StartNs, long? EndNs)
{
    /// <summary>What Evidence says: the figures, then the note.</summary>
    public string Evidence => string.Join("; ", Figures.Select(f => f.Evidence).Append(EvidenceNote).OfType<string>());

    /// <summary>
    /// The culprit as compare matches it: a lock's id is left out, since a runtime gives the same lock another id in
    /// every run (the call site names it across runs).
    /// </summary>
    public string MatchKey => Problem + "\n" + LockIdSuffix().Replace(Culprit, "");

    [System.Text.RegularExpressions.GeneratedRegex(@" \(Lock ID 0x[0-9A-F]+\)")]
    private static partial System.Text.RegularExpressions.Regex LockIdSuffix();
}
