namespace HiddenCost.Synthetic.Etl;

/// <summary>
/// The TRACE_LOGFILE_HEADER payload of the first event of the file (Group 0, Type 0, SYSTEM header, version 2).
/// Layout (etl-format-and-traceprocessing.md §2.3, cross-checked against the 64-bit samples' headers):
/// u32 BufferSize; u32 Version (u8 major, u8 minor, u8 sub, u8 subminor); u32 ProviderVersion (build);
/// u32 NumberOfProcessors; i64 EndTime (FILETIME); u32 TimerResolution; u32 MaximumFileSize; u32 LogFileMode;
/// u32 BuffersWritten; u32 StartBuffers; u32 PointerSize; u32 EventsLost; u32 CpuSpeedInMHz;
/// ptr LoggerName; ptr LogFileName; TIME_ZONE_INFORMATION (172 bytes); padding to 8; i64 BootTime;
/// i64 PerfFreq; i64 StartTime (FILETIME); u32 ReservedFlags (clock type: 1 = QPC); u32 BuffersLost;
/// UTF-16 logger name; UTF-16 log file name.
/// </summary>
internal static class LogfileHeader
{
    /// <summary>EVENT_TRACE_FILE_MODE_SEQUENTIAL | 0x10000, as in the merged WPR sample (LogFileMode 0x10001).</summary>
    public const uint MergedLogFileMode = 0x0001_0001;

    /// <summary>EVENT_TRACE_COMPRESSED_MODE, set with compressed buffers (PerfView samples: 0x4010001).</summary>
    public const uint CompressedMode = 0x0400_0000;

    /// <summary>15.625 ms in 100 ns units: the value of every sample.</summary>
    private const uint TimerResolution = 156_250;

    /// <summary>Log format 1.5 after the OS version bytes, as Windows 10 and 11 write (Version 0x0501000A).</summary>
    private const byte FormatSubVersion = 1;
    private const byte FormatSubMinorVersion = 5;

    public static byte[] Build(EtlTraceSettings s, long endQpc, int buffersWritten)
    {
        var p = new PayloadBuilder(s.PointerSize);
        p.U32((uint)s.BufferSize);
        p.U32((uint)(s.OsMajorVersion | (s.OsMinorVersion << 8) | (FormatSubVersion << 16) | (FormatSubMinorVersion << 24)));
        p.U32((uint)s.Build);
        p.U32((uint)s.NumberOfProcessors);
        p.I64(TraceClock.ToFileTime(s, endQpc));
        p.U32(TimerResolution);
        p.U32(0); // MaximumFileSize: unlimited
        p.U32(MergedLogFileMode | (s.Compress ? CompressedMode : 0));
        p.U32((uint)buffersWritten);
        p.U32(1); // StartBuffers
        p.U32((uint)s.PointerSize);
        p.U32(0); // EventsLost
        p.U32((uint)s.CpuSpeedMHz);
        p.Pointer(0); // LoggerName (a user-mode pointer; relogged files hold 0)
        p.Pointer(0); // LogFileName
        WriteUtcTimeZone(p);
        while (p.Length % 8 != 0) p.U8(0); // the header payload starts 8-aligned, so this aligns BootTime
        p.I64(s.StartTimeUtc.ToFileTimeUtc() - s.Uptime.Ticks);
        p.I64(s.PerfFrequency);
        p.I64(s.StartTimeUtc.ToFileTimeUtc());
        p.U32(1); // ReservedFlags = clock type 1: QPC
        p.U32(0); // BuffersLost
        p.WString(s.LoggerName);
        p.WString(s.LogFileName);
        return p.ToArray();
    }

    /// <summary>TIME_ZONE_INFORMATION for UTC: bias 0, names "UTC", no daylight rules (172 bytes).</summary>
    private static void WriteUtcTimeZone(PayloadBuilder p)
    {
        p.I32(0); // Bias
        WriteFixedName(p, "UTC");
        p.Bytes(new byte[16]); // StandardDate (SYSTEMTIME)
        p.I32(0); // StandardBias
        WriteFixedName(p, "UTC");
        p.Bytes(new byte[16]); // DaylightDate
        p.I32(0); // DaylightBias
    }

    private static void WriteFixedName(PayloadBuilder p, string name)
    {
        var chars = new byte[64]; // WCHAR[32]
        System.Text.Encoding.Unicode.GetBytes(name).CopyTo(chars, 0);
        p.Bytes(chars);
    }
}
