using System.Buffers.Binary;

namespace HiddenCost.Symbols.Tests.Support;

/// <summary>
/// Finds and patches parts of an MSF file in place, for mutation tests: the super block's fields, and the stream
/// directory (the fixtures' directory fits one block, listed first in the block map).
/// </summary>
internal sealed class PdbEditor(byte[] bytes)
{
    public byte[] Bytes { get; } = bytes;
    public int BlockSize => BinaryPrimitives.ReadInt32LittleEndian(Bytes.AsSpan(32));
    public int MapBlock => BinaryPrimitives.ReadInt32LittleEndian(Bytes.AsSpan(52));
    public int DirectoryOffset => BinaryPrimitives.ReadInt32LittleEndian(Bytes.AsSpan(MapBlock * BlockSize)) * BlockSize;
    public int StreamCount => BinaryPrimitives.ReadInt32LittleEndian(Bytes.AsSpan(DirectoryOffset));

    public int StreamSizeOffset(int stream) => DirectoryOffset + 4 + 4 * stream;
    public int StreamSize(int stream) => Math.Max(0, BinaryPrimitives.ReadInt32LittleEndian(Bytes.AsSpan(StreamSizeOffset(stream))));

    /// <summary>Where stream <paramref name="stream"/>'s <paramref name="index"/>th block number is kept in the directory.</summary>
    public int BlockEntryOffset(int stream, int index)
    {
        int at = DirectoryOffset + 4 + 4 * StreamCount;
        for (int i = 0; i < stream; i++) at += 4 * ((StreamSize(i) + BlockSize - 1) / BlockSize);
        return at + 4 * index;
    }

    public int BlockOf(int stream, int index) => BinaryPrimitives.ReadInt32LittleEndian(Bytes.AsSpan(BlockEntryOffset(stream, index)));

    /// <summary>The file offset of byte <paramref name="offset"/> of a stream.</summary>
    public int FileOffset(int stream, int offset) => BlockOf(stream, offset / BlockSize) * BlockSize + offset % BlockSize;

    public void WriteU32(int offset, uint value) => BinaryPrimitives.WriteUInt32LittleEndian(Bytes.AsSpan(offset), value);
}
