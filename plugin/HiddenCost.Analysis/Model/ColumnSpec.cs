namespace HiddenCost.Analysis.Model;

/// <summary>
/// One column of a table. <see cref="Id"/> and <see cref="Name"/> are a public contract: presets and scripts
/// refer to them, so once released they never change.
/// </summary>
public sealed record ColumnSpec(
    Guid Id,
    string Name,
    ColumnType Type,
    ColumnUnit Unit = ColumnUnit.None,
    ColumnRole Role = ColumnRole.None,
    string Description = "",
    /// <summary>How the CLI formats the value (e.g. "hex" for lock ids); the raw value stays typed.</summary>
    string? Format = null,
    /// <summary>How collapsed rows sum the column up; null: by type, unit and role (<see cref="SummaryFor"/>).</summary>
    ColumnSummary? SummaryOverride = null)
{
    /// <summary>How collapsed rows sum this column up.</summary>
    public ColumnSummary Summary => SummaryOverride ?? SummaryFor(Type, Unit, Role);

    /// <summary>
    /// The usual summary: times their earliest (start) or latest (end), amounts their sum, rates, shares and ratios
    /// their largest; text, identifiers and unit-less numbers none.
    /// </summary>
    public static ColumnSummary SummaryFor(ColumnType type, ColumnUnit unit, ColumnRole role) => type switch
    {
        ColumnType.Timestamp => role == ColumnRole.EndTime ? ColumnSummary.Max : ColumnSummary.Min,
        ColumnType.Duration => ColumnSummary.Sum,
        ColumnType.Integer or ColumnType.Decimal when role is not (ColumnRole.ProcessId or ColumnRole.ThreadId) => unit switch
        {
            ColumnUnit.Count or ColumnUnit.Bytes or ColumnUnit.Megabytes
                or ColumnUnit.Nanoseconds or ColumnUnit.Microseconds or ColumnUnit.Milliseconds => ColumnSummary.Sum,
            ColumnUnit.Percent or ColumnUnit.PerSecond or ColumnUnit.Ratio or ColumnUnit.Megahertz => ColumnSummary.Max,
            _ => ColumnSummary.None,
        },
        _ => ColumnSummary.None,
    };

    /// <summary>The CLR type of a non-null cell.</summary>
    public Type ClrType => Type switch
    {
        ColumnType.Text => typeof(string),
        ColumnType.Integer or ColumnType.Timestamp or ColumnType.Duration => typeof(long),
        ColumnType.Decimal => typeof(double),
        ColumnType.Guid => typeof(Guid),
        ColumnType.Boolean => typeof(bool),
        _ => throw new ArgumentOutOfRangeException(nameof(Type), Type, null),
    };
}
