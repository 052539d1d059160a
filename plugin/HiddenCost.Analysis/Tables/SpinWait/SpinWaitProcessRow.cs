namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>One row of Spin-Wait by Process.</summary>
public sealed record SpinWaitProcessRow
{
    /// <summary>Process.</summary>
    public required string Process { get; init; }

    /// <summary>PID.</summary>
    public required long? Pid { get; init; }

    /// <summary>Threads.</summary>
    public required long Threads { get; init; }

    /// <summary>Lock Spin CPU (ms).</summary>
    public required double LockSpinCpuMs { get; init; }

    /// <summary>Yields.</summary>
    public required long Yields { get; init; }

    /// <summary>Yields per Second.</summary>
    public required double? YieldsPerSecond { get; init; }

    /// <summary>Delay Switches.</summary>
    public required long DelaySwitches { get; init; }

    /// <summary>OpenMP Runtime CPU (ms).</summary>
    public required double OpenMPRuntimeCpuMs { get; init; }

    /// <summary>Hint.</summary>
    public required string? Hint { get; init; }
}
