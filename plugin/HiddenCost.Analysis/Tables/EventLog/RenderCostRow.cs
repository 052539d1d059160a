namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>
/// One row of Event Log Render Cost: one client process (on behalf of whom) reading one log. Its members are the
/// columns of <see cref="EventLogTables"/>, in order; rows are built with named arguments, so no two figures can swap
/// places unseen.
/// </summary>
public sealed record RenderCostRow(
    string Process, long? Pid, string? OnBehalfOf, long? OnBehalfOfPid, string Log, long Renders, long Queries,
    double? ServiceCpuMs, double? CpuPerMessageMs, long? RegistryOps, double? RegistryOpsPerMessage, double? EvtxReadMb,
    double? MessagesPerSecond, string? WmiQuery, long First, long Last);
