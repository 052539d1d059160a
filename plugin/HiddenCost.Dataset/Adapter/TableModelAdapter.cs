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
            yield return (target, table.Rows.Select(row => row.Select(Convert).ToArray()));
        }
    }

    /// <summary>Every note on every table: (dataset table name, text).</summary>
    public static IEnumerable<(string Table, string Text)> Notes(AnalysisResult result) =>
        result.Tables.SelectMany(t => t.Notes.Select(n => (DatasetSchema.ForModel(t.Spec.Id).Name, n)));

    /// <summary>What Trace Info's one row says of the trace; all null when the trace could not be read (no row).</summary>
    public static TraceFacts Facts(AnalysisResult result)
    {
        var info = result.Tables.FirstOrDefault(t => t.Spec.Id == TraceInfoAnalysis.Spec.Id);
        if (info is null || info.Rows.Count == 0) return new TraceFacts(null, null, null, null);
        DateTime? start = DateTime.TryParseExact(info.Cell(0, "Trace Start (UTC)") as string, TraceInfoAnalysis.StartTimeFormat,
            CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out var s) ? s : null;
        return new TraceFacts(info.Cell(0, "OS Build") as long?, info.Cell(0, "Processors") as long?, start, info.Cell(0, "Duration") as long?);
    }

    /// <summary>A query's result as a table the CLI's writers print.</summary>
    public static Table ToTable(string name, IReadOnlyList<(string Name, ColumnType Type)> columns, IEnumerable<object?[]> rows)
    {
        var builder = new TableSpecBuilder(QueryTableId, name, "a query over a HiddenCost dataset", "HiddenCost/Dataset");
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var (column, type) in columns)
        {
            // SQL allows two result columns of one name; the table model does not.
            var unique = column;
            for (int n = 2; !seen.Add(unique); n++) unique = $"{column} ({n})";
            builder.Column(unique, type);
        }
        var table = new Table(builder.Build(new TableView(Array.Empty<string>())));
        foreach (var row in rows) table.AddRow(row);
        return table;
    }

    /// <summary>The GUID query results carry in JSON output; not a table WPA lists.</summary>
    public static readonly Guid QueryTableId = new("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a00f0");

    private static object? Convert(object? cell) => cell is Guid g ? g.ToString() : cell;
}

/// <summary>What the trace header says of a trace (Trace Info's row).</summary>
public sealed record TraceFacts(long? OsBuild, long? Processors, DateTime? StartUtc, long? DurationNs);
