using HiddenCost.Etl;
using HiddenCost.Etl.Header;
using HiddenCost.Etl.Records;
using HiddenCost.Synthetic.Etl;
using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Tests.Support;

namespace HiddenCost.Synthetic.Tests;

/// <summary>Writer → project reader: every header field the reader exposes and every payload byte come back, in timestamp order.</summary>
[TestClass]
public sealed class RoundTripTests
{
    [TestMethod]
    [DataRow(8, false)]
    [DataRow(8, true)]
    [DataRow(4, false)]
    [DataRow(4, true)]
    public void Every_record_reads_back_with_its_header_fields_and_payload(int pointerSize, bool compress)
    {
        var s = new EtlTraceSettings { PointerSize = pointerSize, Compress = compress, NumberOfProcessors = 3, BufferSize = 4096, CpuSpeedMHz = 2800, Build = 22631 };
        var records = RecordFixtures.Mixed(s, 250, seed: 3);
        records.AddRange(EmitterFixtures.All(s).Select(x => x.Record));
        var writer = new EtlFileWriter(s);
        writer.AddRange(records);
        var bytes = writer.ToArray();

        var (header, events, health) = ReadBack.Bytes(bytes);

        AssertHeader(s, header, records, EtlFileWriterTests.Buffers(bytes).Count);
        Assert.IsTrue(health.IsClean, string.Join("; ", health.Warnings));
        Assert.AreEqual(0L, health.TimeInversions);
        Assert.AreEqual(compress ? EtlFileWriterTests.Buffers(bytes).Count - 1 : 0, health.CompressedBuffers);

        var expected = Expected(records);
        Assert.AreEqual(expected.Count + 1, events.Count, "every record plus the header event");
        var first = events[0];
        Assert.IsTrue(first.Is(0, 0) && first.Kind == RecordHeaderKind.System && first.Version == 2, "the header event comes first");
        Assert.AreEqual(s.StartQpc, first.RawTimestamp);
        Assert.AreEqual(0L, first.TimeNs);
        Assert.AreEqual(pointerSize == 8, first.Is64Bit);
        var running = new Dictionary<int, int>();
        var processOf = new Dictionary<int, int>();
        for (var i = 0; i < expected.Count; i++)
        {
            var r = expected[i];
            int tid, pid;
            if (r.Kind == RecordKind.PerfInfo)
            {
                tid = running.GetValueOrDefault(r.Cpu, -1);
                pid = tid == 0 ? 0 : tid > 0 && processOf.TryGetValue(tid, out var known) ? known : -1;
            }
            else
            {
                (tid, pid) = HeaderIds(r);
            }
            AssertEvent(s, header, r, events[i + 1], tid, pid);
            if (r is KernelRecord { Group: KernelGroup.Thread } k)
            {
                if (k.Type == ThreadEvents.CSwitchType) running[r.Cpu] = BitConverter.ToInt32(r.Payload, 0);
                if (k.Type is ThreadEvents.StartType or ThreadEvents.DCStartType) processOf[BitConverter.ToInt32(r.Payload, 4)] = BitConverter.ToInt32(r.Payload, 0);
            }
        }
    }

    [TestMethod]
    public void Extended_data_items_come_back_raw_after_the_header()
    {
        var s = new EtlTraceSettings { NumberOfProcessors = 1 };
        var record = RecordFixtures.Manifest(new EventContext(0, s.StartQpc + 10, 8, 1, 2), 2, withExtendedData: true);
        var writer = new EtlFileWriter(s);
        writer.Add(record);
        var e = ReadBack.Bytes(writer.ToArray()).Events[1];
        // Two items, independently encoded: {u16 0; u16 type; u16 linkage; u16 size} + data padded to 8.
        var expected = new List<byte>();
        for (var i = 0; i < record.ExtendedData.Count; i++)
        {
            var item = record.ExtendedData[i];
            expected.AddRange(BitConverter.GetBytes((ushort)0));
            expected.AddRange(BitConverter.GetBytes(item.ExtType));
            expected.AddRange(BitConverter.GetBytes((ushort)(i == 0 ? 1 : 0)));
            expected.AddRange(BitConverter.GetBytes((ushort)item.Data.Length));
            expected.AddRange(item.Data);
            while (expected.Count % 8 != 0) expected.Add(0);
        }
        CollectionAssert.AreEqual(expected.ToArray(), e.ExtendedData);
        Assert.AreEqual((ushort)1, e.EventFlags, "EXTENDED_INFO flag");
        CollectionAssert.AreEqual(record.Payload, e.Payload);
    }

    [TestMethod]
    public void Time_zone_name_reads_back()
    {
        var writer = new EtlFileWriter(new EtlTraceSettings { NumberOfProcessors = 1 });
        Assert.AreEqual("UTC", ReadBack.Bytes(writer.ToArray()).Header.TimeZoneStandardName);
    }

