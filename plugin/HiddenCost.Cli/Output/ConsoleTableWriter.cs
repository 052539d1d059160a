using HiddenCost.Analysis;
using Table = HiddenCost.Analysis.Model.Table;
using Spectre.Console;

namespace HiddenCost.Cli.Output;

/// <summary>Terminal tables (Spectre.Console) when standard output is a console.</summary>
public static class ConsoleTableWriter
{
    public static void Write(IAnsiConsole console, AnalysisResult result, IReadOnlyList<Table> tables)
    {
        console.Write(new Rule($"[bold]{Markup.Escape(result.TracePath)}[/]").LeftJustified());
        if (result.Error is not null) console.MarkupLine($"[red]error:[/] {Markup.Escape(result.Error)}");
        foreach (var sentence in FindingsText.Sentences(result, tables)) console.WriteLine(sentence);
        foreach (var table in tables)
        {
            console.WriteLine();
            console.MarkupLine($"[bold]{Markup.Escape(table.Spec.Name)}[/] [grey]({CellFormatter.RowCount(table.RowCount)})[/]");
            foreach (var note in table.Notes) console.MarkupLine($"[yellow]note:[/] {Markup.Escape(note.Text)}");
            if (table.RowCount == 0) continue;
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
                continue;
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
}
