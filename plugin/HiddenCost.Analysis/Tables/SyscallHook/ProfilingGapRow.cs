namespace HiddenCost.Analysis.Tables.SyscallHook;

/// <summary>
/// One row of Profiling Gaps: one span without CPU samples. Its members are the columns of <see
/// cref="SyscallHookTables"/>, in order; rows are built with named arguments, so no two figures can swap places unseen.
/// </summary>
public sealed record ProfilingGapRow(
    long Start, long End, double DurationMs, long EventsDuringGap, string LikelyCause);
