namespace HiddenCost.Etl.Header;

/// <summary>
/// TRACE_LOGFILE_HEADER (the payload of the first event, EventTrace group 0 type 0), every field, plus the
/// raw timestamp of that event, which is the zero of "nanoseconds since trace start".
/// </summary>
public sealed record TraceHeader
{
    public uint BufferSize { get; init; }
    public byte OsMajorVersion { get; init; }
    public byte OsMinorVersion { get; init; }
    public byte SubVersion { get; init; }
    public byte SubMinorVersion { get; init; }
    /// <summary>ProviderVersion: the OS build number (9200, 18362, 26100…).</summary>
    public uint Build { get; init; }
    public uint NumberOfProcessors { get; init; }
    public DateTime? EndTimeUtc { get; init; }
    public uint TimerResolution { get; init; }
    public uint MaximumFileSizeMB { get; init; }
    public uint LogFileMode { get; init; }
    public uint BuffersWritten { get; init; }
    public uint StartBuffers { get; init; }
    public uint PointerSize { get; init; }
    public uint EventsLost { get; init; }
    public uint CpuSpeedMHz { get; init; }
    public int TimeZoneBiasMinutes { get; init; }
    /// <summary>TIME_ZONE_INFORMATION.StandardName, often an MUI reference such as <c>@tzres.dll,-212</c>.</summary>
    public string TimeZoneStandardName { get; init; } = "";
    public string TimeZoneDaylightName { get; init; } = "";
    public DateTime? BootTimeUtc { get; init; }
    public long PerfFrequency { get; init; }
    public DateTime StartTimeUtc { get; init; }
    public ClockType ClockType { get; init; }
    public uint BuffersLost { get; init; }
    public string LoggerName { get; init; } = "";
    public string LogFileName { get; init; } = "";

    /// <summary>Raw clock value of the header event: time zero of the trace.</summary>
    public long StartTimestamp { get; init; }

    /// <summary>Clock ticks per second used to turn raw timestamps into nanoseconds.</summary>
    public long TicksPerSecond { get; init; }

    /// <summary>EVENT_TRACE_COMPRESSED_MODE (0x04000000): buffers are XPRESS-compressed.</summary>
    public bool IsCompressedMode => (LogFileMode & 0x0400_0000) != 0;

    public string OsVersion => $"{OsMajorVersion}.{OsMinorVersion}.{Build}";
}
