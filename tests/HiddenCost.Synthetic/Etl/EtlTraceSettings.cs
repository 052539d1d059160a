namespace HiddenCost.Synthetic.Etl;

/// <summary>
/// What the logfile header says about the trace and how the file is laid out.
/// Defaults describe a merged WPR-style trace of a 64-bit Windows 11 24H2 (build 26100) machine with a
/// 10 MHz QPC clock, as in the real samples under ../shared/etl-samples.
/// </summary>
public sealed record EtlTraceSettings
{
    /// <summary>4 or 8: selects the 32- or 64-bit TRACE_LOGFILE_HEADER layout and the header's record kind.</summary>
    public int PointerSize { get; init; } = 8;

    public int NumberOfProcessors { get; init; } = 4;

    /// <summary>Bytes per buffer (every data buffer has this size on disk unless compressed).</summary>
    public int BufferSize { get; init; } = 64 * 1024;

    /// <summary>XPRESS-compress data buffers (BufferFlag 0x40, LogFileMode 0x04000000), as relogged/merged files do.</summary>
    public bool Compress { get; init; }

    /// <summary>QPC frequency; 10 MHz on every modern Windows sample we hold.</summary>
    public long PerfFrequency { get; init; } = 10_000_000;

    /// <summary>QPC value at the start of the trace (the header event's timestamp).</summary>
    public long StartQpc { get; init; } = 1_000_000_000;

    /// <summary>Wall-clock time at <see cref="StartQpc"/>.</summary>
    public DateTime StartTimeUtc { get; init; } = new(2026, 1, 15, 9, 30, 0, DateTimeKind.Utc);

    /// <summary>How long the machine had been up at <see cref="StartQpc"/> (gives the header's BootTime).</summary>
    public TimeSpan Uptime { get; init; } = TimeSpan.FromHours(3);

    public int OsMajorVersion { get; init; } = 10;
    public int OsMinorVersion { get; init; }
    public int Build { get; init; } = 26100;
    public int CpuSpeedMHz { get; init; } = 3000;

    /// <summary>Session name written after the header (labels the trace as synthetic by default).</summary>
    public string LoggerName { get; init; } = "HiddenCost Synthetic Trace";
    public string LogFileName { get; init; } = "synthetic.etl";

    /// <summary>Thread and process that logged the header event (the trace controller).</summary>
    public uint HeaderThreadId { get; init; }
    public uint HeaderProcessId { get; init; }

    public void Validate()
    {
        if (PointerSize is not (4 or 8)) throw new ArgumentException($"PointerSize must be 4 or 8, not {PointerSize}");
        if (NumberOfProcessors is < 1 or > 2048) throw new ArgumentException($"NumberOfProcessors out of range: {NumberOfProcessors}");
        if (BufferSize < 1024 || BufferSize % 1024 != 0 || BufferSize > 16 * 1024 * 1024)
            throw new ArgumentException($"BufferSize must be a multiple of 1 KiB between 1 KiB and 16 MiB, not {BufferSize}");
        if (PerfFrequency <= 0) throw new ArgumentException("PerfFrequency must be positive");
        if (StartTimeUtc.Kind != DateTimeKind.Utc) throw new ArgumentException("StartTimeUtc must be UTC");
    }
}
