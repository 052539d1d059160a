using HiddenCost.Etl.Header;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// The raw timestamps a recorder can have written into a trace: its header's start to its header's end, widened on
/// both sides by the header's span plus one minute. Real recorders write outside start..end, but not far: merged and
/// relogged traces carry rundown events after the end (net.4.5.2.x64.etl: last event 12.58 s after a start whose
/// header spans 10.07 s, 2.5 s late; net.4.5.2.x86.etl: 1.9 s late; SelfDescribingSingleEvent.etl: 13 ms late), and no
/// shared or synthetic trace has an event before its start. A damaged timestamp lies far outside (a change in its four
/// high bytes moves an event by 7 minutes to millennia at 10 MHz), and left in, one such event gives a trace a start of −194 s or a
/// duration of 208 years. With no usable span in the header (no end time, an end before the start, a damaged start)
/// the window is one minute before the start to a year after it: no recording goes on longer without being stopped.
/// </summary>
internal readonly record struct TimeWindow(long FirstTick, long LastTick, long StartTick, long TicksPerSecond)
{
    /// <summary>The fixed part of the margin on each side (the other part is the header's span).</summary>
    public static readonly TimeSpan Allowance = TimeSpan.FromMinutes(1);

    /// <summary>How far after the start events may lie when the header gives no span.</summary>
    public static readonly TimeSpan UnknownSpanLimit = TimeSpan.FromDays(366);

    /// <summary>Every timestamp (the trace header's own record, read before the window is known).</summary>
    public static readonly TimeWindow All = new(long.MinValue, long.MaxValue, 0, 10_000_000);

    public bool Contains(long timestamp) => timestamp >= FirstTick && timestamp <= LastTick;

    /// <param name="span">The header's end minus its start, or null when it does not give one.</param>
    public static TimeWindow For(TraceHeader header, TimeSpan? span)
    {
        long tps = header.TicksPerSecond;
        Int128 before = Ticks(Allowance + (span ?? TimeSpan.Zero), tps);
        Int128 after = span is { } s ? Ticks(s + s + Allowance, tps) : Ticks(UnknownSpanLimit, tps);
        long start = header.StartTimestamp;
        return new TimeWindow(Clamp(start - before), Clamp(start + after), start, tps);
    }

    /// <summary>A timestamp as seconds from the trace's start, for warnings.</summary>
    public string SecondsFromStart(long timestamp) =>
        $"{(double)((Int128)timestamp - StartTick) / TicksPerSecond:0.###} s";

    private static Int128 Ticks(TimeSpan time, long ticksPerSecond) => (Int128)time.Ticks * ticksPerSecond / TimeSpan.TicksPerSecond;

    private static long Clamp(Int128 ticks) => ticks > long.MaxValue ? long.MaxValue : ticks < long.MinValue ? long.MinValue : (long)ticks;
}
