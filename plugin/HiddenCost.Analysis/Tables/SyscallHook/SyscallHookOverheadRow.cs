namespace HiddenCost.Analysis.Tables.SyscallHook;

/// <summary>
/// One row of Syscall Hook Overhead: one syscall routine of one process, with one culprit module (or none). Its members
/// are the columns of <see cref="SyscallHookTables"/>, in order; rows are built with named arguments, so no two figures
/// can swap places unseen.
/// </summary>
public sealed record SyscallHookOverheadRow(
    string? CulpritModule, string? Vendor, string? Product, string? Category, string Process, long? Pid, string Syscall,
    long Syscalls, double? SyscallsPerSecond, double? TotalSyscallTimeMs, double? MeanSyscallTimeUs, long SamplesInSyscalls,
    double? HookCpuMs, double? HookOverheadPerSyscallUs, double? Inflation, long First, long Last, string? TopStack);
