namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>One row of Spin-Wait Cost per Lock: one lock (or call site) of one process.</summary>
public sealed record SpinWaitLockRow
{
    /// <summary>Process.</summary>
    public required string Process { get; init; }

    /// <summary>PID.</summary>
    public required long? Pid { get; init; }

    /// <summary>Lock ID.</summary>
    public required long? LockId { get; init; }

    /// <summary>Object.</summary>
    public required long? Object { get; init; }

    /// <summary>Call Site.</summary>
    public required string? CallSite { get; init; }

    /// <summary>Contentions.</summary>
    public required long Contentions { get; init; }

    /// <summary>Threads.</summary>
    public required long Threads { get; init; }

    /// <summary>Wait (ms).</summary>
    public required double WaitMs { get; init; }

    /// <summary>Wasted Spin CPU (ms).</summary>
    public required double WastedSpinCpuMs { get; init; }

    /// <summary>Successful Spin CPU (ms).</summary>
    public required double SuccessfulSpinCpuMs { get; init; }

    /// <summary>Spin CPU (ms).</summary>
    public required double SpinCpuMs { get; init; }

    /// <summary>Spin Share (%).</summary>
    public required double? SpinSharePercent { get; init; }

    /// <summary>Longest Spin (ms).</summary>
    public required double LongestSpinMs { get; init; }

    /// <summary>First (ns since trace start).</summary>
    public required long First { get; init; }

    /// <summary>Last (ns since trace start).</summary>
    public required long Last { get; init; }
}
