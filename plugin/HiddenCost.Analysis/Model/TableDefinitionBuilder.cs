namespace HiddenCost.Analysis.Model;

/// <summary>
/// Builds a <see cref="TableDefinition{TRow}"/> column by column, giving each column its stable GUID and the member of
/// <typeparamref name="TRow"/> that fills it. The member's type must be the column type's (text: string; integer,
/// timestamp and duration: long; decimal: double; GUID; Boolean): a mismatch fails when the definition is built, so a
/// table's definition fails the first test that touches it.
/// </summary>
public sealed class TableDefinitionBuilder<TRow>
{
    private readonly Guid _id;
    private readonly string _name;
    private readonly string _description;
    private readonly string _category;
    private readonly List<ColumnSpec> _columns = new();
    private readonly List<ColumnAccessor<TRow>> _accessors = new();

    public TableDefinitionBuilder(Guid id, string name, string description, string category = "HiddenCost")
    {
        _id = id;
        _name = name;
        _description = description;
        _category = category;
    }

    /// <summary>A text column read from <paramref name="value"/>.</summary>
    public TableDefinitionBuilder<TRow> Column(string name, ColumnType type, Func<TRow, string?> value, ColumnUnit unit = ColumnUnit.None,
        ColumnRole role = ColumnRole.None, string description = "", string? format = null, ColumnSummary? summary = null) =>
        Add(name, type, typeof(string), new ColumnAccessor<TRow, string?>(value), unit, role, description, format, summary);

    /// <summary>A column of numbers, times, GUIDs or Booleans (<typeparamref name="T"/>: long, double, Guid, bool) that every row fills.</summary>
    public TableDefinitionBuilder<TRow> Column<T>(string name, ColumnType type, Func<TRow, T> value, ColumnUnit unit = ColumnUnit.None,
        ColumnRole role = ColumnRole.None, string description = "", string? format = null, ColumnSummary? summary = null)
        where T : struct => Column<T>(name, type, row => (T?)value(row), unit, role, description, format, summary);

    /// <summary>A column of numbers, times, GUIDs or Booleans whose cell a row may leave empty (null).</summary>
    public TableDefinitionBuilder<TRow> Column<T>(string name, ColumnType type, Func<TRow, T?> value, ColumnUnit unit = ColumnUnit.None,
        ColumnRole role = ColumnRole.None, string description = "", string? format = null, ColumnSummary? summary = null)
        where T : struct => Add(name, type, typeof(T), new ColumnAccessor<TRow, T?>(value), unit, role, description, format, summary);

    private TableDefinitionBuilder<TRow> Add(string name, ColumnType type, Type cellType, ColumnAccessor<TRow> accessor, ColumnUnit unit,
        ColumnRole role, string description, string? format, ColumnSummary? summary)
    {
        var column = new ColumnSpec(StableIds.Column(_id, name), name, type, unit, role, description, format, summary);
        if (column.ClrType != cellType)
            throw new ArgumentException($"table '{_name}', column '{name}': a {type} column is read as {column.ClrType.Name}, not {cellType.Name}", nameof(type));
        _columns.Add(column);
        _accessors.Add(accessor);
        return this;
    }

    public TableDefinition<TRow> Build(TableView view)
    {
        var spec = new TableSpec(_id, _name, _description, _category, _columns.ToArray(), view);
        foreach (var c in view.PivotColumns) spec.IndexOf(c);
        if (view.GraphColumn is not null) spec.IndexOf(view.GraphColumn);
        foreach (var c in view.SortDescending ?? Array.Empty<string>()) spec.IndexOf(c);
        return new TableDefinition<TRow>(spec, _accessors.ToArray());
    }
}
