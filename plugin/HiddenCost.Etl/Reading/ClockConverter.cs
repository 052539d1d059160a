namespace HiddenCost.Etl.Reading;

/// <summary>Raw clock ticks → nanoseconds since trace start, exact in integer arithmetic.</summary>
internal readonly struct ClockConverter
{
    private readonly long _start;
    private readonly long _ticksPerSecond;
    private readonly long _nsPerTick; // > 0 when the clock divides a second evenly (the usual 10 MHz QPC)

    public ClockConverter(long startTimestamp, long ticksPerSecond)
    {
        _start = startTimestamp;
        _ticksPerSecond = ticksPerSecond > 0 ? ticksPerSecond : 10_000_000;
        _nsPerTick = 1_000_000_000 % _ticksPerSecond == 0 ? 1_000_000_000 / _ticksPerSecond : 0;
    }

    public long ToNanoseconds(long timestamp)
    {
        long delta = timestamp - _start;
        if (_nsPerTick > 0) return delta * _nsPerTick;
        long whole = delta / _ticksPerSecond;
        long rest = delta % _ticksPerSecond;
        return whole * 1_000_000_000 + rest * 1_000_000_000 / _ticksPerSecond;
    }

    /// <summary>Nanoseconds since trace start → raw ticks (used by writers and tests).</summary>
    public long ToTimestamp(long nanoseconds) =>
        _start + (long)((Int128)nanoseconds * _ticksPerSecond / 1_000_000_000);
}
