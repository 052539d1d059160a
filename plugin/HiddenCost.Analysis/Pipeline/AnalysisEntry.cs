using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Pipeline;

/// <summary>
/// One analysis as the catalog lists it: how to make it for a pass, and what of the shared session it reads, so a pass
/// asked for some tables runs only the analyses that make them, over a session that builds only what those read.
/// </summary>
public sealed class AnalysisEntry
{
    private readonly Func<TraceSession, ITraceAnalysis> _create;

    public AnalysisEntry(SessionNeeds needs, Func<TraceSession, ITraceAnalysis> create)
    {
        Needs = needs;
        _create = create;
        // Its tables are known without a trace: the analysis says them once made.
        Tables = create(new TraceSession()).Tables;
    }

    public SessionNeeds Needs { get; }

    /// <summary>
    /// The tables this analysis reads from the others at the end (<see cref="ITableReadingAnalysis"/>): a pass that makes
    /// it runs the analyses that make those too, and drops their tables unless they were asked for.
    /// </summary>
    public IReadOnlyList<Guid> ReadsTables { get; init; } = [];

    /// <summary>The tables this analysis makes, in order.</summary>
    public IReadOnlyList<TableSpec> Tables { get; }

    public ITraceAnalysis Create(TraceSession session) => _create(session);

    /// <summary>Whether it makes any of the tables <paramref name="tableIds"/> names.</summary>
    public bool Makes(IReadOnlySet<Guid> tableIds) => Tables.Any(t => tableIds.Contains(t.Id));
}
