namespace HiddenCost.Analysis.Tables.TraceInfo;

/// <summary>One row of Trace Info: the trace as its header and the reader saw it.</summary>
public sealed record TraceInfoRow
{
    /// <summary>OS Version.</summary>
    public required string OsVersion { get; init; }

    /// <summary>OS Build.</summary>
    public required long OsBuild { get; init; }

    /// <summary>Processors.</summary>
    public required long Processors { get; init; }

    /// <summary>Pointer Size.</summary>
    public required long PointerSize { get; init; }

    /// <summary>Clock Type.</summary>
    public required string ClockType { get; init; }

    /// <summary>CPU Speed (MHz).</summary>
    public required long CpuSpeedMHz { get; init; }

    /// <summary>Trace Start (UTC).</summary>
    public required string TraceStartUtc { get; init; }

    /// <summary>Start (ns since trace start).</summary>
    public required long Start { get; init; }

    /// <summary>End (ns since trace start).</summary>
    public required long End { get; init; }

    /// <summary>Duration (ns).</summary>
    public required long Duration { get; init; }

    /// <summary>Events.</summary>
    public required long Events { get; init; }

    /// <summary>Buffers.</summary>
    public required long Buffers { get; init; }

    /// <summary>Compressed Buffers.</summary>
    public required long CompressedBuffers { get; init; }

    /// <summary>Events Lost.</summary>
    public required long EventsLost { get; init; }

    /// <summary>Buffers Lost.</summary>
    public required long BuffersLost { get; init; }

    /// <summary>Buffers Flagged Events Lost.</summary>
    public required long BuffersFlaggedEventsLost { get; init; }

    /// <summary>Reader Warnings.</summary>
    public required long ReaderWarnings { get; init; }

    /// <summary>File Mode.</summary>
    public required string FileMode { get; init; }

    /// <summary>Session Name.</summary>
    public required string SessionName { get; init; }

    /// <summary>File Size (bytes).</summary>
    public required long FileSizeBytes { get; init; }
}
