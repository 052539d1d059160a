using System.Buffers.Binary;
using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Header;

/// <summary>
/// Decodes TRACE_LOGFILE_HEADER. Layout (evntrace.h; verified on the public samples): pointer-sized
/// LoggerName/LogFileName, then TIME_ZONE_INFORMATION (172 bytes), then BootTime, PerfFreq, StartTime,
/// ReservedFlags (clock type), BuffersLost, padded so the 64-bit integers are 8-aligned; then the session and
/// file names as UTF-16 strings.
/// </summary>
internal static class TraceHeaderParser
{
    private const int TimeZoneSize = 172;

    /// <returns>The header, or null with a reason when the payload is too short.</returns>
    public static TraceHeader? Parse(ReadOnlySpan<byte> p, int pointerSize, long recordTimestamp, out string? error)
    {
        error = null;
        int tz = 56 + 2 * pointerSize;
        int tail = Align8(tz + TimeZoneSize);
        if (p.Length < tail + 32)
        {
            error = $"trace header payload is {p.Length} bytes, at least {tail + 32} expected";
            return null;
        }
        uint version = BinaryPrimitives.ReadUInt32LittleEndian(p[4..]);
        var clock = (ClockType)BinaryPrimitives.ReadUInt32LittleEndian(p[(tail + 24)..]);
        long perfFreq = BinaryPrimitives.ReadInt64LittleEndian(p[(tail + 8)..]);
        uint cpuMHz = BinaryPrimitives.ReadUInt32LittleEndian(p[52..]);
        long ticksPerSecond = clock switch
        {
            ClockType.SystemTime => 10_000_000,
            ClockType.CpuCycleCounter => cpuMHz * 1_000_000L,
            _ => perfFreq,
        };
        int strings = tail + 32;
        var loggerName = PayloadReader.ReadUtf16String(p, ref strings);
        var logFileName = PayloadReader.ReadUtf16String(p, ref strings);
        // TIME_ZONE_INFORMATION: i32 Bias; WCHAR StandardName[32]; SYSTEMTIME StandardDate; i32 StandardBias;
        // WCHAR DaylightName[32]; ... Each name is a fixed 64-byte field, read within it.
        var tzName = FixedUtf16(p.Slice(tz + 4, 64));
        var tzDaylightName = FixedUtf16(p.Slice(tz + 88, 64));

        return new TraceHeader
        {
            BufferSize = BinaryPrimitives.ReadUInt32LittleEndian(p),
            OsMajorVersion = (byte)version,
            OsMinorVersion = (byte)(version >> 8),
            SubVersion = (byte)(version >> 16),
            SubMinorVersion = (byte)(version >> 24),
            Build = BinaryPrimitives.ReadUInt32LittleEndian(p[8..]),
            NumberOfProcessors = BinaryPrimitives.ReadUInt32LittleEndian(p[12..]),
            EndTimeUtc = FromFileTime(BinaryPrimitives.ReadInt64LittleEndian(p[16..])),
            TimerResolution = BinaryPrimitives.ReadUInt32LittleEndian(p[24..]),
            MaximumFileSizeMB = BinaryPrimitives.ReadUInt32LittleEndian(p[28..]),
            LogFileMode = BinaryPrimitives.ReadUInt32LittleEndian(p[32..]),
            BuffersWritten = BinaryPrimitives.ReadUInt32LittleEndian(p[36..]),
            StartBuffers = BinaryPrimitives.ReadUInt32LittleEndian(p[40..]),
            PointerSize = BinaryPrimitives.ReadUInt32LittleEndian(p[44..]),
            EventsLost = BinaryPrimitives.ReadUInt32LittleEndian(p[48..]),
            CpuSpeedMHz = cpuMHz,
            TimeZoneBiasMinutes = BinaryPrimitives.ReadInt32LittleEndian(p[tz..]),
            TimeZoneStandardName = tzName,
            TimeZoneDaylightName = tzDaylightName,
            BootTimeUtc = FromFileTime(BinaryPrimitives.ReadInt64LittleEndian(p[tail..])),
            PerfFrequency = perfFreq,
            StartTimeUtc = FromFileTime(BinaryPrimitives.ReadInt64LittleEndian(p[(tail + 16)..])) ?? DateTime.MinValue,
            ClockType = clock,
            BuffersLost = BinaryPrimitives.ReadUInt32LittleEndian(p[(tail + 28)..]),
            LoggerName = loggerName,
            LogFileName = logFileName,
            StartTimestamp = recordTimestamp,
            TicksPerSecond = ticksPerSecond,
        };
    }

    /// <summary>
    /// Why a parsed header cannot be a real one, or null: every figure is scaled by its timer frequency and decoded
    /// with its pointer size, so a damaged header would otherwise make every table wrong without a word (a fuzzed
    /// frequency of 1 Hz turned a 4.6 s trace into 29 days). Bounds are far outside what ETW writes: pointers of 4
    /// or 8 bytes, 1 to 2,048 processors (the buffer's processor index has 11 bits), clock types 0 to 3. A timer rate
    /// outside real clocks' is damage the trace is read despite (<see cref="HeaderTimeRules"/>).
    /// </summary>
    public static string? Implausible(TraceHeader h)
    {
        if (h.PointerSize is not (4 or 8)) return $"pointer size {h.PointerSize}";
        if (h.NumberOfProcessors is 0 or > 2048) return $"{h.NumberOfProcessors} processors";
        if ((uint)h.ClockType > 3) return $"clock type {(uint)h.ClockType}";
        return null;
    }

    private static string FixedUtf16(ReadOnlySpan<byte> field)
    {
        int start = 0;
        return PayloadReader.ReadUtf16String(field, ref start);
    }

    private static int Align8(int x) => (x + 7) & ~7;

    private static DateTime? FromFileTime(long fileTime) =>
        fileTime > 0 && fileTime < DateTime.MaxValue.ToFileTimeUtc() ? DateTime.FromFileTimeUtc(fileTime) : null;
}
