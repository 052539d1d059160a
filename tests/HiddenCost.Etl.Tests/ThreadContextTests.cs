using System.Buffers.Binary;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests;

/// <summary>
/// PerfInfo records carry no thread or process: the reader fills them in from the context-switch state of
/// their processor. No public sample has context switches, so these traces are synthetic: a real first buffer
/// (powershell.etl's, for its trace header) followed by buffers of hand-made records laid out per the ETL format
/// notes (SYSTEM_TRACE_HEADER / PERFINFO_TRACE_HEADER, Thread and CSwitch payloads).
/// </summary>
[TestClass]
public sealed class ThreadContextTests
{
    private const long T0 = 12_676_583_967L; // powershell.etl's start timestamp

    [TestMethod]
    public void A_sample_gets_the_thread_switched_in_on_its_processor_and_that_threads_process()
    {
        var trace = Build(
            (cpu: 0, Thread(1, T0 + 10, processId: 1234, threadId: 5678)),
            (cpu: 1, Thread(3, T0 + 11, processId: 4321, threadId: 8765)),
            (cpu: 0, CSwitch(T0 + 20, newThreadId: 5678, oldThreadId: 0)),
            (cpu: 1, CSwitch(T0 + 21, newThreadId: 8765, oldThreadId: 0)),
            (cpu: 0, Sample(T0 + 30)),
            (cpu: 1, Sample(T0 + 31)),
            (cpu: 2, Sample(T0 + 32)),
            (cpu: 0, CSwitch(T0 + 40, newThreadId: 0, oldThreadId: 5678)),
            (cpu: 0, Sample(T0 + 50)));
        using var reader = EtlReader.Open(trace, "synthetic-cswitch.etl");
        var samples = new List<(int Cpu, int Thread, int Process)>();
        foreach (var e in reader.ReadEvents())
            if (e.Is(KernelGroups.PerfInfo, 46)) samples.Add((e.Cpu, e.ThreadId, e.ProcessId));
        CollectionAssert.AreEqual(new[] { (0, 5678, 1234), (1, 8765, 4321), (2, -1, -1), (0, 0, 0) }, samples,
            "cpu 2 never switched (unknown); thread 0 is the idle thread of process 0");
        Assert.IsTrue(reader.Health.IsClean, string.Join("; ", reader.Health.Warnings));
    }

    [TestMethod]
    public void A_thread_whose_process_is_learned_after_it_switched_in_gets_it_from_then_on()
    {
        // Thread 5678 runs on processor 0 before its rundown names its process (a trace started mid-run); a second
        // switch to a thread still unknown, and back, must not keep the first answer either.
        var trace = Build(
            (cpu: 0, CSwitch(T0 + 20, newThreadId: 5678, oldThreadId: 0)),
            (cpu: 0, Sample(T0 + 30)),
            (cpu: 1, Thread(3, T0 + 35, processId: 1234, threadId: 5678)),
            (cpu: 0, Sample(T0 + 40)),
            (cpu: 0, CSwitch(T0 + 50, newThreadId: 9999, oldThreadId: 5678)),
            (cpu: 0, Sample(T0 + 60)),
            (cpu: 0, CSwitch(T0 + 70, newThreadId: 5678, oldThreadId: 9999)),
            (cpu: 0, Sample(T0 + 80)));
        using var reader = EtlReader.Open(trace, "synthetic-late-thread.etl");
        var samples = new List<(int Thread, int Process)>();
        foreach (var e in reader.ReadEvents())
            if (e.Is(KernelGroups.PerfInfo, 46)) samples.Add((e.ThreadId, e.ProcessId));
        CollectionAssert.AreEqual(new[] { (5678, -1), (5678, 1234), (9999, -1), (5678, 1234) }, samples);
    }

    [TestMethod]
    public void Without_context_switches_samples_have_no_thread()
    {
        using var reader = EtlReader.Open(Samples.PathOf(Samples.NetX64));
        int samples = 0;
        foreach (var e in reader.ReadEvents())
        {
            if (!e.Is(KernelGroups.PerfInfo, 46)) continue;
            samples++;
            Assert.AreEqual(-1, e.ThreadId);
            Assert.AreEqual(-1, e.ProcessId);
        }
        Assert.AreEqual(79_528, samples);
    }

