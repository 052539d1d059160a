using System.Buffers.Binary;

namespace HiddenCost.TestSupport;

/// <summary>
/// Copies of a real trace that are distinct files to a content hash but the same trace to the reader: the copy's
/// number is written into the last 8 bytes of an uncompressed buffer, after the buffer's data ends (its SavedOffset),
/// where no event lies. For tests and benchmarks that need many traces with different SHA-256s (a dataset skips
/// identical content as one trace).
/// </summary>
public static class TraceVariants
{
    private const ushort CompressedFlag = 0x40;

    /// <returns>False when the trace has no uncompressed buffer with 8 spare bytes (the copy is then byte-identical).</returns>
    public static bool Write(string source, string destination, long variant)
    {
        var bytes = File.ReadAllBytes(source);
        int slot = -1;
        foreach (var (offset, size) in FileBuffers.Walk(bytes))
        {
            uint saved = BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(offset + 4));
            ushort flags = BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(offset + 0x34));
            if ((flags & CompressedFlag) == 0 && saved >= FileBuffers.HeaderSize && saved <= size - 8) slot = offset + size - 8;
        }
        if (slot >= 0) BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(slot), variant);
        File.WriteAllBytes(destination, bytes);
        return slot >= 0;
    }
}
