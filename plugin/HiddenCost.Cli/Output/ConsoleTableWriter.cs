using HiddenCost.Analysis;
using Table = HiddenCost.Analysis.Model.Table;
using Spectre.Console;

namespace HiddenCost.Cli.Output;

/// <summary>Terminal tables (Spectre.Console) when standard output is a console.</summary>
public static class ConsoleTableWriter
{
    public static void Write(IAnsiConsole console, AnalysisResult result, IReadOnlyList<Table> tables) => new Outline(console).Write(result, tables);

    private sealed class Outline(IAnsiConsole console) : TextReportOutline
    {
        protected override void TraceHeading(string tracePath) => console.Write(new Rule($"[bold]{Markup.Escape(tracePath)}[/]").LeftJustified());
        protected override void Error(string message) => console.MarkupLine($"[red]error:[/] {Markup.Escape(message)}");
        protected override void Line(string text) => console.WriteLine(text);
        protected override void BlankLine() => console.WriteLine();
        protected override void TableHeading(string name, string rowCount) => console.MarkupLine($"[bold]{Markup.Escape(name)}[/] [grey]({rowCount})[/]");
        protected override void Note(string text) => console.MarkupLine($"[yellow]note:[/] {Markup.Escape(text)}");
        protected override void Rows(Table table) => WriteRows(console, table);
    }

    private static void WriteRows(IAnsiConsole console, Table table)
    {
        var columns = table.Spec.Columns;
        var cells = CellFormatter.TextCells(table);
        // A few rows wider than the terminal would wrap every cell into slivers: print them as field lists.
        int naturalWidth = columns.Select((c, i) => Math.Max(c.Name.Length, cells.Max(r => r[i].Length)) + 3).Sum() + 1;
        if (table.RowCount == 1 || (naturalWidth > console.Profile.Width && table.RowCount <= 20))
        {
            for (int r = 0; r < cells.Length; r++)
            {
                var record = new Spectre.Console.Table().Border(TableBorder.Rounded).AddColumn("Field").AddColumn("Value");
                if (cells.Length > 1) record.Title($"row {r + 1} of {cells.Length}");
                for (int i = 0; i < columns.Count; i++)
                    record.AddRow(Markup.Escape(columns[i].Name), Markup.Escape(cells[r][i]));
                console.Write(record);
            }
            return;
        }
        var grid = new Spectre.Console.Table().Border(TableBorder.Rounded);
        foreach (var c in columns)
        {
            var col = new TableColumn(Markup.Escape(c.Name));
            if (CellFormatter.IsNumeric(c)) col.RightAligned();
            grid.AddColumn(col);
        }
        foreach (var row in cells)
            grid.AddRow(row.Select(Markup.Escape).ToArray());
        console.Write(grid);
    }
}