    /// <summary>The real first buffer, then one 4 KiB buffer per processor used, records in the order given.</summary>
    private static byte[] Build(params (int cpu, byte[] record)[] records)
    {
        var output = new List<byte>(Samples.Bytes(Samples.Powershell).AsSpan(0, 8192).ToArray());
        foreach (var group in records.GroupBy(r => r.cpu))
        {
            var buffer = new byte[4096];
            int at = 0x48;
            foreach (var (_, record) in group)
            {
                record.CopyTo(buffer, at);
                at += (record.Length + 7) & ~7;
            }
            BinaryPrimitives.WriteUInt32LittleEndian(buffer, (uint)buffer.Length);
            BinaryPrimitives.WriteUInt32LittleEndian(buffer.AsSpan(4), (uint)at);
            buffer[0x28] = (byte)group.Key;
            buffer.AsSpan(at, 4).Fill(0xFF);
            output.AddRange(buffer);
        }
        // The trace header (at 0x68: buffer header, then a 32-byte system header) counts the buffers written:
        // powershell's own first buffer and the hand-made ones, not powershell's 26.
        var bytes = output.ToArray();
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(0x68 + 36), (uint)(1 + records.Select(r => r.cpu).Distinct().Count()));
        return bytes;
    }

    /// <summary>SYSTEM_TRACE_HEADER64 (full, 32 bytes) + Thread Start/DCStart payload (ProcessId, ThreadId, …).</summary>
    private static byte[] Thread(byte opcode, long timestamp, int processId, int threadId)
    {
        var r = SystemHeader(KernelGroups.Thread, opcode, timestamp, payload: 48);
        BinaryPrimitives.WriteInt32LittleEndian(r.AsSpan(32), processId);
        BinaryPrimitives.WriteInt32LittleEndian(r.AsSpan(36), threadId);
        return r;
    }

    /// <summary>CSwitch (Thread 36) with a compact header: NewThreadId, OldThreadId first in its 24-byte payload.</summary>
    private static byte[] CSwitch(long timestamp, int newThreadId, int oldThreadId)
    {
        var r = new byte[24 + 24];
        BinaryPrimitives.WriteUInt16LittleEndian(r, 2);
        r[2] = 4;
        r[3] = 0xC0;
        BinaryPrimitives.WriteUInt16LittleEndian(r.AsSpan(4), (ushort)r.Length);
        r[6] = 36;
        r[7] = KernelGroups.Thread;
        BinaryPrimitives.WriteInt32LittleEndian(r.AsSpan(8), -1);
        BinaryPrimitives.WriteInt32LittleEndian(r.AsSpan(12), -1);
        BinaryPrimitives.WriteInt64LittleEndian(r.AsSpan(16), timestamp);
        BinaryPrimitives.WriteInt32LittleEndian(r.AsSpan(24), newThreadId);
        BinaryPrimitives.WriteInt32LittleEndian(r.AsSpan(28), oldThreadId);
        return r;
    }

    /// <summary>PERFINFO_TRACE_HEADER64 + SampledProfile (InstructionPointer, ThreadId, Count, …).</summary>
    private static byte[] Sample(long timestamp)
    {
        var r = new byte[16 + 16];
        BinaryPrimitives.WriteUInt16LittleEndian(r, 2);
        r[2] = 17;
        r[3] = 0xC0;
        BinaryPrimitives.WriteUInt16LittleEndian(r.AsSpan(4), (ushort)r.Length);
        r[6] = 46;
        r[7] = KernelGroups.PerfInfo;
        BinaryPrimitives.WriteInt64LittleEndian(r.AsSpan(8), timestamp);
        BinaryPrimitives.WriteUInt64LittleEndian(r.AsSpan(16), 0xFFFF_F800_0000_1000);
        return r;
    }

    private static byte[] SystemHeader(byte group, byte opcode, long timestamp, int payload)
    {
        var r = new byte[32 + payload];
        BinaryPrimitives.WriteUInt16LittleEndian(r, 3);
        r[2] = 2;
        r[3] = 0xC0;
        BinaryPrimitives.WriteUInt16LittleEndian(r.AsSpan(4), (ushort)r.Length);
        r[6] = opcode;
        r[7] = group;
        BinaryPrimitives.WriteInt64LittleEndian(r.AsSpan(16), timestamp);
        return r;
    }
}
