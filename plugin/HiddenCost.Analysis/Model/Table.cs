namespace HiddenCost.Analysis.Model;

/// <summary>
/// A built table: its spec, typed rows in column order, and notes that say what the trace lacks (shown above
/// the table by the CLI and logged to WPA). Rows are validated against the spec when added, so every
/// consumer can trust the cell types.
/// </summary>
public sealed class Table
{
    private readonly List<object?[]> _rows = new();
    private readonly List<string> _notes = new();

    public Table(TableSpec spec) => Spec = spec;

    public TableSpec Spec { get; }
    public IReadOnlyList<object?[]> Rows => _rows;

    /// <summary>What the trace lacks or what went wrong, in plain words (e.g. "no DirNotify events: record with …").</summary>
    public IReadOnlyList<string> Notes => _notes;

    public void AddNote(string note) => _notes.Add(note);

    /// <summary>Adds a row; each cell must be null or of its column's CLR type.</summary>
    public void AddRow(params object?[] cells)
    {
        var columns = Spec.Columns;
        if (cells.Length != columns.Count)
            throw new ArgumentException($"table '{Spec.Name}': row has {cells.Length} cells, spec has {columns.Count} columns");
        for (int i = 0; i < cells.Length; i++)
        {
            var cell = cells[i];
            if (cell is null) continue;
            var expected = columns[i].ClrType;
            if (cell.GetType() != expected)
                throw new ArgumentException($"table '{Spec.Name}', column '{columns[i].Name}': {cell.GetType().Name} given, {expected.Name} expected");
        }
        _rows.Add(cells);
    }

    /// <summary>The cell at <paramref name="row"/> in the column named <paramref name="column"/>.</summary>
    public object? Cell(int row, string column) => _rows[row][Spec.IndexOf(column)];

    /// <summary>The rows sorted in place by a comparison; analyses call this once, before handing the table out.</summary>
    public void SortRows(Comparison<object?[]> comparison) => _rows.Sort(comparison);
}
