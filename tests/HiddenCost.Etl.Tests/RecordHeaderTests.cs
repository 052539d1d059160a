using System.Buffers.Binary;
using System.Text;
using HiddenCost.Etl.Header;
using HiddenCost.Etl.Records;

namespace HiddenCost.Etl.Tests;

/// <summary>
/// 32- and 64-bit record headers. No public sample comes from a 32-bit kernel, so the 32-bit SYSTEM, PERFINFO
/// and classic records and the 32-bit trace header are built here by hand (synthetic, per the layouts in the
/// ETL format notes §2.2–2.3); 32-bit EVENT_HEADER records are counted in the x86 sample.
/// </summary>
[TestClass]
public sealed class RecordHeaderTests
{
    [TestMethod]
    [DataRow((byte)1, RecordHeaderKind.System, false, 32)]
    [DataRow((byte)2, RecordHeaderKind.System, true, 32)]
    [DataRow((byte)3, RecordHeaderKind.Compact, false, 24)]
    [DataRow((byte)4, RecordHeaderKind.Compact, true, 24)]
    public void System_headers_read_size_hook_thread_process_and_time(byte type, RecordHeaderKind kind, bool is64, int headerSize)
    {
        var r = new byte[headerSize + 8];
        BinaryPrimitives.WriteUInt16LittleEndian(r, 3);          // version
        r[2] = type;
        r[3] = 0xC0;
        BinaryPrimitives.WriteUInt16LittleEndian(r.AsSpan(4), (ushort)r.Length);
        r[6] = 36;                                                 // type (opcode)
        r[7] = KernelGroups.Thread;                                // group
        BinaryPrimitives.WriteInt32LittleEndian(r.AsSpan(8), 4242);
        BinaryPrimitives.WriteInt32LittleEndian(r.AsSpan(12), 77);
        BinaryPrimitives.WriteInt64LittleEndian(r.AsSpan(16), 123_456_789);
        Assert.IsTrue(RecordHeader.TryParse(r, out var h, out var error), error);
        Assert.AreEqual(kind, h.Kind);
        Assert.AreEqual(is64, h.Is64Bit);
        Assert.AreEqual(r.Length, h.Size);
        Assert.AreEqual(headerSize, h.PayloadOffset);
        Assert.AreEqual((byte)36, h.Opcode);
        Assert.AreEqual(KernelGroups.Thread, h.Group);
        Assert.AreEqual(4242, h.ThreadId);
        Assert.AreEqual(77, h.ProcessId);
        Assert.AreEqual(123_456_789L, h.Timestamp);
        Assert.AreEqual((byte)3, h.Version);
    }

    [TestMethod]
    [DataRow((byte)16, false)]
    [DataRow((byte)17, true)]
    public void PerfInfo_headers_have_no_thread_and_a_timestamp_at_8(byte type, bool is64)
    {
        var r = new byte[16 + (is64 ? 16 : 8)];
        BinaryPrimitives.WriteUInt16LittleEndian(r, 2);
        r[2] = type;
        r[3] = 0xC0;
        BinaryPrimitives.WriteUInt16LittleEndian(r.AsSpan(4), (ushort)r.Length);
        r[6] = 46;
        r[7] = KernelGroups.PerfInfo;
        BinaryPrimitives.WriteInt64LittleEndian(r.AsSpan(8), 987_654_321);
        Assert.IsTrue(RecordHeader.TryParse(r, out var h, out var error), error);
        Assert.AreEqual(RecordHeaderKind.PerfInfo, h.Kind);
        Assert.AreEqual(is64, h.Is64Bit);
        Assert.AreEqual(16, h.PayloadOffset);
        Assert.AreEqual(-1, h.ThreadId);
        Assert.AreEqual(987_654_321L, h.Timestamp);
    }

    [TestMethod]
    [DataRow((byte)10, RecordHeaderKind.Classic, false, 48)]
    [DataRow((byte)20, RecordHeaderKind.Classic, true, 48)]
    [DataRow((byte)11, RecordHeaderKind.Instance, false, 72)]
    [DataRow((byte)21, RecordHeaderKind.Instance, true, 72)]
    public void Classic_headers_read_guid_and_class_type(byte type, RecordHeaderKind kind, bool is64, int headerSize)
    {
        var guid = new Guid("b3e675d7-2554-4f18-830b-2762732560de");
        var r = new byte[headerSize + 4];
        BinaryPrimitives.WriteUInt16LittleEndian(r, (ushort)r.Length);
        r[2] = type;
        r[3] = 0xC0;
        r[4] = 0x24;                                               // Class.Type = DbgID_RSDS
        r[5] = 4;                                                  // Class.Level
        BinaryPrimitives.WriteUInt16LittleEndian(r.AsSpan(6), 2); // Class.Version
        BinaryPrimitives.WriteInt32LittleEndian(r.AsSpan(8), 10);
        BinaryPrimitives.WriteInt32LittleEndian(r.AsSpan(12), 20);
        BinaryPrimitives.WriteInt64LittleEndian(r.AsSpan(16), 30);
        guid.TryWriteBytes(r.AsSpan(24));
        Assert.IsTrue(RecordHeader.TryParse(r, out var h, out var error), error);
        Assert.AreEqual(kind, h.Kind);
        Assert.AreEqual(is64, h.Is64Bit);
        Assert.AreEqual(headerSize, h.PayloadOffset);
        Assert.AreEqual(guid, h.ProviderId);
        Assert.AreEqual((byte)0x24, h.Opcode);
        Assert.AreEqual((byte)2, h.Version);
        Assert.AreEqual((byte)4, h.Level);
        Assert.AreEqual(10, h.ThreadId);
        Assert.AreEqual(30L, h.Timestamp);
    }

