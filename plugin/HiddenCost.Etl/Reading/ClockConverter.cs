namespace HiddenCost.Etl.Reading;

/// <summary>Raw clock ticks → nanoseconds since trace start, exact in integer arithmetic.</summary>
internal readonly struct ClockConverter
{
    // Beyond this many nanoseconds (13 days) a double's estimate of the quotient may be off by more than one.
    private const double EstimateLimit = 1L << 50;

    private readonly long _start;
    private readonly long _ticksPerSecond;
    private readonly long _nsPerTick; // > 0 when the clock divides a second evenly (the usual 10 MHz QPC)
    private readonly double _nsPerTickEstimate;

    public ClockConverter(long startTimestamp, long ticksPerSecond)
    {
        _start = startTimestamp;
        _ticksPerSecond = ticksPerSecond > 0 ? ticksPerSecond : 10_000_000;
        _nsPerTick = 1_000_000_000 % _ticksPerSecond == 0 ? 1_000_000_000 / _ticksPerSecond : 0;
        _nsPerTickEstimate = 1e9 / _ticksPerSecond;
    }

    /// <summary>
    /// trunc((timestamp − start) × 10⁹ / ticks per second), exactly. Every event is converted, and clocks that do
    /// not divide a second (Windows 8's QPC at 3.5 MHz, processor cycles) would need two or three 64-bit
    /// divisions each; a floating-point estimate corrected to the exact quotient costs two multiplications.
    /// </summary>
    public long ToNanoseconds(long timestamp)
    {
        long delta = timestamp - _start;
        if (_nsPerTick > 0) return delta * _nsPerTick;
        // Events before the start (rundowns of relogged traces) truncate toward zero like the others.
        if (delta < 0) return delta == long.MinValue ? Divide(delta) : -Quotient(-delta);
        return Quotient(delta);
    }

    private long Quotient(long delta)
    {
        double estimate = delta * _nsPerTickEstimate;
        // Beyond 2^62 ticks a second (no real clock) the remainder plus one second's ticks could wrap 64 bits.
        if (estimate >= EstimateLimit || _ticksPerSecond > 1L << 62) return Divide(delta);
        // The estimate is within one of the quotient q, so the remainder delta × 10⁹ − q × ticks is within a few
        // ticks of zero: its low 64 bits, taken from products that may overflow, are the whole remainder.
        long q = (long)estimate;
        long remainder = unchecked(delta * 1_000_000_000 - q * _ticksPerSecond);
        while (remainder < 0)
        {
            q--;
            remainder += _ticksPerSecond;
        }
        while (remainder >= _ticksPerSecond)
        {
            q++;
            remainder -= _ticksPerSecond;
        }
        return q;
    }

    // Far beyond 13 days (a damaged timestamp, mostly): in 128 bits, which no rate overflows.
    private long Divide(long delta) => (long)((Int128)delta * 1_000_000_000 / _ticksPerSecond);

    /// <summary>Nanoseconds since trace start → raw ticks (used by writers and tests).</summary>
    public long ToTimestamp(long nanoseconds) =>
        _start + (long)((Int128)nanoseconds * _ticksPerSecond / 1_000_000_000);
}
