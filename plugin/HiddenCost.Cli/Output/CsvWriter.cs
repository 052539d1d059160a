using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;

namespace HiddenCost.Cli.Output;

/// <summary>
/// RFC 4180 CSV: one header line per table, a leading "Trace" and "HiddenCost Table" column so several traces and
/// tables concatenate into one file that spreadsheets and scripts can filter (not "Table": Trace Readiness has a column
/// of that name, and a header that names two columns alike is read as one by csv.DictReader and others). A table's notes (what the trace
/// lacks, what a figure leaves out) have no place in that grid, so they go to the notes writer (standard
/// error), one line each naming trace and table, rather than being dropped.
/// </summary>
public static class CsvWriter
{
    /// <summary>The name of the leading column that names each row's table.</summary>
    public const string LeadingTableColumn = "HiddenCost Table";

    public static void Write(TextWriter w, TextWriter notes, AnalysisResult result, IReadOnlyList<Table> tables, bool first)
    {
        foreach (var table in tables)
        {
            foreach (var note in table.Notes) notes.WriteLine($"note: {result.TracePath}: {table.Spec.Name}: {note.Text}");
            if (!first) w.WriteLine();
            first = false;
            w.WriteLine(string.Join(",", new[] { "Trace", LeadingTableColumn }.Concat(table.Spec.Columns.Select(c => c.Name)).Select(Quote)));
            for (int row = 0; row < table.RowCount; row++)
            {
                var cells = Enumerable.Range(0, table.Columns.Count).Select(column => CellFormatter.Raw(table.Value(row, column)));
                w.WriteLine(string.Join(",", new[] { result.TracePath, table.Spec.Name }.Concat(cells).Select(Quote)));
            }
        }
    }

    private static string Quote(string s) =>
        s.IndexOfAny(new[] { ',', '"', '\n', '\r' }) >= 0 ? "\"" + s.Replace("\"", "\"\"") + "\"" : s;
}
