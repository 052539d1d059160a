using System.Buffers.Binary;
using HiddenCost.Etl.Buffers;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests;

/// <summary>
/// Damage that reads like a clean trace unless the reader checks what a recorder can write: records that stop before
/// the buffer header's saved offset, timestamps far outside the header's start..end, a clock rate no hardware has, a
/// header start of 0. Each is a damage warning (the run's exit 4) naming where it was found, and what remains is sane.
/// </summary>
[TestClass]
public sealed class ImpossibleTimesAndEarlyEndsTests
{
    // powershell.etl's trace header payload starts at 0x68; 64-bit layout: EndTime at +16, PerfFreq at +256, StartTime at +264.
    private const int PowershellEndTime = 0x68 + 16;
    private const int PowershellPerfFreq = 0x68 + 256;
    private const int PowershellStartTime = 0x68 + 264;

    [TestMethod]
    public void End_markers_over_the_first_record_of_buffers_are_damage_at_the_first_such_buffer()
    {
        // The case: 24 of ShutdownPerfDiagLogger.etl's buffers lose their records to a padding marker, which
        // read as 8,707 fewer events and no warning at all.
        var original = Samples.Bytes(Samples.ShutdownPerfDiagLogger);
        var buffers = RawLayout.Buffers(original);
        var hit = buffers.Skip(1).Where((_, i) => i % 2 == 0).Take(24).ToList();
        using var copy = Samples.Copy(Samples.ShutdownPerfDiagLogger, bytes =>
        {
            foreach (var b in hit) BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan((int)b.Offset + BufferHeader.Size), 0xFFFF_FFFF);
            return bytes;
        });
        using var reader = EtlReader.Open(copy.Path);
        int lost = hit.Sum(b => RawLayout.Records(original, b).Count);
        Assert.AreEqual(17_078 - lost, Count(reader));
        Assert.AreEqual(24L, reader.Health.DamagedBuffers);
        var first = reader.Health.FirstDamage!.Value;
        Assert.AreEqual(hit[0].Offset, first.Offset);
        Assert.AreEqual($"processor {hit[0].Processor}: records stop at buffer offset 0x48 (an end-of-records marker), but the buffer header says they fill it to 0x{hit[0].SavedOffset:X}; rest of buffer lost",
            first.Message);
    }

    [TestMethod]
    public void A_zero_size_record_before_the_saved_offset_is_damage()
    {
        var original = Samples.Bytes(Samples.ShutdownPerfDiagLogger);
        var buffer = RawLayout.Buffers(original)[5];
        var record = RawLayout.Records(original, buffer)[3];
        using var copy = Samples.Copy(Samples.ShutdownPerfDiagLogger, bytes =>
        {
            bytes.AsSpan((int)record.Offset, 8).Clear();
            return bytes;
        });
        using var reader = EtlReader.Open(copy.Path);
        Count(reader);
        Assert.AreEqual(buffer.Offset, reader.Health.FirstDamage!.Value.Offset);
        Assert.IsTrue(reader.Health.IsDamaged);
    }

    [TestMethod]
    public void An_event_stamped_far_after_the_end_is_left_out_and_the_duration_stays_the_headers()
    {
        var original = Samples.Bytes(Samples.ShutdownPerfDiagLogger);
        var buffer = RawLayout.Buffers(original)[10];
        var record = RawLayout.Records(original, buffer).First(r => !r.IsTraceMessage);
        using var copy = Samples.Copy(Samples.ShutdownPerfDiagLogger, bytes =>
        {
            bytes[(int)record.Offset + record.TimestampOffset + 6] ^= 0x10; // 2^52 ticks: 14 years later at 10 MHz
            return bytes;
        });
        using var reader = EtlReader.Open(copy.Path);
        var (events, first, last) = Extent(reader);
        Assert.AreEqual(17_077L, events);
        Assert.AreEqual(1L, reader.Health.EventsOutOfTime);
        Assert.AreEqual(0L, first);
        Assert.IsTrue(last <= 29_526L * 1_000_000_000, $"last event at {last} ns");
        var damage = reader.Health.FirstDamage!.Value;
        Assert.AreEqual(buffer.Offset, damage.Offset);
        StringAssert.StartsWith(damage.Message, $"processor {buffer.Processor}: record at buffer offset 0x{record.Offset - buffer.Offset:X} is stamped 450");
        StringAssert.EndsWith(damage.Message, "far outside the trace header's start and end times (no recorder writes that): events so stamped are left out");
    }

    [TestMethod]
    public void An_event_stamped_minutes_before_the_start_is_left_out_so_the_start_is_never_negative()
    {
        // net.4.5.2.x64.etl is compressed, so the sample used is powershell.etl (header span 137 s): 400 s before its start.
        var original = Samples.Bytes(Samples.Powershell);
        var buffer = RawLayout.Buffers(original)[3];
        var record = RawLayout.Records(original, buffer).First(r => !r.IsTraceMessage);
        using var copy = Samples.Copy(Samples.Powershell, bytes =>
        {
            var at = bytes.AsSpan((int)record.Offset + record.TimestampOffset);
            BinaryPrimitives.WriteInt64LittleEndian(at, BinaryPrimitives.ReadInt64LittleEndian(at) - 400L * 10_000_000 - 137L * 10_000_000);
            return bytes;
        });
        using var reader = EtlReader.Open(copy.Path);
        var (events, first, _) = Extent(reader);
        Assert.AreEqual(113L, events);
        Assert.AreEqual(0L, first);
        Assert.AreEqual(1L, reader.Health.EventsOutOfTime);
    }

    [TestMethod]
    public void Events_seconds_after_the_headers_end_are_a_recorders_and_stay()
    {
        // net.4.5.2.x64.etl's rundown runs 2.5 s past its header's end time (12.58 s against a span of 10.07 s).
        using var reader = EtlReader.Open(Samples.PathOf(Samples.NetX64));
        var (events, _, last) = Extent(reader);
        Assert.AreEqual(179_474L, events);
        Assert.IsTrue(last > 12_500_000_000L);
        Assert.IsTrue(reader.Health.IsClean);
    }

    [TestMethod]
    [DataRow(1L, DisplayName = "1 Hz")]
    [DataRow(999_999L, DisplayName = "just under 1 MHz")]
    [DataRow(1_000_000_000_000L, DisplayName = "1 THz")]
    [DataRow(0x7FFF_FFFF_FFFF_FFF0L, DisplayName = "2^63 Hz")]
    public void A_clock_rate_no_hardware_has_is_damage_and_times_are_read_at_10_MHz(long perfFreq)
    {
        using var copy = Samples.Copy(Samples.Powershell, bytes =>
        {
            BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(PowershellPerfFreq), perfFreq);
            return bytes;
        });
        using var reader = EtlReader.Open(copy.Path);
        Assert.AreEqual(10_000_000L, reader.Header.TicksPerSecond);
        var (events, _, last) = Extent(reader);
        Assert.AreEqual(114L, events);
        Assert.AreEqual(137_421L, last / 1_000_000, "powershell.etl's own clock is 10 MHz");
        var damage = reader.Health.FirstDamage!.Value;
        Assert.AreEqual((long)BufferHeader.Size, damage.Offset);
        Assert.AreEqual($"the trace header's clock runs at {perfFreq:N0} Hz (clock type QueryPerformanceCounter, PerfFreq {perfFreq}), which no clock does " +
            "(1 MHz to 10 GHz): times are read at 10 MHz, QPC's usual rate on Windows 10 and later, and may be scaled wrong", damage.Message);
    }

    [TestMethod]
    [DataRow(1_000_000L)]
    [DataRow(3_579_545L)]
    [DataRow(10_000_000_000L)]
    public void Clock_rates_real_hardware_has_are_read_as_they_are(long perfFreq)
    {
        using var copy = Samples.Copy(Samples.Powershell, bytes =>
        {
            BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(PowershellPerfFreq), perfFreq);
            return bytes;
        });
        using var reader = EtlReader.Open(copy.Path);
        Assert.AreEqual(perfFreq, reader.Header.TicksPerSecond);
        Count(reader);
        // Read at another rate than its own, the trace's events may now lie outside its header's span; the clock is no damage.
        Assert.IsFalse(reader.Health.HeaderDamaged);
    }

    [TestMethod]
    public void A_header_start_time_of_0_is_damage_and_every_event_is_still_read()
    {
        using var copy = Samples.Copy(Samples.Powershell, bytes =>
        {
            BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(PowershellStartTime), 0);
            return bytes;
        });
        using var reader = EtlReader.Open(copy.Path);
        Assert.AreEqual(DateTime.MinValue, reader.Header.StartTimeUtc);
        Assert.AreEqual(114, Count(reader));
        Assert.AreEqual(new HiddenCost.Etl.Reading.TraceWarning(BufferHeader.Size,
            "the trace header's start time is 0 or not a time: Trace Start is left blank, and events are kept up to a year after the header's own timestamp"),
            reader.Health.FirstDamage);
    }

    [TestMethod]
    public void Without_an_end_time_the_window_is_a_year_so_a_208_year_stamp_is_still_left_out()
    {
        var original = Samples.Bytes(Samples.Powershell);
        var record = RawLayout.Records(original, RawLayout.Buffers(original)[2]).First(r => !r.IsTraceMessage);
        using var copy = Samples.Copy(Samples.Powershell, bytes =>
        {
            BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(PowershellEndTime), 0);
            bytes[(int)record.Offset + record.TimestampOffset + 7] ^= 0x02; // 2^57 ticks: 14,000 years
            return bytes;
        });
        using var reader = EtlReader.Open(copy.Path);
        Assert.AreEqual(113, Count(reader));
        Assert.AreEqual(1L, reader.Health.EventsOutOfTime);
        Assert.IsFalse(reader.Health.HeaderDamaged, "a header without an end time is not damaged: recorders that stop abruptly leave it so");
    }

    private static int Count(EtlReader reader)
    {
        int n = 0;
        foreach (var _ in reader.ReadEvents()) n++;
        return n;
    }

    private static (long Events, long First, long Last) Extent(EtlReader reader)
    {
        long n = 0, first = long.MaxValue, last = long.MinValue;
        foreach (var e in reader.ReadEvents())
        {
            n++;
            first = Math.Min(first, e.TimeNs);
            last = Math.Max(last, e.TimeNs);
        }
        return (n, first, last);
    }
}
