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
    public static bool TryParse(ReadOnlySpan<byte> r, out RecordHeader header, out string? error)
    {
        header = default;
        error = null;
        if (r.Length < 8)
        {
            error = "record header cut short";
            return false;
        }
        byte type = r[2];
        byte flags = r[3];
        if ((flags & 0x10) != 0 && (flags & 0x80) != 0)
        {
            // TRACE_MESSAGE: u16 Size first; the optional fields are not needed to skip it.
            int size = BinaryPrimitives.ReadUInt16LittleEndian(r);
            return Sized(r, size, 8, out header, out error,
                new RecordHeader(RecordHeaderKind.TraceMessage, false, size, size, 0, 0, 0, -1, -1, Guid.Empty, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        }
        switch (type)
        {
            case 1 or 2 or 3 or 4:
            {
                bool full = type <= 2;
                int headerSize = full ? 32 : 24;
                int size = BinaryPrimitives.ReadUInt16LittleEndian(r[4..]);
                if (r.Length < headerSize) { error = "system header cut short"; return false; }
                return Sized(r, size, headerSize, out header, out error, new RecordHeader(
                    full ? RecordHeaderKind.System : RecordHeaderKind.Compact, type % 2 == 0, size, headerSize, 0, 0,
                    BinaryPrimitives.ReadInt64LittleEndian(r[16..]),
                    BinaryPrimitives.ReadInt32LittleEndian(r[8..]),
                    BinaryPrimitives.ReadInt32LittleEndian(r[12..]),
                    Guid.Empty, r[7], r[6], 0, (byte)BinaryPrimitives.ReadUInt16LittleEndian(r), 0, 0, 0, 0, 0));
            }
            case 16 or 17:
            {
                int size = BinaryPrimitives.ReadUInt16LittleEndian(r[4..]);
                if (r.Length < 16) { error = "perfinfo header cut short"; return false; }
                return Sized(r, size, 16, out header, out error, new RecordHeader(
                    RecordHeaderKind.PerfInfo, type == 17, size, 16, 0, 0,
                    BinaryPrimitives.ReadInt64LittleEndian(r[8..]), -1, -1,
                    Guid.Empty, r[7], r[6], 0, (byte)BinaryPrimitives.ReadUInt16LittleEndian(r), 0, 0, 0, 0, 0));
            }
            case 18 or 19:
                return ParseEventHeader(r, type == 19, out header, out error);
            case 10 or 20 or 11 or 21:
            {
                bool instance = type is 11 or 21;
                int headerSize = instance ? 72 : 48;
                int size = BinaryPrimitives.ReadUInt16LittleEndian(r);
                if (r.Length < headerSize) { error = "classic header cut short"; return false; }
                return Sized(r, size, headerSize, out header, out error, new RecordHeader(
                    instance ? RecordHeaderKind.Instance : RecordHeaderKind.Classic, type >= 20, size, headerSize, 0, 0,
                    BinaryPrimitives.ReadInt64LittleEndian(r[16..]),
                    BinaryPrimitives.ReadInt32LittleEndian(r[8..]),
                    BinaryPrimitives.ReadInt32LittleEndian(r[12..]),
                    new Guid(r.Slice(24, 16)), 0, r[4], 0, (byte)BinaryPrimitives.ReadUInt16LittleEndian(r[6..]), r[5], 0, 0, 0, 0));
            }
            default:
                error = $"unknown record header type {type} (flags 0x{flags:X2})";
                return false;
        }
    }

    private static bool ParseEventHeader(ReadOnlySpan<byte> r, bool is64, out RecordHeader header, out string? error)
    {
        header = default;
        const int HeaderSize = 80;
        int size = BinaryPrimitives.ReadUInt16LittleEndian(r);
        if (r.Length < HeaderSize) { error = "event header cut short"; return false; }
        ushort flags = BinaryPrimitives.ReadUInt16LittleEndian(r[4..]);
        int payload = HeaderSize;
        if ((flags & 0x0001) != 0 && size >= HeaderSize)
        {
            // Extended data items: {u16 Reserved1; u16 ExtType; u16 Linkage:1; u16 DataSize} + data, 8-aligned.
            int limit = Math.Min(size, r.Length);
            while (true)
            {
                if (payload + 8 > limit) { error = "extended data item runs past the record"; return false; }
                int dataSize = BinaryPrimitives.ReadUInt16LittleEndian(r[(payload + 6)..]);
                bool more = (BinaryPrimitives.ReadUInt16LittleEndian(r[(payload + 4)..]) & 1) != 0;
                payload += (8 + dataSize + 7) & ~7;
                if (payload > limit) { error = "extended data item runs past the record"; return false; }
                if (!more) break;
            }
        }
        var parsed = new RecordHeader(
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
        return Sized(r, size, payload, out header, out error, parsed);
    }

    private static bool Sized(ReadOnlySpan<byte> r, int size, int minimum, out RecordHeader header, out string? error, RecordHeader parsed)
    {
        header = default;
        error = null;
        if (size < minimum) { error = $"record size {size} is smaller than its {minimum}-byte header"; return false; }
        if (size > r.Length) { error = $"record size {size} runs past the buffer's end ({r.Length} bytes left)"; return false; }
        header = parsed;
        return true;
    }
}
