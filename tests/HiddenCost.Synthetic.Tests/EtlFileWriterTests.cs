using System.Buffers.Binary;
using System.Text;
using HiddenCost.Synthetic.Etl;
using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Tests.Support;

namespace HiddenCost.Synthetic.Tests;

[TestClass]
public sealed class EtlFileWriterTests
{
    private static readonly EtlTraceSettings Small = new() { NumberOfProcessors = 3, BufferSize = 4096 };

    [TestMethod]
    public void First_buffer_holds_only_the_logfile_header()
    {
        var bytes = Write(Small, 200);
        var bufferCount = Buffers(bytes).Count;
        Assert.AreEqual(4096u, U32(bytes, 0x00), "BufferSize");
        Assert.AreEqual((ushort)0x0001, U16(bytes, 0x34), "BufferFlag FLUSH_MARKER");
        Assert.AreEqual((ushort)4, U16(bytes, 0x36), "BufferType HEADER");
        Assert.AreEqual(0u, U32(bytes, 0x2C), "State: no compression format");
        var record = bytes.AsSpan(0x48);
        Assert.AreEqual((ushort)2, BinaryPrimitives.ReadUInt16LittleEndian(record), "header event version");
        Assert.AreEqual((byte)2, record[2], "SYSTEM64 header");
        Assert.AreEqual((byte)0, record[6], "type 0");
        Assert.AreEqual((byte)0, record[7], "group 0");
        int size = BinaryPrimitives.ReadUInt16LittleEndian(record[4..]);
        Assert.AreEqual((uint)(0x48 + ((size + 7) & ~7)), U32(bytes, 0x04), "SavedOffset ends after the header record");
        Assert.AreEqual(Small.StartQpc, BinaryPrimitives.ReadInt64LittleEndian(record[16..]), "header timestamp = trace start");

        var p = record[32..];
        Assert.AreEqual(4096u, BinaryPrimitives.ReadUInt32LittleEndian(p), "BufferSize");
        Assert.AreEqual(0x0501000Au, BinaryPrimitives.ReadUInt32LittleEndian(p[4..]), "Version 10.0, format 1.5");
        Assert.AreEqual(26100u, BinaryPrimitives.ReadUInt32LittleEndian(p[8..]), "ProviderVersion = build");
        Assert.AreEqual(3u, BinaryPrimitives.ReadUInt32LittleEndian(p[12..]), "NumberOfProcessors");
        Assert.AreEqual(0x00010001u, BinaryPrimitives.ReadUInt32LittleEndian(p[32..]), "LogFileMode");
        Assert.AreEqual((uint)bufferCount, BinaryPrimitives.ReadUInt32LittleEndian(p[36..]), "BuffersWritten counts every buffer");
        Assert.AreEqual(8u, BinaryPrimitives.ReadUInt32LittleEndian(p[44..]), "PointerSize");
        Assert.AreEqual(10_000_000L, BinaryPrimitives.ReadInt64LittleEndian(p[256..]), "PerfFreq after TIME_ZONE_INFORMATION, 8-aligned");
        Assert.AreEqual(Small.StartTimeUtc.ToFileTimeUtc(), BinaryPrimitives.ReadInt64LittleEndian(p[264..]), "StartTime");
        Assert.AreEqual(1u, BinaryPrimitives.ReadUInt32LittleEndian(p[272..]), "clock type QPC");
        var names = Encoding.Unicode.GetString(p[280..(size - 32)]).Split('\0');
        Assert.AreEqual("HiddenCost Synthetic Trace", names[0]);
        Assert.AreEqual("synthetic.etl", names[1]);
    }

