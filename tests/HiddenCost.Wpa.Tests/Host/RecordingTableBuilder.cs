using Microsoft.Performance.SDK.Processing;

namespace HiddenCost.Wpa.Tests.Host;

/// <summary>
/// The host's side of table building, recorded: what WPA would receive. It keeps the host's order (row count
/// before columns, once) so a plugin that breaks it fails here as it would in WPA.
/// </summary>
public sealed class RecordingTableBuilder : ITableBuilder, ITableBuilderWithRowCount
{
    private readonly List<TableConfiguration> _configurations = new();
    private readonly List<IDataColumn> _columns = new();

    public IReadOnlyList<TableConfiguration> Configurations => _configurations;
    public TableConfiguration? DefaultConfiguration { get; private set; }
    public int? RowCount { get; private set; }
    public IReadOnlyList<IDataColumn> Columns => _columns;

    public ITableBuilder AddTableConfiguration(TableConfiguration configuration)
    {
        _configurations.Add(configuration ?? throw new ArgumentNullException(nameof(configuration)));
        return this;
    }

    public ITableBuilder SetDefaultTableConfiguration(TableConfiguration configuration)
    {
        DefaultConfiguration = configuration ?? throw new ArgumentNullException(nameof(configuration));
        return this;
    }

    public ITableBuilderWithRowCount SetRowCount(int numberOfRows)
    {
        if (RowCount is not null) throw new InvalidOperationException("row count set twice");
        if (numberOfRows < 0) throw new ArgumentOutOfRangeException(nameof(numberOfRows));
        RowCount = numberOfRows;
        return this;
    }

    public ITableBuilderWithRowCount AddColumn(IDataColumn column)
    {
        if (RowCount is null) throw new InvalidOperationException("column added before the row count");
        if (_columns.Any(c => c.Configuration.Metadata.Guid == column.Configuration.Metadata.Guid))
            throw new InvalidOperationException($"column {column.Configuration.Metadata.Guid} added twice");
        _columns.Add(column);
        return this;
    }

    public IDataColumn Column(string name) => _columns.Single(c => c.Configuration.Metadata.Name == name);

    public object? Cell(int row, string column) => Column(column).Project(row);

    /// <summary>Projects every cell, as WPA does when it shows the table; a throwing projection fails here.</summary>
    public int ProjectEveryCell()
    {
        int cells = 0;
        foreach (var column in _columns)
            for (int row = 0; row < RowCount; row++, cells++)
                column.Project(row);
        return cells;
    }
}
