using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Etl;

namespace HiddenCost.Analysis.Tables.Findings;

/// <summary>
/// Findings: a post-pass over the other analyses' tables (<see cref="ITableReadingAnalysis"/>). During the pass it only
/// keeps the sampled CPU over time, for the share column.
/// </summary>
public sealed class FindingsAnalysis(FindingThresholds? thresholds = null) : ITableReadingAnalysis
{
    private readonly FindingThresholds _thresholds = thresholds ?? FindingThresholds.Default;
    private readonly CpuTimeline _cpu = new();

    public IReadOnlyList<TableSpec> Tables { get; } = new[] { FindingsTable.Spec };

    public void OnEvent(in EtwEvent e) => _cpu.Observe(e);

    /// <summary>Without the other tables nothing can be checked: an empty table that says so.</summary>
    public IReadOnlyList<Table> Complete(AnalysisContext context)
    {
        var table = FindingsTable.Definition.Empty();
        table.AddNote(TableNote.Info("findings.no-problem-tables", "Findings are made from the problem tables, which were not built."));
        return [table];
    }

    public IReadOnlyList<Table> Complete(AnalysisContext context, IReadOnlyList<Table> built)
    {
        var assessed = FindingsEvaluator.Assess(ProblemFigures.From(built), _thresholds);
        var table = FindingsTable.Build(FindingsEvaluator.Rows(assessed), _cpu);
        if (!ReferenceEquals(_thresholds, FindingThresholds.Default)) table.AddNote(TableNote.Info("findings.thresholds-file", "Severities use a thresholds file (--thresholds), not HiddenCost's defaults."));
        return [table];
    }
}