    private static void AssertHeader(EtlTraceSettings s, TraceHeader h, List<TraceRecord> records, int buffers)
    {
        Assert.AreEqual((uint)s.PointerSize, h.PointerSize);
        Assert.AreEqual((uint)s.NumberOfProcessors, h.NumberOfProcessors);
        Assert.AreEqual((uint)s.Build, h.Build);
        Assert.AreEqual((byte)10, h.OsMajorVersion);
        Assert.AreEqual((byte)0, h.OsMinorVersion);
        Assert.AreEqual((byte)1, h.SubVersion);
        Assert.AreEqual((byte)5, h.SubMinorVersion);
        Assert.AreEqual((uint)s.BufferSize, h.BufferSize);
        Assert.AreEqual((uint)buffers, h.BuffersWritten);
        Assert.AreEqual(1u, h.StartBuffers);
        Assert.AreEqual((uint)s.CpuSpeedMHz, h.CpuSpeedMHz);
        Assert.AreEqual(156_250u, h.TimerResolution);
        Assert.AreEqual(s.Compress ? 0x0401_0001u : 0x0001_0001u, h.LogFileMode);
        Assert.AreEqual(s.Compress, h.IsCompressedMode);
        Assert.AreEqual(s.PerfFrequency, h.PerfFrequency);
        Assert.AreEqual(s.StartTimeUtc, h.StartTimeUtc);
        Assert.AreEqual(s.StartTimeUtc - s.Uptime, h.BootTimeUtc);
        Assert.AreEqual(s.StartTimeUtc.AddTicks((records.Max(r => r.Timestamp) - s.StartQpc) * 10_000_000 / s.PerfFrequency), h.EndTimeUtc);
        Assert.AreEqual(ClockType.QueryPerformanceCounter, h.ClockType);
        Assert.AreEqual(0u, h.EventsLost);
        Assert.AreEqual(0u, h.BuffersLost);
        Assert.AreEqual(0, h.TimeZoneBiasMinutes);
        Assert.AreEqual(s.LoggerName, h.LoggerName);
        Assert.AreEqual(s.LogFileName, h.LogFileName);
        Assert.AreEqual(s.StartQpc, h.StartTimestamp);
    }

    /// <summary>Records in the order the reader must deliver them: time, then lower processor, then file order.</summary>
    private static List<TraceRecord> Expected(List<TraceRecord> records) =>
        records.Select((r, i) => (r, i)).OrderBy(x => x.r.Timestamp).ThenBy(x => x.r.Cpu).ThenBy(x => x.i).Select(x => x.r).ToList();

    private static (int Tid, int Pid) HeaderIds(TraceRecord r) => r switch
    {
        KernelRecord k => ((int)k.ThreadId, (int)k.ProcessId),
        ManifestRecord m => ((int)m.ThreadId, (int)m.ProcessId),
        ClassicRecord c => ((int)c.ThreadId, (int)c.ProcessId),
        _ => throw new ArgumentException("unknown record"),
    };

    private static void AssertEvent(EtlTraceSettings s, TraceHeader header, TraceRecord r, ReadEvent e, int tid, int pid)
    {
        var what = $"{r.GetType().Name} at {r.Timestamp} on CPU {r.Cpu}";
        Assert.AreEqual(ReaderKind(r.Kind), e.Kind, what);
        Assert.AreEqual(r.PointerSize == 8, e.Is64Bit, what);
        Assert.AreEqual(r.Timestamp, e.RawTimestamp, what);
        Assert.AreEqual(TraceClock.ToTraceNanoseconds(s, r.Timestamp), e.TimeNs, what);
        Assert.AreEqual(r.Cpu, e.Cpu, what);
        Assert.AreEqual(tid, e.ThreadId, what + " thread");
        Assert.AreEqual(pid, e.ProcessId, what + " process");
        switch (r)
        {
            case KernelRecord k:
                // An image load is written under the Process group's hook, as Windows logs it, and read as Image/Load.
                byte group = k.Group == KernelGroup.Process && k.Type == ImageEvents.LoadType ? KernelGroups.Image : k.Group;
                Assert.AreEqual(KernelGroups.ProviderIdOf(group), e.ProviderId, what);
                Assert.AreEqual(group, e.Group, what);
                Assert.AreEqual(k.Type, e.Opcode, what);
                Assert.AreEqual((byte)k.Version, e.Version, what);
                Assert.AreEqual((ushort)0, e.EventId, what);
                break;
            case ManifestRecord m:
                Assert.AreEqual(m.ProviderId, e.ProviderId, what);
                Assert.AreEqual(m.Descriptor.Id, e.EventId, what);
                Assert.AreEqual(m.Descriptor.Version, e.Version, what);
                Assert.AreEqual(m.Descriptor.Channel, e.Channel, what);
                Assert.AreEqual(m.Descriptor.Level, e.Level, what);
                Assert.AreEqual(m.Descriptor.Opcode, e.Opcode, what);
                Assert.AreEqual(m.Descriptor.Task, e.Task, what);
                Assert.AreEqual(m.Descriptor.Keywords, e.Keywords, what);
                Assert.AreEqual(m.WrittenFlags, e.EventFlags, what);
                Assert.AreEqual(m.ExtendedData.Sum(x => 8 + ((x.Data.Length + 7) & ~7)), e.ExtendedData.Length, what);
                break;
            case ClassicRecord c:
                Assert.AreEqual(c.EventGuid, e.ProviderId, what);
                Assert.AreEqual(c.Type, e.Opcode, what);
                Assert.AreEqual(c.Level, e.Level, what);
                Assert.AreEqual((byte)c.Version, e.Version, what);
                break;
        }
        CollectionAssert.AreEqual(r.Payload, e.Payload, what + " payload");
    }

    private static RecordHeaderKind ReaderKind(RecordKind kind) => kind switch
    {
        RecordKind.System => RecordHeaderKind.System,
        RecordKind.Compact => RecordHeaderKind.Compact,
        RecordKind.PerfInfo => RecordHeaderKind.PerfInfo,
        RecordKind.EventHeader => RecordHeaderKind.EventHeader,
        RecordKind.Classic => RecordHeaderKind.Classic,
        RecordKind.Instance => RecordHeaderKind.Instance,
        _ => throw new ArgumentOutOfRangeException(nameof(kind)),
    };
}
