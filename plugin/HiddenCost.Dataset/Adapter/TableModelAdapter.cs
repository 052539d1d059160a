using System.Globalization;
using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.TraceInfo;
using HiddenCost.Dataset.Schema;

namespace HiddenCost.Dataset.Adapter;

/// <summary>
/// The one place the dataset reads the table model's built tables (cells and notes) and builds one (a query's
/// result, for the CLI's writers): when the model's row or note types change, only this file changes. Everything
/// else works on dataset rows: object?[] in <see cref="DatasetTable"/> column order, of <see cref="DatasetType"/> CLR types.
/// </summary>
public static class TableModelAdapter
{
    /// <summary>Each analysed table's rows as dataset rows (without the two key columns), by dataset table.</summary>
    public static IEnumerable<(DatasetTable Table, IEnumerable<object?[]> Rows)> Rows(AnalysisResult result)
    {
        foreach (var table in result.Tables)
        {
            var target = DatasetSchema.ForModel(table.Spec.Id);
            yield return (target, RowsOf(table));
        }
    }

    private static IEnumerable<object?[]> RowsOf(Table table)
    {
        int columns = table.Spec.Columns.Count;
        for (int row = 0; row < table.RowCount; row++)
        {
            var cells = new object?[columns];
            for (int column = 0; column < columns; column++) cells[column] = Convert(table.Value(row, column));
            yield return cells;
        }
    }

    /// <summary>Every note on every table: (dataset table name, text).</summary>
    public static IEnumerable<(string Table, string Text)> Notes(AnalysisResult result) =>
        result.Tables.SelectMany(t => t.Notes.Select(n => (DatasetSchema.ForModel(t.Spec.Id).Name, n.Text)));

    /// <summary>What Trace Info's one row says of the trace; all null when the trace could not be read (no row).</summary>
    public static TraceFacts Facts(AnalysisResult result)
    {
        var info = result.Tables.OfType<Table<TraceInfoRow>>().FirstOrDefault();
        if (info is null || info.Rows.Count == 0) return new TraceFacts(null, null, null, null);
        var row = info.Rows[0];
        DateTime? start = DateTime.TryParseExact(row.TraceStartUtc, TraceInfoAnalysis.StartTimeFormat,
            CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out var s) ? s : null;
        return new TraceFacts(row.OsBuild, row.Processors, start, row.Duration);
    }

    /// <summary>A query's result as a table the CLI's writers print.</summary>
    public static Table ToTable(string name, IReadOnlyList<(string Name, ColumnType Type)> columns, IEnumerable<object?[]> rows)
    {
        var builder = new TableDefinitionBuilder<object?[]>(QueryTableId, name, "a query over a HiddenCost dataset", "HiddenCost/Dataset");
        var seen = new HashSet<string>(StringComparer.Ordinal);
        for (int i = 0; i < columns.Count; i++)
        {
            var (column, type) = columns[i];
            // SQL allows two result columns of one name; the table model does not.
            var unique = column;
            for (int n = 2; !seen.Add(unique); n++) unique = $"{column} ({n})";
            int index = i; // each accessor reads its own cell of the result row
            _ = type switch
            {
                ColumnType.Text => builder.Column(unique, type, r => (string?)r[index]),
                ColumnType.Integer or ColumnType.Timestamp or ColumnType.Duration => builder.Column(unique, type, r => (long?)r[index]),
                ColumnType.Decimal => builder.Column(unique, type, r => (double?)r[index]),
                ColumnType.Guid => builder.Column(unique, type, r => (Guid?)r[index]),
                ColumnType.Boolean => builder.Column(unique, type, r => (bool?)r[index]),
                _ => throw new ArgumentOutOfRangeException(nameof(columns), type, null),
            };
        }
        return builder.Build(new TableView(Array.Empty<string>())).Table(rows);
    }

    /// <summary>The GUID query results carry in JSON output; not a table WPA lists.</summary>
    public static readonly Guid QueryTableId = new("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a00f0");

    private static object? Convert(object? cell) => cell is Guid g ? g.ToString() : cell;
}

/// <summary>What the trace header says of a trace (Trace Info's row).</summary>
public sealed record TraceFacts(long? OsBuild, long? Processors, DateTime? StartUtc, long? DurationNs);
