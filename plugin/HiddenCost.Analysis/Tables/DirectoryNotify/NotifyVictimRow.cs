namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>One row of Directory Notify Victims: one process that changed files in one watched directory.</summary>
public sealed record NotifyVictimRow
{
    /// <summary>Process.</summary>
    public required string Process { get; init; }

    /// <summary>PID.</summary>
    public required long? Pid { get; init; }

    /// <summary>Directory.</summary>
    public required string Directory { get; init; }

    /// <summary>File Operations.</summary>
    public required long FileOperations { get; init; }

    /// <summary>Creates.</summary>
    public required long Creates { get; init; }

    /// <summary>Deletes.</summary>
    public required long Deletes { get; init; }

    /// <summary>Renames.</summary>
    public required long Renames { get; init; }

    /// <summary>Demand-Zero Faults.</summary>
    public required long DemandZeroFaults { get; init; }

    /// <summary>Watchers.</summary>
    public required long Watchers { get; init; }

    /// <summary>Notify CPU (ms).</summary>
    public required double? NotifyCpuMs { get; init; }
}
