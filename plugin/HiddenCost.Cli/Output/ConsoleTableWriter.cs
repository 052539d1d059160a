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
        foreach (var table in tables)
        {
            console.WriteLine();
            console.MarkupLine($"[bold]{Markup.Escape(table.Spec.Name)}[/] [grey]({table.Rows.Count} rows)[/]");
            foreach (var note in table.Notes) console.MarkupLine($"[yellow]note:[/] {Markup.Escape(note)}");
            if (table.Rows.Count == 0) continue;
            var grid = new Spectre.Console.Table().Border(TableBorder.Rounded);
            var columns = table.Spec.Columns;
            if (table.Rows.Count == 1)
            {
                grid.AddColumn("Field").AddColumn("Value");
                for (int i = 0; i < columns.Count; i++)
                    grid.AddRow(Markup.Escape(columns[i].Name), Markup.Escape(CellFormatter.Text(columns[i], table.Rows[0][i])));
            }
            else
            {
                foreach (var c in columns)
                {
                    var col = new TableColumn(Markup.Escape(c.Name));
                    if (CellFormatter.IsNumeric(c)) col.RightAligned();
                    grid.AddColumn(col);
                }
                foreach (var row in table.Rows)
                    grid.AddRow(row.Select((v, i) => Markup.Escape(CellFormatter.Text(columns[i], v))).ToArray());
            }
            console.Write(grid);
        }
    }
}
