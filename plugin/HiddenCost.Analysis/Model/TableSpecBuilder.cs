namespace HiddenCost.Analysis.Model;

/// <summary>Builds a <see cref="TableSpec"/> column by column, giving each column its stable GUID.</summary>
public sealed class TableSpecBuilder
{
    private readonly Guid _id;
    private readonly string _name;
    private readonly string _description;
    private readonly string _category;
    private readonly List<ColumnSpec> _columns = new();

    public TableSpecBuilder(Guid id, string name, string description, string category = "HiddenCost")
    {
        _id = id;
        _name = name;
        _description = description;
        _category = category;
    }

    /// <param name="summary">How collapsed rows sum the column up, when not the usual for its unit (a mean or a
    /// maximum in milliseconds does not add).</param>
    public TableSpecBuilder Column(string name, ColumnType type, ColumnUnit unit = ColumnUnit.None,
        ColumnRole role = ColumnRole.None, string description = "", string? format = null, ColumnSummary? summary = null)
    {
        _columns.Add(new ColumnSpec(StableIds.Column(_id, name), name, type, unit, role, description, format, summary));
        return this;
    }

    public TableSpec Build(TableView view)
    {
        var spec = new TableSpec(_id, _name, _description, _category, _columns.ToArray(), view);
        foreach (var c in view.PivotColumns) spec.IndexOf(c);
        if (view.GraphColumn is not null) spec.IndexOf(view.GraphColumn);
        foreach (var c in view.SortDescending ?? Array.Empty<string>()) spec.IndexOf(c);
        return spec;
    }
}
