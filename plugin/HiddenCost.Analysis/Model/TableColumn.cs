namespace HiddenCost.Analysis.Model;

/// <summary>One column of a built table: its spec and its cells by row.</summary>
public abstract class TableColumn
{
    private protected TableColumn(ColumnSpec spec) => Spec = spec;

    public ColumnSpec Spec { get; }

    /// <summary>The cell, boxed: null or of <see cref="ColumnSpec.ClrType"/>.</summary>
    public abstract object? Value(int row);

    /// <summary>Whether some cell of the column is empty (null).</summary>
    public abstract bool HasEmptyCells { get; }

    /// <summary>A column of a table without rows.</summary>
    internal static TableColumn Empty(ColumnSpec spec) => spec.Type switch
    {
        ColumnType.Text => new TableColumn<string?>(spec, _ => null, 0),
        ColumnType.Integer or ColumnType.Timestamp or ColumnType.Duration => new TableColumn<long?>(spec, _ => null, 0),
        ColumnType.Decimal => new TableColumn<double?>(spec, _ => null, 0),
        ColumnType.Guid => new TableColumn<Guid?>(spec, _ => null, 0),
        ColumnType.Boolean => new TableColumn<bool?>(spec, _ => null, 0),
        _ => throw new ArgumentOutOfRangeException(nameof(spec), spec.Type, null),
    };
}

/// <summary>
/// A column whose cells are <typeparamref name="T"/>: <c>string?</c> for text, <c>long?</c> for integers, timestamps
/// and durations (ns), <c>double?</c> for decimals, <c>Guid?</c> and <c>bool?</c>.
/// </summary>
public sealed class TableColumn<T> : TableColumn
{
    private readonly Func<int, T> _cell;
    private readonly int _rows;
    private bool? _hasEmptyCells;

    internal TableColumn(ColumnSpec spec, Func<int, T> cell, int rows) : base(spec)
    {
        _cell = cell;
        _rows = rows;
    }

    public T this[int row] => (uint)row < (uint)_rows ? _cell(row) : throw new ArgumentOutOfRangeException(nameof(row));

    public override object? Value(int row) => this[row];

    public override bool HasEmptyCells => _hasEmptyCells ??= AnyEmpty();

    private bool AnyEmpty()
    {
        for (int row = 0; row < _rows; row++)
            if (_cell(row) is null) return true;
        return false;
    }
}
