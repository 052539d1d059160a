namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>One row of Directory Notify Buffers: one watcher (process, directory, buffer size).</summary>
public sealed record NotifyBufferRow
{
    /// <summary>Process.</summary>
    public required string Process { get; init; }

    /// <summary>PID.</summary>
    public required long? Pid { get; init; }

    /// <summary>Directory.</summary>
    public required string Directory { get; init; }

    /// <summary>Buffer (bytes).</summary>
    public required long BufferBytes { get; init; }

    /// <summary>Arms.</summary>
    public required long Arms { get; init; }

    /// <summary>Completions.</summary>
    public required long Completions { get; init; }

    /// <summary>Overflows.</summary>
    public required long Overflows { get; init; }

    /// <summary>Bytes Returned.</summary>
    public required long BytesReturned { get; init; }

    /// <summary>Mean Bytes per Completion.</summary>
    public required double? MeanBytesPerCompletion { get; init; }

    /// <summary>Utilisation (%).</summary>
    public required double? UtilisationPercent { get; init; }

    /// <summary>Bytes Zeroed.</summary>
    public required long BytesZeroed { get; init; }

    /// <summary>Victim Processes.</summary>
    public required string VictimProcesses { get; init; }

    /// <summary>Recommended Buffer (bytes).</summary>
    public required long? RecommendedBufferBytes { get; init; }

    /// <summary>First Arm (ns since trace start).</summary>
    public required long FirstArm { get; init; }

    /// <summary>Last Completion (ns since trace start).</summary>
    public required long? LastCompletion { get; init; }

    /// <summary>Watch End (ns since trace start).</summary>
    public required long WatchEnd { get; init; }
}
