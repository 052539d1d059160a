namespace HiddenCost.Analysis.Tables.SyscallHook;

/// <summary>One row of Syscall Hook Overhead: one syscall routine of one process, with one culprit module (or none).</summary>
public sealed record SyscallHookOverheadRow
{
    /// <summary>Culprit Module.</summary>
    public required string? CulpritModule { get; init; }

    /// <summary>Vendor.</summary>
    public required string? Vendor { get; init; }

    /// <summary>Product.</summary>
    public required string? Product { get; init; }

    /// <summary>Category.</summary>
    public required string? Category { get; init; }

    /// <summary>Process.</summary>
    public required string Process { get; init; }

    /// <summary>PID.</summary>
    public required long? Pid { get; init; }

    /// <summary>Syscall.</summary>
    public required string Syscall { get; init; }

    /// <summary>Syscalls.</summary>
    public required long Syscalls { get; init; }

    /// <summary>Syscalls per Second.</summary>
    public required double? SyscallsPerSecond { get; init; }

    /// <summary>Total Syscall Time (ms).</summary>
    public required double? TotalSyscallTimeMs { get; init; }

    /// <summary>Mean Syscall Time (µs).</summary>
    public required double? MeanSyscallTimeUs { get; init; }

    /// <summary>Samples in Syscalls.</summary>
    public required long SamplesInSyscalls { get; init; }

    /// <summary>Hook CPU (ms).</summary>
    public required double? HookCpuMs { get; init; }

    /// <summary>Hook Overhead per Syscall (µs).</summary>
    public required double? HookOverheadPerSyscallUs { get; init; }

    /// <summary>Inflation (×).</summary>
    public required double? Inflation { get; init; }

    /// <summary>First (ns since trace start).</summary>
    public required long First { get; init; }

    /// <summary>Last (ns since trace start).</summary>
    public required long Last { get; init; }
}
