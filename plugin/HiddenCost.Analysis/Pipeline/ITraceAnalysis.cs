using HiddenCost.Analysis.Model;
using HiddenCost.Etl;

namespace HiddenCost.Analysis.Pipeline;

/// <summary>
/// One analysis in the single pass over a trace: it sees every event in timestamp order, keeps what it
/// needs, and builds its tables at the end. Implementations filter cheaply on Group/Opcode or ProviderId.
/// </summary>
public interface ITraceAnalysis
{
    /// <summary>The tables this analysis produces, known before any trace is read.</summary>
    IReadOnlyList<TableSpec> Tables { get; }

    void OnEvent(in EtwEvent e);

    /// <summary>Builds one table per entry of <see cref="Tables"/>, in that order.</summary>
    IReadOnlyList<Table> Complete(AnalysisContext context);
}
