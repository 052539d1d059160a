namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>
/// One row of Spin-Wait by Process. Its members are the columns of <see cref="SpinWaitTables"/>, in order; rows are
/// built with named arguments, so no two figures can swap places unseen.
/// </summary>
public sealed record SpinWaitProcessRow(
    string Process, long? Pid, long Threads, double LockSpinCpuMs, long Yields, double? YieldsPerSecond, long DelaySwitches,
    double OpenMPRuntimeCpuMs, string? Hint);