    [TestMethod]
    public void Thirty_two_bit_header_has_four_byte_pointers()
    {
        var s = Small with { PointerSize = 4 };
        var bytes = Write(s, 20);
        var record = bytes.AsSpan(0x48);
        Assert.AreEqual((byte)1, record[2], "SYSTEM32 header");
        var p = record[32..];
        Assert.AreEqual(4u, BinaryPrimitives.ReadUInt32LittleEndian(p[44..]), "PointerSize");
        // LoggerName and LogFileName are 4 bytes each: TIME_ZONE_INFORMATION at 64, BootTime at 240.
        Assert.AreEqual(0, BinaryPrimitives.ReadInt32LittleEndian(p[64..]), "time zone bias");
        Assert.AreEqual("UTC", Encoding.Unicode.GetString(p.Slice(68, 6)));
        Assert.AreEqual(10_000_000L, BinaryPrimitives.ReadInt64LittleEndian(p[248..]), "PerfFreq");
        Assert.AreEqual(s.StartTimeUtc.ToFileTimeUtc(), BinaryPrimitives.ReadInt64LittleEndian(p[256..]), "StartTime");
    }

    [TestMethod]
    public void Data_buffers_hold_one_processor_each_with_aligned_records_and_an_FF_tail()
    {
        var bytes = Write(Small, 300);
        var buffers = Buffers(bytes).Skip(1).ToList();
        Assert.IsTrue(buffers.Count >= 2 * Small.NumberOfProcessors, $"several buffers per CPU, got {buffers.Count}");
        foreach (var offset in buffers)
        {
            Assert.AreEqual(4096u, U32(bytes, offset), "fixed buffer size");
            Assert.AreEqual((ushort)0x0020, U16(bytes, offset + 0x34), "PROC_INDEX flag");
            var cpu = U16(bytes, offset + 0x28);
            Assert.IsTrue(cpu < 3);
            var saved = (int)U32(bytes, offset + 0x04);
            Assert.AreEqual(0, saved % 8, "SavedOffset is 8-aligned");
            Assert.IsTrue(bytes.AsSpan(offset + saved, 4096 - saved).IndexOfAnyExcept((byte)0xFF) < 0, "tail filled with 0xFF");
            var previous = long.MinValue;
            foreach (var (_, timestamp) in Records(bytes.AsSpan(offset, saved)))
            {
                Assert.IsTrue(timestamp >= previous, "records of a buffer in time order");
                previous = timestamp;
            }
        }
    }

    [TestMethod]
    public void Buffers_are_written_out_of_time_order()
    {
        var bytes = Write(Small, 300);
        var firsts = Buffers(bytes).Skip(1).Select(o => Records(bytes.AsSpan(o, (int)U32(bytes, o + 4))).First().Timestamp).ToList();
        var inversions = firsts.Zip(firsts.Skip(1)).Count(pair => pair.Second < pair.First);
        Assert.IsTrue(inversions > 0, "a later buffer starts earlier than the one before it");
    }

    [TestMethod]
    public void Compressed_buffers_decompress_to_the_uncompressed_payload()
    {
        var plain = Write(Small, 300);
        var compressed = Write(Small with { Compress = true }, 300);
        Assert.IsTrue(compressed.Length < plain.Length / 2, $"{compressed.Length} vs {plain.Length}");
        Assert.AreEqual(3u, U32(compressed, 0x2C), "first buffer's State names XPRESS");
        Assert.AreEqual(0u, U32(compressed, 0x00) % 512, "header buffer trimmed to 512-byte units");
        var plainBuffers = Buffers(plain).Skip(1).ToList();
        var packedBuffers = Buffers(compressed).Skip(1).ToList();
        Assert.AreEqual(plainBuffers.Count, packedBuffers.Count);
        for (var i = 0; i < plainBuffers.Count; i++)
        {
            int po = plainBuffers[i], co = packedBuffers[i];
            Assert.AreEqual((ushort)0x0060, U16(compressed, co + 0x34), "PROC_INDEX | COMPRESSED");
            var saved = (int)U32(compressed, co + 0x04);
            Assert.AreEqual(U32(plain, po + 0x04), (uint)saved, "SavedOffset is the uncompressed end");
            var size = (int)U32(compressed, co);
            var payload = XpressDecompressor.Decompress(compressed.AsSpan(co + 0x48, size - 0x48), saved - 0x48);
            CollectionAssert.AreEqual(plain.AsSpan(po + 0x48, saved - 0x48).ToArray(), payload, $"buffer {i}");
        }
        Assert.AreEqual(0x04010001u, BinaryPrimitives.ReadUInt32LittleEndian(compressed.AsSpan(0x48 + 32 + 32)), "LogFileMode has EVENT_TRACE_COMPRESSED_MODE");
    }

