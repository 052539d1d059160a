namespace HiddenCost.Analysis.Model;

/// <summary>
/// Builds a <see cref="TableDefinition{TRow}"/> column by column, giving each column its stable GUID and the member of
/// <typeparamref name="TRow"/> that fills it. The accessor's type must be the column type's (text: string, integer,
/// timestamp and duration: long, decimal: double, GUID, Boolean): a mismatch fails when the definition is built.
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

    public TableDefinitionBuilder<TRow> Column(string name, ColumnType type, Func<TRow, string?> value, ColumnUnit unit = ColumnUnit.None,
        ColumnRole role = ColumnRole.None, string description = "", string? format = null, ColumnSummary? summary = null) =>
        Add(name, type, typeof(string), new ColumnAccessor<TRow, string?>(value), unit, role, description, format, summary);

    public TableDefinitionBuilder<TRow> Column(string name, ColumnType type, Func<TRow, long?> value, ColumnUnit unit = ColumnUnit.None,
        ColumnRole role = ColumnRole.None, string description = "", string? format = null, ColumnSummary? summary = null) =>
        Add(name, type, typeof(long), new ColumnAccessor<TRow, long?>(value), unit, role, description, format, summary);

    public TableDefinitionBuilder<TRow> Column(string name, ColumnType type, Func<TRow, double?> value, ColumnUnit unit = ColumnUnit.None,
        ColumnRole role = ColumnRole.None, string description = "", string? format = null, ColumnSummary? summary = null) =>
        Add(name, type, typeof(double), new ColumnAccessor<TRow, double?>(value), unit, role, description, format, summary);

    public TableDefinitionBuilder<TRow> Column(string name, ColumnType type, Func<TRow, Guid?> value, ColumnUnit unit = ColumnUnit.None,
        ColumnRole role = ColumnRole.None, string description = "", string? format = null, ColumnSummary? summary = null) =>
        Add(name, type, typeof(Guid), new ColumnAccessor<TRow, Guid?>(value), unit, role, description, format, summary);

    public TableDefinitionBuilder<TRow> Column(string name, ColumnType type, Func<TRow, bool?> value, ColumnUnit unit = ColumnUnit.None,
        ColumnRole role = ColumnRole.None, string description = "", string? format = null, ColumnSummary? summary = null) =>
        Add(name, type, typeof(bool), new ColumnAccessor<TRow, bool?>(value), unit, role, description, format, summary);

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
