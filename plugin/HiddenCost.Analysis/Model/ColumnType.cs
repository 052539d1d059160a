namespace HiddenCost.Analysis.Model;

/// <summary>The CLR type a column's cells hold. Every consumer (WPA adapter, CLI) maps from this one list.</summary>
public enum ColumnType
{
    /// <summary><see cref="string"/>; null allowed.</summary>
    Text,
    /// <summary><see cref="long"/>; null allowed (an empty cell).</summary>
    Integer,
    /// <summary><see cref="double"/>; null allowed.</summary>
    Decimal,
    /// <summary><see cref="long"/> nanoseconds since trace start; graphs on the WPA timeline.</summary>
    Timestamp,
    /// <summary><see cref="long"/> nanoseconds; a span of time.</summary>
    Duration,
    /// <summary><see cref="System.Guid"/>.</summary>
    Guid,
    /// <summary><see cref="bool"/>.</summary>
    Boolean,
}
