using System.Buffers.Binary;

namespace HiddenCost.Etl.Buffers;

/// <summary>
/// The fields of WMI_BUFFER_HEADER (0x48 bytes, same for 32- and 64-bit) that reading needs.
/// Layout: ntwmi.h; Geoff Chappell's WMI_BUFFER_HEADER page.
/// </summary>
public readonly record struct BufferHeader(
    uint BufferSize,
    uint SavedOffset,
    uint CurrentOffset,
    long FlushTimestamp,
    int Processor,
    ushort LoggerId,
    uint State,
    BufferFlags Flags,
    ushort BufferType)
{
    public const int Size = 0x48;

    /// <summary>ETW buffers are at most a few MiB; anything beyond this is corruption, not data.</summary>
    public const uint MaxBufferSize = 64 * 1024 * 1024;

    public bool IsCompressed => (Flags & BufferFlags.Compressed) != 0;

    public static BufferHeader Parse(ReadOnlySpan<byte> b)
    {
        var flags = (BufferFlags)BinaryPrimitives.ReadUInt16LittleEndian(b[0x34..]);
        // ETW_BUFFER_CONTEXT: a 16-bit processor index when PROC_INDEX is set, else a byte processor number.
        int processor = (flags & BufferFlags.ProcessorIndex) != 0
            ? BinaryPrimitives.ReadUInt16LittleEndian(b[0x28..]) & 0x07FF
            : b[0x28];
        return new BufferHeader(
            BufferSize: BinaryPrimitives.ReadUInt32LittleEndian(b),
            SavedOffset: BinaryPrimitives.ReadUInt32LittleEndian(b[0x04..]),
            CurrentOffset: BinaryPrimitives.ReadUInt32LittleEndian(b[0x08..]),
            FlushTimestamp: BinaryPrimitives.ReadInt64LittleEndian(b[0x10..]),
            Processor: processor,
            LoggerId: BinaryPrimitives.ReadUInt16LittleEndian(b[0x2A..]),
            State: BinaryPrimitives.ReadUInt32LittleEndian(b[0x2C..]),
            Flags: flags,
            BufferType: BinaryPrimitives.ReadUInt16LittleEndian(b[0x36..]));
    }
}
