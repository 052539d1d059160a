namespace HiddenCost.Analysis.Tables.Findings;

/// <summary>
/// How bad a problem instance is. <see cref="None"/>: measured, below every threshold (no Findings row, but compare
/// still shows its figures); <see cref="NotChecked"/>: the trace lacks the events to tell.
/// </summary>
public enum Severity
{
    None = 0,
    Low = 1,
    Medium = 2,
    High = 3,
    NotChecked = -1,
}

public static class SeverityNames
{
    public const string NotChecked = "not checked";

    /// <summary>The Severity column's words: high, medium, low, not checked (none for a figure below every threshold).</summary>
    public static string Name(Severity severity) => severity switch
    {
        Severity.High => "high",
        Severity.Medium => "medium",
        Severity.Low => "low",
        Severity.NotChecked => NotChecked,
        _ => "none",
    };

    public static bool TryParse(string? text, out Severity severity)
    {
        foreach (var s in Enum.GetValues<Severity>())
            if (string.Equals(Name(s), text, StringComparison.OrdinalIgnoreCase))
            {
                severity = s;
                return true;
            }
        severity = Severity.None;
        return false;
    }

    /// <summary>Whether <paramref name="severity"/> is a finding at <paramref name="floor"/> or above (never for none or not checked).</summary>
    public static bool AtLeast(Severity severity, Severity floor) => severity >= Severity.Low && severity >= floor;
}
