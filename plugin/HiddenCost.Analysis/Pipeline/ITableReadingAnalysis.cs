using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Pipeline;

/// <summary>
/// An analysis that builds its tables from the tables the other analyses built (Findings): the analyzer completes it
/// after every other analysis, whatever its place in the list, and passes it their tables.
/// </summary>
public interface ITableReadingAnalysis : ITraceAnalysis
{
    /// <param name="built">The tables of every analysis that does not read tables, in catalog order.</param>
    IReadOnlyList<Table> Complete(AnalysisContext context, IReadOnlyList<Table> built);
}
