using HiddenCost.Synthetic.Etl;
using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Model;

namespace HiddenCost.Synthetic.Tests.Support;

/// <summary>Record sets for writer and round-trip tests.</summary>
internal static class RecordFixtures
{
    public static readonly Guid TestProvider = new("0b6d1e3a-3c2e-4f11-9a7e-5a1f00c0ffee");

    /// <summary>
    /// Many records of every header kind spread over the CPUs, added in a shuffled order, enough to fill several
    /// small buffers per CPU. Every PERFINFO record comes after a CSwitch on its CPU, and every thread has a DCStart.
    /// </summary>
    public static List<TraceRecord> Mixed(EtlTraceSettings s, int perCpu, ulong seed)
    {
        var random = new Prng(seed);
        var records = new List<TraceRecord>();
        var p = s.PointerSize;
        for (var cpu = 0; cpu < s.NumberOfProcessors; cpu++)
        {
            var tid = (uint)(1000 + cpu * 4);
            var pid = (uint)(500 + cpu * 4);
            var t = s.StartQpc + 10 + cpu;
            records.Add(ThreadEvents.Lifetime(new EventContext(cpu, t, p), ThreadEvents.DCStartType, new ThreadInfo(pid, tid)));
            records.Add(ThreadEvents.CSwitch(new EventContext(cpu, t + 2, p), new CSwitchInfo(tid, 0)));
            t += 4;
            for (var i = 0; i < perCpu; i++)
            {
                t += random.Next(1, 40);
                var c = new EventContext(cpu, t, p, tid, pid);
                records.Add((i % 7) switch
                {
                    0 => PerfInfoEvents.SampledProfile(c, 0x1000 + (ulong)i, tid),
                    1 => PerfInfoEvents.SysClEnter(c, 0x2000 + (ulong)i),
                    2 => PageFaultEvents.DemandZero(c, 0x3000, 0x4000),
                    3 => new KernelRecord { Cpu = cpu, Timestamp = t, PointerSize = p, HeaderKind = RecordKind.Compact, Group = 0x1B, Type = 0x15, Version = 1, ThreadId = tid, ProcessId = pid, Payload = [1, 2, 3, 4, 5] },
                    4 => Manifest(c, i, withExtendedData: i % 2 == 0),
                    5 => new ClassicRecord { Cpu = cpu, Timestamp = t, PointerSize = p, EventGuid = TestProvider, Type = (byte)(i % 250), Level = 4, Version = 3, ThreadId = tid, ProcessId = pid, KernelTime = 7, UserTime = 9, Payload = Bytes(i % 37, i) },
                    _ => new ClassicRecord { Cpu = cpu, Timestamp = t, PointerSize = p, HeaderKind = RecordKind.Instance, EventGuid = TestProvider, Type = 2, Level = 5, Version = 1, ThreadId = tid, ProcessId = pid, InstanceId = 42, ParentInstanceId = 41, ParentGuid = TestProvider, Payload = Bytes(i % 11, i) },
                });
            }
        }
        // Shuffle: the writer must order each CPU's records by time itself.
        for (var i = records.Count - 1; i > 0; i--)
        {
            var j = (int)random.Next(0, i + 1);
            (records[i], records[j]) = (records[j], records[i]);
        }
        return records;
    }

    public static ManifestRecord Manifest(EventContext c, int i, bool withExtendedData) => new()
    {
        Cpu = c.Cpu,
        Timestamp = c.Timestamp,
        PointerSize = c.PointerSize,
        ProviderId = TestProvider,
        Descriptor = new EventDescriptor((ushort)(100 + i % 5), (byte)(i % 3), 16, 4, (byte)(i % 10), (ushort)(i % 6), 0x8000_0000_0000_0010UL),
        ThreadId = c.ThreadId,
        ProcessId = c.ProcessId,
        EventProperty = 0,
        ProcessorTime = 0x0000_0002_0000_0001UL,
        ActivityId = new Guid(0x1234_5678, 0x9ABC, 0xDEF0, 1, 2, 3, 4, 5, 6, 7, (byte)i),
        ExtendedData = withExtendedData
            ? [new ExtendedDataItem(ExtendedDataItem.StackTrace64, Bytes(8 + 8 * (i % 4), i)), new ExtendedDataItem(ExtendedDataItem.RelatedActivityId, Bytes(16, i + 1))]
            : [],
        Payload = Bytes(i % 29, i),
    };

    public static byte[] Bytes(int n, int seed) => Enumerable.Range(0, n).Select(k => (byte)(k * 31 + seed)).ToArray();
}
