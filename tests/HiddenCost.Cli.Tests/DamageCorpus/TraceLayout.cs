using System.Buffers.Binary;

namespace HiddenCost.Cli.Tests.DamageCorpus;

/// <summary>One buffer of a trace as the corpus sees it: where it lies, its sizes, and whether XPRESS compressed it.</summary>
internal readonly record struct LayoutBuffer(int Offset, int Size, int SavedOffset, bool Compressed);

/// <summary>One record of an uncompressed buffer: where it lies, its size, where its timestamp is (-1: none).</summary>
internal readonly record struct LayoutRecord(int Offset, int Size, int TimestampOffset, int HeaderSize);

/// <summary>
/// A small walker of its own (independent of the reader under test) that finds where to damage a trace: its buffers,
/// the records of its uncompressed buffers, and the trace header's fields. It knows each header kind's size field and
/// timestamp position only (layouts: the reader's references, WMI_BUFFER_HEADER and the event header kinds).
/// </summary>
internal sealed class TraceLayout
{
    public const int BufferHeaderSize = 0x48;
    /// <summary>The trace header's payload: after the first buffer header and the 32-byte system header before it.</summary>
    public const int HeaderPayload = 0x68;

    public TraceLayout(byte[] bytes)
    {
        Bytes = bytes;
        int offset = 0;
        while (offset + BufferHeaderSize <= bytes.Length)
        {
            int size = (int)BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(offset));
            int saved = (int)BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(offset + 4));
            bool compressed = (BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(offset + 0x34)) & 0x40) != 0;
            if (size < BufferHeaderSize || offset + size > bytes.Length) throw new InvalidDataException($"sample buffer at 0x{offset:X} has size {size}");
            Buffers.Add(new LayoutBuffer(offset, size, saved, compressed));
            if (!compressed) Records.AddRange(RecordsOf(bytes, offset, saved is >= BufferHeaderSize && saved <= size ? saved : size));
            offset += size;
        }
        int pointer = (int)BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(HeaderPayload + 44));
        int tail = (56 + 2 * pointer + 172 + 7) & ~7;
        PerfFrequency = HeaderPayload + tail + 8;
        StartTime = HeaderPayload + tail + 16;
        ClockType = HeaderPayload + tail + 24;
        CircularFile = (BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(HeaderPayload + 32)) & 0x2) != 0;
    }

    public byte[] Bytes { get; }
    public List<LayoutBuffer> Buffers { get; } = new();

    /// <summary>Records of uncompressed buffers, the trace header's own (the file's first) excluded.</summary>
    public List<LayoutRecord> Records { get; } = new();

    /// <summary>File offsets of trace header fields.</summary>
    public int PerfFrequency { get; }
    public int StartTime { get; }
    public int ClockType { get; }
    public const int PointerSize = HeaderPayload + 44;
    public const int NumberOfProcessors = HeaderPayload + 12;

    /// <summary>A circular file holds fewer buffers than were written once it wraps: a cut at a boundary cannot be told.</summary>
    public bool CircularFile { get; }

    private static IEnumerable<LayoutRecord> RecordsOf(byte[] bytes, int buffer, int end)
    {
        var list = new List<LayoutRecord>();
        int pos = BufferHeaderSize;
        while (pos + 8 <= end && BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(buffer + pos)) != 0xFFFF_FFFF)
        {
            var r = bytes.AsSpan(buffer + pos);
            byte type = r[2];
            int size, timestamp, header;
            if ((r[3] & 0x90) == 0x90) (size, timestamp, header) = (BinaryPrimitives.ReadUInt16LittleEndian(r), -1, 8); // trace message
            else if (type is 1 or 2 or 3 or 4) (size, timestamp, header) = (BinaryPrimitives.ReadUInt16LittleEndian(r[4..]), 16, type <= 2 ? 32 : 24);
            else if (type is 16 or 17) (size, timestamp, header) = (BinaryPrimitives.ReadUInt16LittleEndian(r[4..]), 8, 16);
            else if (type is 18 or 19) (size, timestamp, header) = (BinaryPrimitives.ReadUInt16LittleEndian(r), 16, 80);
            else (size, timestamp, header) = (BinaryPrimitives.ReadUInt16LittleEndian(r), 16, type is 11 or 21 ? 72 : 48);
            if (size < 8 || pos + size > end) throw new InvalidDataException($"sample record at 0x{buffer + pos:X} has size {size}");
            if (buffer + pos != BufferHeaderSize) list.Add(new LayoutRecord(buffer + pos, size, timestamp, header));
            pos += (size + 7) & ~7;
        }
        return list;
    }
}