    [TestMethod]
    public void Same_records_give_the_same_bytes()
    {
        CollectionAssert.AreEqual(Write(Small with { Compress = true }, 300), Write(Small with { Compress = true }, 300));
        CollectionAssert.AreNotEqual(Write(Small, 300, seed: 1), Write(Small, 300, seed: 2));
    }

    [TestMethod]
    public void Records_the_trace_cannot_hold_are_rejected()
    {
        var writer = new EtlFileWriter(Small);
        var c = new EventContext(0, Small.StartQpc + 2);
        Assert.ThrowsExactly<ArgumentException>(() => writer.Add(PerfInfoEvents.SysClExit(c with { Cpu = 3 }, 0)), "CPU outside the trace");
        Assert.ThrowsExactly<ArgumentException>(() => writer.Add(PerfInfoEvents.SysClExit(c with { Timestamp = Small.StartQpc - 1 }, 0)), "before the start");
        Assert.ThrowsExactly<ArgumentException>(() => writer.Add(FileIoEvents.Name(c, FileIoEvents.NameType, 1, new string('x', 3000))), "larger than a buffer");
        var thirtyTwo = new EtlFileWriter(Small with { PointerSize = 4 });
        Assert.ThrowsExactly<ArgumentException>(() => thirtyTwo.Add(PerfInfoEvents.SysClExit(c, 0)), "64-bit record in a 32-bit trace");
        Assert.ThrowsExactly<ArgumentOutOfRangeException>(() => PerfInfoEvents.SysClEnter(c with { PointerSize = 4 }, 0x1_0000_0000));
    }

    private static byte[] Write(EtlTraceSettings s, int perCpu, ulong seed = 1)
    {
        var writer = new EtlFileWriter(s);
        writer.AddRange(RecordFixtures.Mixed(s, perCpu, seed));
        return writer.ToArray();
    }

    /// <summary>Offsets of the buffers, following BufferSize.</summary>
    internal static List<int> Buffers(byte[] file)
    {
        var list = new List<int>();
        for (var o = 0; o < file.Length; o += (int)U32(file, o)) list.Add(o);
        return list;
    }

    /// <summary>Record sizes and timestamps of an uncompressed buffer (SYSTEM/PERFINFO/EVENT_HEADER/classic layouts).</summary>
    private static List<(int Size, long Timestamp)> Records(ReadOnlySpan<byte> buffer)
    {
        var list = new List<(int, long)>();
        var o = 0x48;
        while (o < buffer.Length)
        {
            var r = buffer[o..];
            var type = r[2];
            int size = type is 1 or 2 or 3 or 4 or 16 or 17 ? BinaryPrimitives.ReadUInt16LittleEndian(r[4..]) : BinaryPrimitives.ReadUInt16LittleEndian(r);
            long ts = type is 16 or 17 ? BinaryPrimitives.ReadInt64LittleEndian(r[8..]) : BinaryPrimitives.ReadInt64LittleEndian(r[16..]);
            list.Add((size, ts));
            o += (size + 7) & ~7;
        }
        Assert.AreEqual(buffer.Length, o, "records end exactly at SavedOffset");
        return list;
    }

    private static uint U32(byte[] b, int o) => BinaryPrimitives.ReadUInt32LittleEndian(b.AsSpan(o));
    private static ushort U16(byte[] b, int o) => BinaryPrimitives.ReadUInt16LittleEndian(b.AsSpan(o));
}
