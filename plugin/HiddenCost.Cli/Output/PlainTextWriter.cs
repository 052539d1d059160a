using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;

namespace HiddenCost.Cli.Output;

/// <summary>
/// Aligned plain-text tables for pipes and files. A one-row table is printed as "name: value" lines,
/// which reads better than one very wide row.
/// </summary>
public static class PlainTextWriter
{
    public static void Write(TextWriter w, AnalysisResult result, IReadOnlyList<Table> tables) => new Outline(w).Write(result, tables);

    private sealed class Outline(TextWriter w) : TextReportOutline
    {
        protected override void TraceHeading(string tracePath) => w.WriteLine($"# {tracePath}");
        protected override void Error(string message) => w.WriteLine($"error: {message}");
        protected override void Line(string text) => w.WriteLine(text);
        protected override void BlankLine() => w.WriteLine();
        protected override void TableHeading(string name, string rowCount) => w.WriteLine($"## {name} ({rowCount})");
        protected override void Note(string text) => w.WriteLine($"note: {text}");

        protected override void Rows(Table table)
        {
            if (table.RowCount == 1) WriteVertical(w, table);
            else WriteGrid(w, table);
        }
    }

    private static void WriteVertical(TextWriter w, Table table)
    {
        var columns = table.Spec.Columns;
        int width = columns.Max(c => c.Name.Length);
        for (int i = 0; i < columns.Count; i++)
            w.WriteLine($"{columns[i].Name.PadRight(width)}  {CellFormatter.Text(columns[i], table.Value(0, i))}");
    }

    private static void WriteGrid(TextWriter w, Table table)
    {
        var columns = table.Spec.Columns;
        var cells = CellFormatter.TextCells(table);
        var widths = columns.Select((c, i) => Math.Max(c.Name.Length, cells.Length == 0 ? 0 : cells.Max(r => r[i].Length))).ToArray();
        w.WriteLine(string.Join("  ", columns.Select((c, i) => Pad(c.Name, widths[i], CellFormatter.IsNumeric(c)))).TrimEnd());
        w.WriteLine(string.Join("  ", widths.Select(x => new string('-', x))));
        foreach (var row in cells)
            w.WriteLine(string.Join("  ", row.Select((v, i) => Pad(v, widths[i], CellFormatter.IsNumeric(columns[i])))).TrimEnd());
    }

    private static string Pad(string s, int width, bool right) => right ? s.PadLeft(width) : s.PadRight(width);
}
