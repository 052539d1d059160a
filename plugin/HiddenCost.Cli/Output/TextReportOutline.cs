using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;

namespace HiddenCost.Cli.Output;

/// <summary>
/// The order both text reports follow, so the terminal and the plain-text output cannot drift apart: the trace's
/// heading, its error, the findings sentences, then per table a blank line, its heading with the row count, its notes
/// and its rows. A writer says only how each piece looks.
/// </summary>
internal abstract class TextReportOutline
{
    public void Write(AnalysisResult result, IReadOnlyList<Table> tables)
    {
        TraceHeading(result.TracePath);
        if (result.Error is not null) Error(result.Error);
        foreach (var sentence in FindingsText.Sentences(result, tables)) Line(sentence);
        foreach (var table in tables)
        {
            BlankLine();
            TableHeading(table.Spec.Name, CellFormatter.RowCount(table.RowCount));
            foreach (var note in table.Notes) Note(note.Text);
            if (table.RowCount > 0) Rows(table);
        }
    }

    protected abstract void TraceHeading(string tracePath);
    protected abstract void Error(string message);
    protected abstract void Line(string text);
    protected abstract void BlankLine();
    protected abstract void TableHeading(string name, string rowCount);
    protected abstract void Note(string text);
    /// <summary>The table's rows; called only when it has some.</summary>
    protected abstract void Rows(Table table);
}
