using HiddenCost.Analysis;
using HiddenCost.Analysis.Tables.Findings;
using Table = HiddenCost.Analysis.Model.Table;

namespace HiddenCost.Cli.Output;

/// <summary>
/// The sentences the text output opens with when Findings is among the tables shown: one per finding, then one line
/// for the problems that were not checked, or a line saying every checked problem is clean. Nothing for a trace that could
/// not be read: its error says why, and its empty table checked nothing.
/// </summary>
public static class FindingsText
{
    public static IReadOnlyList<string> Sentences(AnalysisResult result, IReadOnlyList<Table> tables)
    {
        if (result.Error is not null || tables.FirstOrDefault(t => t.Spec.Id == FindingsTable.Spec.Id) is not { } table) return [];
        var rows = FindingsTable.Read(table);
        var found = rows.Where(r => r.Severity != SeverityNames.NotChecked).Select(FindingSentence.For).ToList();
        var notChecked = rows.Where(r => r.Severity == SeverityNames.NotChecked).Select(r => r.Problem).ToArray();
        // A damaged trace was checked only as far as it could be read: the warning above says where.
        var read = result.Warning is null ? "" : " in what could be read";
        if (found.Count == 0) found.Add(notChecked.Length < 4 ? $"No finding: every problem checked is clean{read}." : "No finding, but no problem could be checked.");
        if (notChecked.Length > 0)
            found.Add($"Not checked (the trace lacks their events; Findings and Trace Readiness say which): {string.Join(", ", notChecked)}.");
        return found;
    }
}
