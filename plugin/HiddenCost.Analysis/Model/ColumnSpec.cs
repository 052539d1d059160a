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
    string? Format = null)
{
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
