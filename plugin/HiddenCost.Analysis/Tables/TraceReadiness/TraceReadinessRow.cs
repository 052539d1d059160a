namespace HiddenCost.Analysis.Tables.TraceReadiness;

/// <summary>
/// One row of Trace Readiness: whether the trace holds what one problem table needs. Its members are the columns of
/// <see cref="TraceReadinessAnalysis"/>, in order; rows are built with named arguments, so no two figures can swap
/// places unseen.
/// </summary>
public sealed record TraceReadinessRow(
    string Table, bool Ready, string Present, string Missing, long CpuSamples, long Stacks, long EventsLost, long BuffersLost,
    string Profile, string RecordWith);
