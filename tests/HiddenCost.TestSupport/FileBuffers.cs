using System.Buffers.Binary;

namespace HiddenCost.TestSupport;

/// <summary>
/// Where the buffers of an .etl file lie, read from each buffer header's first field (its size), for tests and tools
/// that cut or damage files buffer by buffer. Stops at the first size that is impossible or runs past the end.
/// </summary>
public static class FileBuffers
{
    /// <summary>The size of a buffer header (WMI_BUFFER_HEADER); no buffer is smaller.</summary>
    public const int HeaderSize = 0x48;

    public static List<(int Offset, int Size)> Walk(ReadOnlySpan<byte> file)
    {
        var buffers = new List<(int, int)>();
        for (int at = 0; at + HeaderSize <= file.Length;)
        {
            int size = BinaryPrimitives.ReadInt32LittleEndian(file[at..]);
            if (size < HeaderSize || size > file.Length - at) break;
            buffers.Add((at, size));
            at += size;
        }
        return buffers;
    }
}
