using static HiddenCost.Analysis.Tables.Findings.FigureText;

namespace HiddenCost.Analysis.Tables.Findings;

/// <summary>
/// A Findings row in one plain sentence, numbers included, for the top of the text output: the severity, the culprit
/// and its cost, then the row's recommendation (which names the figures and the fix).
/// </summary>
public static class FindingSentence
{
    public static string For(FindingRow row)
    {
        if (row.Severity == SeverityNames.NotChecked) return $"Not checked ({row.Problem}): {row.Evidence}. {row.Recommendation}";
        var estimated = row.Evidence.Contains("estimated", StringComparison.Ordinal);
        var cost = row.CostMs is { } ms ? $" costs {(estimated ? "about " : "")}{Ms(ms)} of CPU{(estimated ? " (estimated)" : "")}" : "";
        var share = row.SharePercent is { } p ? $", {Percent(p)} of the CPU sampled while it lasted" : "";
        var severity = row.Severity.Length > 0 ? char.ToUpperInvariant(row.Severity[0]) + row.Severity[1..] : row.Severity;
        return $"{severity} ({row.Problem}): {row.Culprit}{cost}{share}. {row.Recommendation}";
    }
}
