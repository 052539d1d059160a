namespace HiddenCost.Analysis.Tables.Findings.Comparison;

/// <summary>What happened to one finding between the two traces.</summary>
public enum Change
{
    /// <summary>A finding after, none before (or its problem was not checked before).</summary>
    New,
    /// <summary>A finding before, below every threshold or absent after.</summary>
    Gone,
    /// <summary>Higher severity, or the same severity and a cost up by more than noise.</summary>
    Worse,
    Better,
    /// <summary>Same severity, cost within noise.</summary>
    Unchanged,
    /// <summary>A finding before whose problem the after-trace was not ready to check.</summary>
    NotChecked,
}

/// <summary>One figure before → after; a side is null when that trace has no such figure.</summary>
public sealed record FigureChange(string Name, string Unit, double? Before, double? After, bool Moved)
{
    public double? Difference => Before is { } b && After is { } a ? a - b : null;

    public double? DifferencePercent => Before is { } b && After is { } a && b != 0 ? (a - b) / Math.Abs(b) * 100 : null;
}

/// <summary>One finding matched across the traces by problem and culprit (a lock's id left out: see <see cref="Finding.MatchKey"/>).</summary>
public sealed record FindingChange(
    string Problem, string Culprit, Change Change, Severity Before, Severity After, IReadOnlyList<FigureChange> Figures, string Recommendation);

/// <summary>The verdict over all findings.</summary>
public enum Verdict
{
    /// <summary>Nothing new or worse, something gone or better.</summary>
    Better,
    /// <summary>Something new or worse.</summary>
    Worse,
    /// <summary>Every finding the same within noise (or none either side).</summary>
    Unchanged,
}

public sealed record ComparisonResult(IReadOnlyList<FindingChange> Findings, Verdict Verdict)
{
    public int Count(Change change) => Findings.Count(f => f.Change == change);

    /// <summary>"better: 1 gone, 0 new, 0 worse, 0 better, 0 unchanged within noise, 0 not checked after".</summary>
    public string VerdictLine =>
        $"{Verdict.ToString().ToLowerInvariant()}: {Count(Change.Gone)} gone, {Count(Change.New)} new, {Count(Change.Worse)} worse, " +
        $"{Count(Change.Better)} better, {Count(Change.Unchanged)} unchanged within noise, {Count(Change.NotChecked)} not checked after";

    /// <summary>Whether a new or worse finding is at <paramref name="floor"/> or above in the after-trace (--fail-on).</summary>
    public bool Trips(Severity floor) =>
        Findings.Any(f => f.Change is Change.New or Change.Worse && SeverityNames.AtLeast(f.After, floor));
}

/// <summary>Compares two traces' assessed findings (<see cref="FindingsEvaluator.Assess"/>, below-threshold ones included).</summary>
public static class FindingComparison
{
    public static ComparisonResult Compare(IReadOnlyList<Finding> before, IReadOnlyList<Finding> after)
    {
        var uncheckedAfter = after.Where(f => f.Severity == Severity.NotChecked).Select(f => f.Problem).ToHashSet();
        var b = Index(before);
        var a = Index(after);
        var uncheckedBefore = before.Where(f => f.Severity == Severity.NotChecked).Select(f => f.Problem).ToHashSet();
        var changes = new List<FindingChange>();
        foreach (var key in b.Keys.Concat(a.Keys.Where(k => !b.ContainsKey(k))))
        {
            var x = b.GetValueOrDefault(key);
            var y = a.GetValueOrDefault(key);
            var sb = x?.Severity ?? (uncheckedBefore.Contains((y ?? x)!.Problem) ? Severity.NotChecked : Severity.None);
            var sa = y?.Severity ?? Severity.None;
            if (sa == Severity.None && sb is (Severity.None or Severity.NotChecked)) continue; // no finding either side
            var any = (y ?? x)!;
            Change change;
            if (y is null && uncheckedAfter.Contains(any.Problem)) change = Change.NotChecked;
            else if (sb is Severity.None or Severity.NotChecked) change = Change.New; // a problem not checked before counts as new too
            else if (sa == Severity.None) change = Change.Gone;
            else if (sa != sb) change = sa > sb ? Change.Worse : Change.Better;
            else
            {
                double cb = x!.CostMs ?? 0, ca = y!.CostMs ?? 0;
                change = !FigureNoise.Moved("ms", cb, ca) ? Change.Unchanged : ca > cb ? Change.Worse : Change.Better;
            }
            changes.Add(new FindingChange(any.Problem, any.Culprit, change, sb, sa, Figures(x, y), (y is { Severity: >= Severity.Low } ? y : x ?? y)!.Recommendation));
        }
        var verdict = changes.Any(c => c.Change is Change.New or Change.Worse) ? Verdict.Worse
            : changes.Any(c => c.Change is Change.Gone or Change.Better) ? Verdict.Better
            : Verdict.Unchanged;
        var order = changes.OrderBy(c => c.Change).ThenByDescending(c => (int)Math.Max((int)c.Before, (int)c.After)).ThenBy(c => c.Problem, StringComparer.Ordinal)
            .ThenBy(c => c.Culprit, StringComparer.Ordinal).ToArray();
        return new ComparisonResult(order, verdict);
    }

    private static Dictionary<string, Finding> Index(IReadOnlyList<Finding> findings)
    {
        var index = new Dictionary<string, Finding>(StringComparer.Ordinal);
        // Two instances with one key (a lock whose id alone told them apart): the dearer stands for both.
        foreach (var f in findings.Where(f => f.Severity != Severity.NotChecked).OrderByDescending(f => f.CostMs ?? 0))
            index.TryAdd(f.MatchKey, f);
        return index;
    }

    /// <summary>Cost, then every figure either side names, in the order the findings list them.</summary>
    private static IReadOnlyList<FigureChange> Figures(Finding? before, Finding? after)
    {
        var list = new List<FigureChange> { Figure("Cost", "ms", before?.CostMs, after?.CostMs) };
        var names = (before?.Figures ?? []).Concat(after?.Figures ?? []).Select(f => (f.Name, f.Unit)).Distinct();
        foreach (var (name, unit) in names)
            list.Add(Figure(name, unit, before?.Figures.FirstOrDefault(f => f.Name == name)?.Value, after?.Figures.FirstOrDefault(f => f.Name == name)?.Value));
        return list;
    }

    private static FigureChange Figure(string name, string unit, double? before, double? after) =>
        new(name, unit, before, after, before is { } b && after is { } a ? FigureNoise.Moved(unit, b, a) : before.HasValue != after.HasValue);
}
