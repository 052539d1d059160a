namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>
/// One row of Spin-Wait Cost per Lock: one lock (or call site) of one process. Its members are the columns of <see
/// cref="SpinWaitTables"/>, in order; rows are built with named arguments, so no two figures can swap places unseen.
/// </summary>
public sealed record SpinWaitLockRow(
    string Process, long? Pid, long? LockId, long? Object, string? CallSite, long Contentions, long Threads, double WaitMs,
    double WastedSpinCpuMs, double SuccessfulSpinCpuMs, double SpinCpuMs, double? SpinSharePercent, double LongestSpinMs,
    long First, long Last);
