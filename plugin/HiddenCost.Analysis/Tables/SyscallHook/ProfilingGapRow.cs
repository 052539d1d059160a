namespace HiddenCost.Analysis.Tables.SyscallHook;

/// <summary>One row of Profiling Gaps: one span without CPU samples.</summary>
public sealed record ProfilingGapRow
{
    /// <summary>Start (ns since trace start).</summary>
    public required long Start { get; init; }

    /// <summary>End (ns since trace start).</summary>
    public required long End { get; init; }

    /// <summary>Duration (ms).</summary>
    public required double DurationMs { get; init; }

    /// <summary>Events During Gap.</summary>
    public required long EventsDuringGap { get; init; }

    /// <summary>Likely Cause.</summary>
    public required string LikelyCause { get; init; }
}
