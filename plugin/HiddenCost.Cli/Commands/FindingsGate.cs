using HiddenCost.Analysis;
using HiddenCost.Analysis.Tables.Findings;

namespace HiddenCost.Cli.Commands;

/// <summary>`--fail-on` for an analysed trace: whether its Findings table holds a finding at the severity or above.</summary>
public static class FindingsGate
{
    public static bool Trips(AnalysisResult result, Severity floor) =>
        result.Tables.FirstOrDefault(t => t.Spec.Id == FindingsTable.Spec.Id) is { } table
        && FindingsTable.Read(table).Any(r => SeverityNames.TryParse(r.Severity, out var s) && SeverityNames.AtLeast(s, floor));
}
