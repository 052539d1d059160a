using HiddenCost.Analysis;
using HiddenCost.Analysis.Tables.TraceReadiness;
using HiddenCost.Cli.Output;
using Spectre.Console;
using NoteSeverity = HiddenCost.Analysis.Model.NoteSeverity;
using Table = HiddenCost.Analysis.Model.Table;
using TableNote = HiddenCost.Analysis.Model.TableNote;
using TraceNoteCodes = HiddenCost.Analysis.Model.TraceNoteCodes;

namespace HiddenCost.Cli.Tests;

/// <summary>The terminal and plain-text reports follow one outline: the same pieces in the same order, each in its own look.</summary>
[TestClass]
public sealed class TextReportOutlineTests
{
    private const string Error = "bad.etl: offset 0x0: not an ETL file";

    private static (AnalysisResult Result, IReadOnlyList<Table> Tables) UnreadableTrace()
    {
        var table = TraceReadinessAnalysis.Definition.Empty();
        table.AddNote(new TableNote(NoteSeverity.Error, TraceNoteCodes.Unreadable, Error));
        return (new AnalysisResult("bad.etl", [table], Error), [table]);
    }

    [TestMethod]
    public void Plain_text_prints_the_trace_heading_the_error_then_each_table_heading_with_its_row_count_and_notes()
    {
        var (result, tables) = UnreadableTrace();
        var output = new StringWriter();
        PlainTextWriter.Write(output, result, tables);
        CollectionAssert.AreEqual(
            new[] { "# bad.etl", $"error: {Error}", "", "## Trace Readiness (0 rows)", $"note: {Error}", "" },
            output.ToString().Split(Environment.NewLine));
    }

    [TestMethod]
    public void Terminal_prints_the_same_pieces_in_the_same_order_under_a_rule_naming_the_trace()
    {
        var (result, tables) = UnreadableTrace();
        var output = new StringWriter();
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No, ColorSystem = ColorSystemSupport.NoColors, Out = new AnsiConsoleOutput(output),
        });
        ConsoleTableWriter.Write(console, result, tables);
        var lines = output.ToString().Split('\n').Select(l => l.TrimEnd('\r', ' ')).ToArray();
        StringAssert.Contains(lines[0], "bad.etl");
        CollectionAssert.AreEqual(
            new[] { $"error: {Error}", "", "Trace Readiness (0 rows)", $"note: {Error}", "" },
            lines[1..]);
    }
}
