namespace HiddenCost.Synthetic.Etl;

/// <summary>Conversions between QPC ticks, trace-relative nanoseconds and FILETIME for a trace's settings.</summary>
public static class TraceClock
{
    /// <summary>FILETIME (100 ns since 1601) of a QPC timestamp: StartTime + (ts − StartQpc)·10^7 / PerfFreq.</summary>
    public static long ToFileTime(EtlTraceSettings s, long qpc) =>
        s.StartTimeUtc.ToFileTimeUtc() + (long)((Int128)(qpc - s.StartQpc) * 10_000_000 / s.PerfFrequency);

    /// <summary>Nanoseconds since the trace start (the header event's timestamp), as a reader reports them.</summary>
    public static long ToTraceNanoseconds(EtlTraceSettings s, long qpc) =>
        (long)((Int128)(qpc - s.StartQpc) * 1_000_000_000 / s.PerfFrequency);
}
