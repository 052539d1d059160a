namespace HiddenCost.Etl.Header;

/// <summary>
/// The trace header's clock and times checked against what a recorder writes. A value no recorder writes is damage:
/// the trace is still read (its events are whole), with a damage warning, and with the value replaced by one that
/// keeps every figure finite and says nothing it does not know.
/// </summary>
internal static class HeaderTimeRules
{
    /// <summary>
    /// The slowest clock ETW stamps events with: the 8254 timer, 1.193 MHz. Others: the ACPI power-management timer
    /// (3.58 MHz, Windows 8's QPC on many machines), HPET (14.3 MHz), QPC on Windows 10 and later (10 MHz), ARM's
    /// generic timer (19.2 to 54 MHz).
    /// </summary>
    public const long MinTicksPerSecond = 1_000_000;

    /// <summary>
    /// The fastest: the processor's cycle counter (QPC on older Windows when the TSC is invariant, and the
    /// CpuCycleCounter clock type), a few GHz; no processor has run at 10 GHz.
    /// </summary>
    public const long MaxTicksPerSecond = 10_000_000_000;

    /// <summary>The rate assumed when the header's is damaged: QPC's usual rate on Windows 10 and later (and every shared trace's).</summary>
    public const long FallbackTicksPerSecond = 10_000_000;

    /// <summary>
    /// The header with a damaged clock rate replaced, the damage found (one line each), and the span between the
    /// header's start and end times when it gives a usable one.
    /// </summary>
    public static TraceHeader Check(TraceHeader header, List<string> damage, out TimeSpan? span)
    {
        if (header.TicksPerSecond is < MinTicksPerSecond or > MaxTicksPerSecond)
        {
            damage.Add($"the trace header's clock runs at {header.TicksPerSecond:N0} Hz ({ClockSource(header)}), which no clock does " +
                       $"({MinTicksPerSecond / 1_000_000} MHz to {MaxTicksPerSecond / 1_000_000_000} GHz): times are read at " +
                       $"{FallbackTicksPerSecond / 1_000_000} MHz, QPC's usual rate on Windows 10 and later, and may be scaled wrong");
            header = header with { TicksPerSecond = FallbackTicksPerSecond };
        }
        span = null;
        if (header.StartTimeUtc == DateTime.MinValue)
        {
            damage.Add("the trace header's start time is 0 or not a time: Trace Start is left blank, and events are kept up to a year after the " +
                       "header's own timestamp");
            return header;
        }
        if (header.EndTimeUtc is { } end && end >= header.StartTimeUtc && end - header.StartTimeUtc <= Reading.TimeWindow.UnknownSpanLimit)
            span = end - header.StartTimeUtc;
        return header;
    }

    private static string ClockSource(TraceHeader h) => h.ClockType switch
    {
        ClockType.CpuCycleCounter => $"clock type CpuCycleCounter, CPU speed {h.CpuSpeedMHz} MHz",
        _ => $"clock type {h.ClockType}, PerfFreq {h.PerfFrequency}",
    };
}