    [TestMethod]
    public void Event_header_32_and_64_bit_flags_override_the_header_type()
    {
        var r = new byte[88];
        BinaryPrimitives.WriteUInt16LittleEndian(r, 88);
        r[2] = 19;                                                 // EVENT_HEADER64 …
        r[3] = 0xC0;
        BinaryPrimitives.WriteUInt16LittleEndian(r.AsSpan(4), 0x0020); // … but flagged 32_BIT_HEADER
        Assert.IsTrue(RecordHeader.TryParse(r, out var h, out var error), error);
        Assert.IsFalse(h.Is64Bit);
        r[2] = 18;
        BinaryPrimitives.WriteUInt16LittleEndian(r.AsSpan(4), 0x0040);
        Assert.IsTrue(RecordHeader.TryParse(r, out h, out error), error);
        Assert.IsTrue(h.Is64Bit);
        BinaryPrimitives.WriteUInt16LittleEndian(r.AsSpan(4), 0);
        Assert.IsTrue(RecordHeader.TryParse(r, out h, out error), error);
        Assert.IsFalse(h.Is64Bit, "type 18 is EVENT_HEADER32");
    }

    [TestMethod]
    public void Trace_message_records_are_sized_from_their_first_field()
    {
        var r = new byte[24];
        BinaryPrimitives.WriteUInt16LittleEndian(r, 20);
        r[3] = 0x90;
        Assert.IsTrue(RecordHeader.TryParse(r, out var h, out var error), error);
        Assert.AreEqual(RecordHeaderKind.TraceMessage, h.Kind);
        Assert.AreEqual(20, h.Size);
    }

    /// <summary>A 32-bit TRACE_LOGFILE_HEADER: 4-byte name pointers put the time zone at 64 and BootTime at 240.</summary>
    [TestMethod]
    public void Trace_header_with_4_byte_pointers_uses_the_32_bit_layout()
    {
        var p = new byte[240 + 32 + 64];
        BinaryPrimitives.WriteUInt32LittleEndian(p, 65536);
        BinaryPrimitives.WriteUInt32LittleEndian(p.AsSpan(4), 0x0005_0106);   // 6.1, log format 5.0
        BinaryPrimitives.WriteUInt32LittleEndian(p.AsSpan(8), 7601);
        BinaryPrimitives.WriteUInt32LittleEndian(p.AsSpan(12), 2);
        BinaryPrimitives.WriteUInt32LittleEndian(p.AsSpan(32), 0x0001_0001);
        BinaryPrimitives.WriteUInt32LittleEndian(p.AsSpan(44), 4);
        BinaryPrimitives.WriteUInt32LittleEndian(p.AsSpan(48), 9);
        BinaryPrimitives.WriteUInt32LittleEndian(p.AsSpan(52), 2400);
        BinaryPrimitives.WriteInt32LittleEndian(p.AsSpan(64), -60);
        Encoding.Unicode.GetBytes("W. Europe Standard Time").CopyTo(p, 68);
        var start = new DateTime(2011, 3, 4, 5, 6, 7, DateTimeKind.Utc);
        BinaryPrimitives.WriteInt64LittleEndian(p.AsSpan(240), start.AddHours(-2).ToFileTimeUtc());
        BinaryPrimitives.WriteInt64LittleEndian(p.AsSpan(248), 3_579_545);
        BinaryPrimitives.WriteInt64LittleEndian(p.AsSpan(256), start.ToFileTimeUtc());
        BinaryPrimitives.WriteUInt32LittleEndian(p.AsSpan(264), 1);
        BinaryPrimitives.WriteUInt32LittleEndian(p.AsSpan(268), 7);
        Encoding.Unicode.GetBytes("NT Kernel Logger\0C:\\k.etl\0").CopyTo(p, 272);

        var h = TraceHeaderParser.Parse(p, 4, 1000, out var error);
        Assert.IsNotNull(h, error);
        Assert.AreEqual(7601u, h.Build);
        Assert.AreEqual("6.1.7601", h.OsVersion);
        Assert.AreEqual(4u, h.PointerSize);
        Assert.AreEqual(9u, h.EventsLost);
        Assert.AreEqual(-60, h.TimeZoneBiasMinutes);
        Assert.AreEqual("W. Europe Standard Time", h.TimeZoneStandardName);
        Assert.AreEqual(start.AddHours(-2), h.BootTimeUtc);
        Assert.AreEqual(3_579_545L, h.PerfFrequency);
        Assert.AreEqual(start, h.StartTimeUtc);
        Assert.AreEqual(ClockType.QueryPerformanceCounter, h.ClockType);
        Assert.AreEqual(7u, h.BuffersLost);
        Assert.AreEqual("NT Kernel Logger", h.LoggerName);
        Assert.AreEqual(@"C:\k.etl", h.LogFileName);
        Assert.AreEqual(1000L, h.StartTimestamp);
    }

    [TestMethod]
    public void Trace_header_that_is_too_short_gives_a_reason()
    {
        Assert.IsNull(TraceHeaderParser.Parse(new byte[100], 8, 0, out var error));
        StringAssert.Contains(error, "at least");
    }
}
