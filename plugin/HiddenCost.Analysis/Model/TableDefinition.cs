namespace HiddenCost.Analysis.Model;

/// <summary>
/// A table's contract (<see cref="Spec"/>) with each column bound to the member of the row record that fills it, so a
/// column is declared once, in one place, and no cell is placed by position. Built by <see cref="TableDefinitionBuilder{TRow}"/>.
/// </summary>
public sealed class TableDefinition<TRow>
{
    private readonly IReadOnlyList<ColumnAccessor<TRow>> _accessors;

    internal TableDefinition(TableSpec spec, IReadOnlyList<ColumnAccessor<TRow>> accessors)
    {
        Spec = spec;
        _accessors = accessors;
    }

    public TableSpec Spec { get; }

    public static implicit operator TableSpec(TableDefinition<TRow> definition) => definition.Spec;

    /// <summary>The table of these rows, in the order given.</summary>
    public Table<TRow> Table(IEnumerable<TRow> rows) => new(this, rows.ToArray());

    /// <summary>A table with no rows (its notes say why).</summary>
    public Table<TRow> Empty() => new(this, Array.Empty<TRow>());

    internal TableColumn[] Bind(TRow[] rows)
    {
        var columns = new TableColumn[_accessors.Count];
        for (int i = 0; i < columns.Length; i++) columns[i] = _accessors[i].Bind(Spec.Columns[i], rows);
        return columns;
    }
}

/// <summary>How one column reads its cell from a row.</summary>
internal abstract class ColumnAccessor<TRow>
{
    public abstract TableColumn Bind(ColumnSpec spec, TRow[] rows);
}

internal sealed class ColumnAccessor<TRow, T>(Func<TRow, T> read) : ColumnAccessor<TRow>
{
    public override TableColumn Bind(ColumnSpec spec, TRow[] rows) => new TableColumn<T>(spec, row => read(rows[row]), rows.Length);
}
