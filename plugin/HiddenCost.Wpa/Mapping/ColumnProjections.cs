using HiddenCost.Analysis.Model;
using Microsoft.Performance.SDK;
using Microsoft.Performance.SDK.Processing;

namespace HiddenCost.Wpa.Mapping;

/// <summary>
/// Projects one column of a built table into WPA cells, reading the column's typed cells (no boxing). Times become
/// <see cref="Timestamp"/> and durations <see cref="TimestampDelta"/> (nanoseconds since trace start), so WPA places them
/// on its timeline. A value column keeps its plain CLR type, which WPA can sum and sort, unless one of its cells is
/// empty: then it becomes nullable, so an empty cell stays empty instead of turning into 0.
/// </summary>
internal static class ColumnProjections
{
    public static ITableBuilderWithRowCount Add(ITableBuilderWithRowCount builder, ColumnConfiguration configuration, TableColumn column, int rows) =>
        column.Spec.Type switch
        {
            ColumnType.Text => builder.AddColumn(configuration, Projection.Index(Cells(rows, (TableColumn<string?>)column, cell => cell))),
            ColumnType.Integer => AddValues(builder, configuration, rows, (TableColumn<long?>)column, cell => cell),
            ColumnType.Decimal => AddValues(builder, configuration, rows, (TableColumn<double?>)column, cell => cell),
            ColumnType.Timestamp => AddValues(builder, configuration, rows, (TableColumn<long?>)column, cell => new Timestamp(cell)),
            ColumnType.Duration => AddValues(builder, configuration, rows, (TableColumn<long?>)column, cell => new TimestampDelta(cell)),
            ColumnType.Guid => AddValues(builder, configuration, rows, (TableColumn<Guid?>)column, cell => cell),
            ColumnType.Boolean => AddValues(builder, configuration, rows, (TableColumn<bool?>)column, cell => cell),
            _ => throw new ArgumentOutOfRangeException(nameof(column), column.Spec.Type, "no WPA cell type for this column type"),
        };

    private static ITableBuilderWithRowCount AddValues<TCell, T>(
        ITableBuilderWithRowCount builder, ColumnConfiguration configuration, int rows, TableColumn<TCell?> column, Func<TCell, T> convert)
        where TCell : struct
        where T : struct =>
        column.HasEmptyCells
            ? builder.AddColumn(configuration, Projection.Index(Cells(rows, column, cell => cell is { } value ? convert(value) : (T?)null)))
            : builder.AddColumn(configuration, Projection.Index(Cells(rows, column, cell => convert(cell!.Value))));

    private static T[] Cells<TCell, T>(int rows, TableColumn<TCell> column, Func<TCell, T> convert)
    {
        var cells = new T[rows];
        for (int row = 0; row < cells.Length; row++)
            cells[row] = convert(column[row]);
        return cells;
    }
}
