namespace HiddenCost.Analysis.Model;

/// <summary>
/// A built table as every generic consumer sees it (WPA adapter, CLI writers, exporters): its spec, its rows' cells
/// read column by column, and notes that say what the trace lacks. Cells are typed by their column
/// (<see cref="ColumnSpec.ClrType"/>): <see cref="Columns"/> reads them without boxing, <see cref="Value"/> boxed.
/// Analyses build <see cref="Table{TRow}"/>, whose typed rows tests and other analyses read.
/// </summary>
public abstract class Table
{
    private readonly List<TableNote> _notes = new();

    private protected Table(TableSpec spec) => Spec = spec;

    public TableSpec Spec { get; }

    public abstract int RowCount { get; }

    /// <summary>
    /// One reader per column of <see cref="Spec"/>, in its order: a <see cref="TableColumn{T}"/> of <c>string?</c> (text),
    /// <c>long?</c> (integer, timestamp, duration), <c>double?</c>, <c>Guid?</c> or <c>bool?</c>, by <see cref="ColumnSpec.Type"/>.
    /// </summary>
    public abstract IReadOnlyList<TableColumn> Columns { get; }

    /// <summary>What the trace lacks or what went wrong (e.g. "no DirNotify events: record with …").</summary>
    public IReadOnlyList<TableNote> Notes => _notes;

    public void AddNote(TableNote note) => _notes.Add(note);

    /// <summary>The cell at <paramref name="row"/> in the column at index <paramref name="column"/>: null or of the column's CLR type.</summary>
    public object? Value(int row, int column) => Columns[column].Value(row);

    /// <summary>A table of <paramref name="spec"/> with no rows (for a trace that could not be analysed).</summary>
    public static Table Empty(TableSpec spec) => new EmptyTable(spec);

    private sealed class EmptyTable(TableSpec spec) : Table(spec)
    {
        public override int RowCount => 0;
        public override IReadOnlyList<TableColumn> Columns { get; } = spec.Columns.Select(TableColumn.Empty).ToArray();
    }
}

/// <summary>A built table whose rows are <typeparamref name="TRow"/> records, in the order the analysis sorted them.</summary>
public sealed class Table<TRow> : Table
{
    private readonly TRow[] _rows;

    internal Table(TableDefinition<TRow> definition, TRow[] rows) : base(definition.Spec)
    {
        Definition = definition;
        _rows = rows;
        Columns = definition.Bind(_rows);
    }

    public TableDefinition<TRow> Definition { get; }

    public IReadOnlyList<TRow> Rows => _rows;

    public override int RowCount => _rows.Length;

    public override IReadOnlyList<TableColumn> Columns { get; }
}
