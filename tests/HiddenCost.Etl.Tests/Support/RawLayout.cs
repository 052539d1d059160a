using System.Buffers.Binary;

namespace HiddenCost.Etl.Tests.Support;

/// <summary>One WMI_BUFFER_HEADER as the test reads it straight from the bytes (offsets per the ETL format notes).</summary>
internal readonly record struct RawBuffer(long Offset, uint BufferSize, uint SavedOffset, int Processor, ushort Flags)
{
    public bool IsCompressed => (Flags & 0x40) != 0;
}

/// <summary>One record of an uncompressed buffer: where it starts, its size, and where its timestamp lies.</summary>
internal readonly record struct RawRecord(long Offset, int Size, byte HeaderType, int TimestampOffset)
{
    public bool IsTraceMessage => TimestampOffset < 0;
}

/// <summary>
/// A deliberately small walker, independent of the reader's code, that the tests use to find buffer and record
/// boundaries (for counts, for damaging files at exact places, and to cross-check totals). It knows only the
/// size field and the timestamp position of each header kind.
/// </summary>
internal static class RawLayout
{
    public const int BufferHeaderSize = 0x48;

    public static List<RawBuffer> Buffers(ReadOnlySpan<byte> file)
    {
        var list = new List<RawBuffer>();
        long offset = 0;
        while (offset + BufferHeaderSize <= file.Length)
        {
            var b = file[(int)offset..];
            uint size = BinaryPrimitives.ReadUInt32LittleEndian(b);
            ushort flags = BinaryPrimitives.ReadUInt16LittleEndian(b[0x34..]);
            int cpu = (flags & 0x20) != 0 ? BinaryPrimitives.ReadUInt16LittleEndian(b[0x28..]) & 0x7FF : b[0x28];
            list.Add(new RawBuffer(offset, size, BinaryPrimitives.ReadUInt32LittleEndian(b[4..]), cpu, flags));
            if (size < BufferHeaderSize) break;
            offset += size;
        }
        return list;
    }

    /// <summary>The records of one uncompressed buffer, up to SavedOffset or the end marker.</summary>
    public static List<RawRecord> Records(ReadOnlySpan<byte> file, RawBuffer buffer)
    {
        var list = new List<RawRecord>();
        int end = (int)Math.Min(buffer.SavedOffset is >= BufferHeaderSize ? buffer.SavedOffset : buffer.BufferSize, buffer.BufferSize);
        var data = file.Slice((int)buffer.Offset, end);
        int pos = BufferHeaderSize;
        while (pos + 8 <= data.Length && BinaryPrimitives.ReadUInt32LittleEndian(data[pos..]) != 0xFFFF_FFFF)
        {
            var r = data[pos..];
            byte type = r[2];
            bool message = (r[3] & 0x90) == 0x90;
            int size;
            int timestampAt;
            if (message) { size = BinaryPrimitives.ReadUInt16LittleEndian(r); timestampAt = -1; }
            else if (type is 1 or 2 or 3 or 4) { size = BinaryPrimitives.ReadUInt16LittleEndian(r[4..]); timestampAt = 16; }
            else if (type is 16 or 17) { size = BinaryPrimitives.ReadUInt16LittleEndian(r[4..]); timestampAt = 8; }
            else { size = BinaryPrimitives.ReadUInt16LittleEndian(r); timestampAt = 16; }
            if (size < 8 || pos + size > data.Length) throw new InvalidDataException($"sample record at 0x{buffer.Offset + pos:X} has size {size}");
            list.Add(new RawRecord(buffer.Offset + pos, size, type, timestampAt));
            pos += (size + 7) & ~7;
        }
        return list;
    }

    public static long Timestamp(ReadOnlySpan<byte> file, RawRecord record) =>
        BinaryPrimitives.ReadInt64LittleEndian(file[(int)(record.Offset + record.TimestampOffset)..]);
}
