using HiddenCost.Analysis.Model;
using Microsoft.Performance.SDK;
using Microsoft.Performance.SDK.Processing;

namespace HiddenCost.Wpa.Mapping;

/// <summary>
/// Projects one column of a built table into WPA cells. Times become <see cref="Timestamp"/> and durations
/// <see cref="TimestampDelta"/> (nanoseconds since trace start), so WPA places them on its timeline. A value
/// column keeps its plain CLR type, which WPA can sum and sort, unless one of its cells is empty: then it
/// becomes nullable, so an empty cell stays empty instead of turning into 0.
/// </summary>
internal static class ColumnProjections
{
    public static ITableBuilderWithRowCount Add(
        ITableBuilderWithRowCount builder, ColumnConfiguration configuration, ColumnType type, IReadOnlyList<object?[]> rows, int column) =>
        type switch
        {
            ColumnType.Text => builder.AddColumn(configuration, Projection.Index(Cells(rows, column, cell => (string?)cell))),
            ColumnType.Integer => AddValues(builder, configuration, rows, column, cell => (long)cell),
            ColumnType.Decimal => AddValues(builder, configuration, rows, column, cell => (double)cell),
            ColumnType.Timestamp => AddValues(builder, configuration, rows, column, cell => new Timestamp((long)cell)),
            ColumnType.Duration => AddValues(builder, configuration, rows, column, cell => new TimestampDelta((long)cell)),
            ColumnType.Guid => AddValues(builder, configuration, rows, column, cell => (Guid)cell),
            ColumnType.Boolean => AddValues(builder, configuration, rows, column, cell => (bool)cell),
            _ => throw new ArgumentOutOfRangeException(nameof(type), type, "no WPA cell type for this column type"),
        };

    private static ITableBuilderWithRowCount AddValues<T>(
        ITableBuilderWithRowCount builder, ColumnConfiguration configuration, IReadOnlyList<object?[]> rows, int column, Func<object, T> convert)
        where T : struct
    {
        bool anyEmpty = false;
        for (int row = 0; row < rows.Count && !anyEmpty; row++)
            anyEmpty = rows[row][column] is null;
        return anyEmpty
            ? builder.AddColumn(configuration, Projection.Index(Cells(rows, column, cell => cell is null ? (T?)null : convert(cell))))
            : builder.AddColumn(configuration, Projection.Index(Cells(rows, column, cell => convert(cell!))));
    }

    private static T[] Cells<T>(IReadOnlyList<object?[]> rows, int column, Func<object?, T> convert)
    {
        var cells = new T[rows.Count];
        for (int row = 0; row < cells.Length; row++)
            cells[row] = convert(rows[row][column]);
        return cells;
    }
}
