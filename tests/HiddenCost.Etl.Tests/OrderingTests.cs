using System.Buffers.Binary;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests;

[TestClass]
public sealed class OrderingTests
{
    [TestMethod]
    [DataRow(Samples.AmsiTrace)]
    [DataRow(Samples.LxcoreKernel)]
    [DataRow(Samples.ShutdownPerfDiagLogger)]
    [DataRow(Samples.TraceLoggingTester)]
    [DataRow(Samples.Powershell)]
    [DataRow(Samples.GcEvents)]
    [DataRow(Samples.GcRundownEvents)]
    [DataRow(Samples.NetX64)]
    [DataRow(Samples.NetX86)]
    [DataRow(Samples.PrimitiveTypes)]
    [DataRow(Samples.SelfDescribingSingleEvent)]
    public void Events_come_out_in_timestamp_order_with_ties_by_processor(string sample)
    {
        using var reader = EtlReader.Open(Samples.PathOf(sample));
        long previous = long.MinValue, previousNs = long.MinValue;
        int previousCpu = -1, events = 0, descents = 0, tieOrderBreaks = 0;
        foreach (var e in reader.ReadEvents())
        {
            if (events == 0) Assert.IsTrue(e.Is(KernelGroups.EventTrace, 0), "the trace header event comes first");
            if (e.RawTimestamp < previous) descents++;
            if (e.RawTimestamp == previous && e.Cpu < previousCpu) tieOrderBreaks++;
            Assert.IsTrue(e.TimeNs >= previousNs || e.RawTimestamp < previous, "nanoseconds follow the raw clock");
            previous = e.RawTimestamp;
            previousNs = e.TimeNs;
            previousCpu = e.Cpu;
            events++;
        }
        Assert.AreEqual(0, descents);
        Assert.AreEqual(0, tieOrderBreaks);
        Assert.AreEqual(0L, reader.Health.TimeInversions);
        Assert.AreEqual(reader.CountRecordsInFileOrder(), events);
    }

    [TestMethod]
    public void Equal_timestamps_on_several_processors_occur_and_keep_a_stable_order()
    {
        var first = Sequence(Samples.NetX64, out int crossProcessorTies);
        var second = Sequence(Samples.NetX64, out _);
        Assert.IsTrue(crossProcessorTies > 0, "the sample must exercise the tie rule");
        CollectionAssert.AreEqual(first, second);
    }

    /// <summary>
    /// A copy of a real trace with one record's timestamp moved before its predecessor's: the reader delivers
    /// it where the file has it and says so (counted, with a warning naming the buffer), instead of sorting it
    /// away or dropping it.
    /// </summary>
    [TestMethod]
    public void An_inversion_inside_a_file_is_counted_and_reported_not_hidden()
    {
        var original = Samples.Bytes(Samples.ShutdownPerfDiagLogger);
        var buffer = RawLayout.Buffers(original)[5];
        var records = RawLayout.Records(original, buffer);
        var target = records[3];
        long before = RawLayout.Timestamp(original, records[2]);
        long patched = before - 1;
        Assert.IsTrue(RawLayout.Timestamp(original, records[4]) >= before, "the next record stays in order");

        using var copy = Samples.Copy(Samples.ShutdownPerfDiagLogger, bytes =>
        {
            BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan((int)(target.Offset + target.TimestampOffset)), patched);
            return bytes;
        });
        using var reader = EtlReader.Open(copy.Path);
        long previous = long.MinValue;
        int events = 0, descents = 0;
        foreach (var e in reader.ReadEvents())
        {
            events++;
            if (e.RawTimestamp < previous)
            {
                descents++;
                Assert.AreEqual(patched, e.RawTimestamp);
                Assert.AreEqual(buffer.Processor, e.Cpu);
                Assert.AreEqual(buffer.Offset, e.FileOffset);
            }
            previous = e.RawTimestamp;
        }
        Assert.AreEqual(17_078, events, "nothing dropped");
        Assert.AreEqual(1, descents, "the inversion shows in the output");
        Assert.AreEqual(1L, reader.Health.TimeInversions);
        Assert.AreEqual(1, reader.Health.Warnings.Count);
        Assert.AreEqual(buffer.Offset, reader.Health.Warnings[0].Offset);
        StringAssert.Contains(reader.Health.Warnings[0].Message, "1 ticks earlier");
        Assert.IsFalse(reader.Health.IsDamaged, "an inversion is the file's order, not damage: every event was read");
    }

    private static List<(long, int, long)> Sequence(string sample, out int crossProcessorTies)
    {
        using var reader = EtlReader.Open(Samples.PathOf(sample));
        var list = new List<(long, int, long)>();
        crossProcessorTies = 0;
        foreach (var e in reader.ReadEvents())
        {
            if (list.Count > 0 && list[^1].Item1 == e.RawTimestamp && list[^1].Item2 != e.Cpu) crossProcessorTies++;
            list.Add((e.RawTimestamp, e.Cpu, e.FileOffset));
        }
        return list;
    }
}
