namespace HiddenCost.Analysis.Model;

/// <summary>What a number in a column counts. Units also appear in column names, e.g. <c>Hook CPU (ms)</c>.</summary>
public enum ColumnUnit
{
    None,
    Count,
    Bytes,
    Megabytes,
    Nanoseconds,
    Microseconds,
    Milliseconds,
    Percent,
    PerSecond,
    Ratio,
    Megahertz,
}
