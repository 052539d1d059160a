using System.Buffers.Binary;

namespace HiddenCost.Etl.Records;

/// <summary>
/// The decoded header of one record. Offsets of payload and extended data are relative to the record start.
/// Layouts: etl-format reference §2.2 (SYSTEM_TRACE_HEADER, PERFINFO_TRACE_HEADER, EVENT_HEADER,
/// EVENT_TRACE_HEADER, EVENT_INSTANCE_GUID_HEADER, MESSAGE_TRACE_HEADER).
/// </summary>
internal readonly record struct RecordHeader(
    RecordHeaderKind Kind,
    bool Is64Bit,
    int Size,
    int PayloadOffset,
    int ExtendedOffset,
    int ExtendedLength,
    long Timestamp,
    int ThreadId,
    int ProcessId,
    Guid ProviderId,
    byte Group,
    byte Opcode,
    ushort EventId,
    byte Version,
    byte Level,
    byte Channel,
    ushort Task,
    ulong Keywords,
    ushort EventFlags)
{
    public const uint EndMarker = 0xFFFF_FFFF;

    /// <summary>
    /// Decodes the record header at the start of <paramref name="r"/> (the rest of the buffer).
    /// </summary>
    /// <returns>False with a reason when the bytes are not a valid record (unknown kind, impossible size).</returns>
    /// <remarks>
    /// Every record of a trace comes through here, so each path checks the sizes first and then writes the header
    /// once, straight into <paramref name="header"/>, rather than building it and copying it out.
    /// </remarks>
    public static bool TryParse(ReadOnlySpan<byte> r, out RecordHeader header, out string? error)
    {
        if (r.Length < 8) return Fail(out header, out error, "record header cut short");
        byte type = r[2];
        byte flags = r[3];
        if ((flags & 0x10) != 0 && (flags & 0x80) != 0)
        {
            // TRACE_MESSAGE: u16 Size first; the optional fields are not needed to skip it.
            int size = BinaryPrimitives.ReadUInt16LittleEndian(r);
            if ((error = SizeError(r, size, 8)) is not null) return Fail(out header);
            header = new RecordHeader(RecordHeaderKind.TraceMessage, false, size, size, 0, 0, 0, -1, -1, Guid.Empty, 0, 0, 0, 0, 0, 0, 0, 0, 0);
            return true;
        }
        switch (type)
        {
            case 1 or 2 or 3 or 4:
            {
                bool full = type <= 2;
                int headerSize = full ? 32 : 24;
                int size = BinaryPrimitives.ReadUInt16LittleEndian(r[4..]);
                if (r.Length < headerSize) return Fail(out header, out error, "system header cut short");
                if ((error = SizeError(r, size, headerSize)) is not null) return Fail(out header);
                header = new RecordHeader(
                    full ? RecordHeaderKind.System : RecordHeaderKind.Compact, type % 2 == 0, size, headerSize, 0, 0,
                    BinaryPrimitives.ReadInt64LittleEndian(r[16..]),
                    BinaryPrimitives.ReadInt32LittleEndian(r[8..]),
                    BinaryPrimitives.ReadInt32LittleEndian(r[12..]),
                    Guid.Empty, KernelGroup(r[7], r[6]), r[6], 0, (byte)BinaryPrimitives.ReadUInt16LittleEndian(r), 0, 0, 0, 0, 0);
                return true;
            }
            case 16 or 17:
            {
                int size = BinaryPrimitives.ReadUInt16LittleEndian(r[4..]);
                if (r.Length < 16) return Fail(out header, out error, "perfinfo header cut short");
                if ((error = SizeError(r, size, 16)) is not null) return Fail(out header);
                header = new RecordHeader(
                    RecordHeaderKind.PerfInfo, type == 17, size, 16, 0, 0,
                    BinaryPrimitives.ReadInt64LittleEndian(r[8..]), -1, -1,
                    Guid.Empty, KernelGroup(r[7], r[6]), r[6], 0, (byte)BinaryPrimitives.ReadUInt16LittleEndian(r), 0, 0, 0, 0, 0);
                return true;
            }
            case 18 or 19:
                return ParseEventHeader(r, type == 19, out header, out error);
            case 10 or 20 or 11 or 21:
            {
                bool instance = type is 11 or 21;
                int headerSize = instance ? 72 : 48;
                int size = BinaryPrimitives.ReadUInt16LittleEndian(r);
                if (r.Length < headerSize) return Fail(out header, out error, "classic header cut short");
                if ((error = SizeError(r, size, headerSize)) is not null) return Fail(out header);
                header = new RecordHeader(
                    instance ? RecordHeaderKind.Instance : RecordHeaderKind.Classic, type >= 20, size, headerSize, 0, 0,
                    BinaryPrimitives.ReadInt64LittleEndian(r[16..]),
                    BinaryPrimitives.ReadInt32LittleEndian(r[8..]),
                    BinaryPrimitives.ReadInt32LittleEndian(r[12..]),
                    new Guid(r.Slice(24, 16)), 0, r[4], 0, (byte)BinaryPrimitives.ReadUInt16LittleEndian(r[6..]), r[5], 0, 0, 0, 0);
                return true;
            }
            default:
                return Fail(out header, out error, $"unknown record header type {type} (flags 0x{flags:X2})");
        }
    }

    private static bool ParseEventHeader(ReadOnlySpan<byte> r, bool is64, out RecordHeader header, out string? error)
    {
        const int HeaderSize = 80;
        int size = BinaryPrimitives.ReadUInt16LittleEndian(r);
        if (r.Length < HeaderSize) return Fail(out header, out error, "event header cut short");
        ushort flags = BinaryPrimitives.ReadUInt16LittleEndian(r[4..]);
        int payload = HeaderSize;
        if ((flags & 0x0001) != 0 && size >= HeaderSize)
        {
            // Extended data items: {u16 Reserved1; u16 ExtType; u16 Linkage:1; u16 DataSize} + data, 8-aligned.
            int limit = Math.Min(size, r.Length);
            while (true)
            {
                if (payload + 8 > limit) return Fail(out header, out error, "extended data item runs past the record");
                int dataSize = BinaryPrimitives.ReadUInt16LittleEndian(r[(payload + 6)..]);
                bool more = (BinaryPrimitives.ReadUInt16LittleEndian(r[(payload + 4)..]) & 1) != 0;
                payload += (8 + dataSize + 7) & ~7;
                if (payload > limit) return Fail(out header, out error, "extended data item runs past the record");
                if (!more) break;
            }
        }
        if ((error = SizeError(r, size, payload)) is not null) return Fail(out header);
        header = new RecordHeader(
            RecordHeaderKind.EventHeader,
            (flags & 0x0020) != 0 ? false : (flags & 0x0040) != 0 || is64,
            size, payload, HeaderSize, payload - HeaderSize,
            BinaryPrimitives.ReadInt64LittleEndian(r[16..]),
            BinaryPrimitives.ReadInt32LittleEndian(r[8..]),
            BinaryPrimitives.ReadInt32LittleEndian(r[12..]),
            new Guid(r.Slice(24, 16)),
            0, r[45],
            BinaryPrimitives.ReadUInt16LittleEndian(r[40..]),
            r[42], r[44], r[43],
            BinaryPrimitives.ReadUInt16LittleEndian(r[46..]),
            BinaryPrimitives.ReadUInt64LittleEndian(r[48..]),
            flags);
        return true;
    }

    /// <summary>
    /// The group a kernel event belongs to as Windows' consumers present it (TDH and TraceEvent give it the group's
    /// task GUID). The one hook id logged under another group: an image load, WMI_LOG_TYPE_PROCESS_LOAD_IMAGE
    /// (0x030A, Process group, type 10, ntwmi.h), is Image Load like the image's Unload and rundown events.
    /// </summary>
    private static byte KernelGroup(byte group, byte type) =>
        group == KernelGroups.Process && type == 10 ? KernelGroups.Image : group;

    /// <summary>Why a record of <paramref name="size"/> bytes with a <paramref name="minimum"/>-byte header cannot be, or null.</summary>
    private static string? SizeError(ReadOnlySpan<byte> r, int size, int minimum) =>
        size < minimum ? $"record size {size} is smaller than its {minimum}-byte header"
        : size > r.Length ? $"record size {size} runs past the buffer's end ({r.Length} bytes left)"
        : null;

    private static bool Fail(out RecordHeader header)
    {
        header = default;
        return false;
    }

    private static bool Fail(out RecordHeader header, out string? error, string reason)
    {
        error = reason;
        return Fail(out header);
    }
}
