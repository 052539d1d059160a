using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Tests;

/// <summary>Ticks to nanoseconds since trace start: exact (truncated toward zero) for every clock rate.</summary>
[TestClass]
public sealed class ClockConverterTests
{
    // 10 MHz (Windows 10 QPC), Windows 8's TSC/1024 QPC of net.4.5.2.x64, an HPET, a 3.6 GHz cycle counter, and
    // rates that make the estimate's rounding matter (1 tick a second, a prime, almost 2^63).
    private static readonly long[] Rates = { 10_000_000, 3_507_968, 14_318_180, 3_591_686_000, 1, 999_999_937, 7, long.MaxValue / 3, (1L << 62) + 1, long.MaxValue };

    private static long Exact(long delta, long ticksPerSecond) => (long)((Int128)delta * 1_000_000_000 / ticksPerSecond);

    [TestMethod]
    public void Every_timestamp_converts_to_the_exact_truncated_quotient()
    {
        var random = new Random(20261124);
        const long start = 123_456_789_012;
        foreach (var rate in Rates)
        {
            var clock = new ClockConverter(start, rate);
            var deltas = new List<long> { 0, 1, -1, rate - 1, rate, rate + 1, -rate, -rate - 1 };
            for (int i = 0; i < 20_000; i++)
            {
                // Spread over magnitudes: near the start, minutes, days, and beyond the 13 days the estimate covers.
                long magnitude = 1L << random.Next(0, 56);
                deltas.Add(random.NextInt64(-magnitude / 16, magnitude));
            }
            // Around where the fast path ends (2^50 ns).
            long edge = (long)((Int128)(1L << 50) * rate / 1_000_000_000);
            for (long d = edge - 3; d <= edge + 3; d++) deltas.Add(d);
            foreach (var delta in deltas)
            {
                if ((Int128)delta * 1_000_000_000 / rate > long.MaxValue) continue; // not a time a trace can hold
                Assert.AreEqual(Exact(delta, rate), clock.ToNanoseconds(start + delta), $"{delta} ticks at {rate} ticks/s");
            }
        }
    }

    [TestMethod]
    public void A_clock_that_divides_a_second_multiplies()
    {
        var clock = new ClockConverter(1_000, 10_000_000);
        Assert.AreEqual(100, clock.ToNanoseconds(1_001));
        Assert.AreEqual(-100, clock.ToNanoseconds(999));
        Assert.AreEqual(12_581_564_800, clock.ToNanoseconds(1_000 + 125_815_648));
    }

    [TestMethod]
    public void A_missing_rate_reads_as_the_10_MHz_clock()
    {
        Assert.AreEqual(100, new ClockConverter(0, 0).ToNanoseconds(1));
        Assert.AreEqual(100, new ClockConverter(0, -5).ToNanoseconds(1));
    }
}
