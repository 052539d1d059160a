using System.Buffers.Binary;

namespace HiddenCost.Synthetic.Etl;

/// <summary>
/// WMI_BUFFER_HEADER, 0x48 bytes (ntwmi.h; etl-format-and-traceprocessing.md §2.1): u32 BufferSize;
/// u32 SavedOffset; u32 CurrentOffset; i32 ReferenceCount; i64 TimeStamp; i64 SequenceNumber;
/// u64 ClockType:3/Frequency:61; u16 ProcessorIndex; u16 LoggerId; u32 State; u32 Offset; u16 BufferFlag;
/// u16 BufferType; 16 bytes padding / reference clock.
/// </summary>
internal static class BufferHeader
{
    public const int Size = 0x48;

    public const ushort FlagFlushMarker = 0x0001;
    public const ushort FlagProcessorIndex = 0x0020;
    public const ushort FlagCompressed = 0x0040;

    public const ushort TypeGeneric = 0;
    public const ushort TypeHeader = 4;

    /// <summary>
    /// State of a flushed buffer (3) in every data buffer of the samples. In the first buffer of a compressed file
    /// the low 16 bits name the compression format, and 3 is COMPRESSION_FORMAT_XPRESS.
    /// </summary>
    public const uint StateFlushed = 3;
    public const uint CompressionFormatXpress = 3;

    public static void Write(
        Span<byte> d, int bufferSize, int savedOffset, long flushFileTime, long sequence, int cpu,
        uint state, ushort flags, ushort type)
    {
        d[..Size].Clear();
        BinaryPrimitives.WriteUInt32LittleEndian(d, (uint)bufferSize);
        BinaryPrimitives.WriteUInt32LittleEndian(d[0x04..], (uint)savedOffset);
        BinaryPrimitives.WriteUInt32LittleEndian(d[0x08..], (uint)savedOffset); // CurrentOffset
        BinaryPrimitives.WriteInt64LittleEndian(d[0x10..], flushFileTime);
        BinaryPrimitives.WriteInt64LittleEndian(d[0x18..], sequence);
        BinaryPrimitives.WriteUInt16LittleEndian(d[0x28..], (ushort)cpu);
        BinaryPrimitives.WriteUInt32LittleEndian(d[0x2C..], state);
        BinaryPrimitives.WriteUInt32LittleEndian(d[0x30..], (uint)savedOffset); // Offset
        BinaryPrimitives.WriteUInt16LittleEndian(d[0x34..], flags);
        BinaryPrimitives.WriteUInt16LittleEndian(d[0x36..], type);
    }
}
