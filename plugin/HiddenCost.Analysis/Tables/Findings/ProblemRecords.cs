namespace HiddenCost.Analysis.Tables.Findings;

// The figures Findings reads from the problem tables, one small record per row kind. ProblemFigures.cs fills them;
// every rule reads these records only, never a table's rows.

/// <summary>A Trace Readiness row: whether the trace holds what a problem table needs.</summary>
/// <param name="MissingRequired">Required event kinds absent (optional ones, bracketed in the table, left out).</param>
public sealed record ReadinessFigures(string Table, bool Ready, IReadOnlyList<string> MissingRequired, string? RecordWith);

/// <summary>A Syscall Hook Overhead row (culprit module × process × syscall).</summary>
public sealed record SyscallHookFigures(
    string CulpritModule, string Vendor, string Product, string Category, string Process, long? Pid, string Syscall,
    long Syscalls, long SamplesInSyscalls, double HookCpuMs, double? OverheadPerSyscallUs, double? Inflation, long? FirstNs, long? LastNs);

/// <summary>A Spin-Wait Cost per Lock row.</summary>
public sealed record SpinLockFigures(
    string Process, long? Pid, long? LockId, string CallSite, long Contentions, long Threads, double WaitMs,
    double WastedSpinMs, double SpinMs, long? FirstNs, long? LastNs);

/// <summary>A Spin-Wait by Process row that carries the OpenMP hint (its runtime module named in it).</summary>
public sealed record OpenMpFigures(string Process, long? Pid, string Module, double OpenMpCpuMs, double? SharePercent, string Hint);

/// <summary>A Directory Notify Buffers row.</summary>
public sealed record NotifyWatcherFigures(
    string Process, long? Pid, string Directory, long BufferBytes, long Completions, long Overflows, double? MeanBytesPerCompletion,
    long BytesZeroed, string Victims, long? RecommendedBufferBytes, long? FirstArmNs, long? WatchEndNs);

/// <summary>An Event Log Render Cost row.</summary>
public sealed record EventLogClientFigures(
    string Process, long? Pid, string? OnBehalfOf, string Log, long Renders, double ServiceCpuMs, double? CpuPerMessageMs,
    double? RegistryOpsPerMessage, string? WmiQuery, long? FirstNs, long? LastNs);

/// <summary>Everything Findings reads from one trace's tables.</summary>
public sealed record ProblemFigureSet(
    IReadOnlyList<ReadinessFigures> Readiness,
    IReadOnlyList<SyscallHookFigures> SyscallHooks,
    IReadOnlyList<SpinLockFigures> SpinLocks,
    IReadOnlyList<OpenMpFigures> OpenMp,
    IReadOnlyList<NotifyWatcherFigures> NotifyWatchers,
    IReadOnlyList<EventLogClientFigures> EventLogClients);
