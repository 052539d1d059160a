using System.Buffers.Binary;

namespace HiddenCost.Benchmarks;

/// <summary>
/// Builds a large trace from a real, uncompressed one: the source's buffers, then its buffers again (all but
/// the first, which holds the trace header) as many times as needed, each copy with every record timestamp
/// and buffer flush time moved past the end of the previous copy. Each processor's stream therefore stays in
/// time order and the merge does the same work as on a long real capture. Timestamps inside payloads
/// (e.g. StackWalk's EventTimeStamp) are left alone: the benchmark reads them, it does not match them.
/// </summary>
internal static class LargeTraceBuilder
{
    private const int BufferHeaderSize = 0x48;

    public static string Build(string source, long minimumBytes, string folder)
    {
        Directory.CreateDirectory(folder);
        var target = Path.Combine(folder, $"{Path.GetFileNameWithoutExtension(source)}-x{minimumBytes >> 20}MiB.etl");
        if (File.Exists(target) && new FileInfo(target).Length >= minimumBytes) return target;

        var bytes = File.ReadAllBytes(source);
        var buffers = BufferOffsets(bytes);
        long first = long.MaxValue, last = long.MinValue;
        foreach (var (offset, size) in buffers)
        {
            foreach (int at in TimestampPositions(bytes, offset, size))
            {
                long ts = BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(at));
                first = Math.Min(first, ts);
                last = Math.Max(last, ts);
            }
        }
        long span = last - first + 1;

        var temp = target + ".tmp";
        using (var output = new FileStream(temp, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 20))
        {
            output.Write(bytes);
            var copy = new byte[bytes.Length];
            for (int round = 1; output.Length < minimumBytes; round++)
            {
                bytes.CopyTo(copy, 0);
                long shift = span * round;
                foreach (var (offset, size) in buffers.Skip(1))
                {
                    Shift(copy, offset + 0x10, shift); // flush time
                    foreach (int at in TimestampPositions(copy, offset, size)) Shift(copy, at, shift);
                    output.Write(copy, offset, size);
                }
            }
        }
        File.Move(temp, target, overwrite: true);
        return target;
    }

    private static void Shift(byte[] bytes, int at, long delta) =>
        BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(at), BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(at)) + delta);

    private static List<(int Offset, int Size)> BufferOffsets(byte[] bytes)
    {
        var list = new List<(int, int)>();
        for (int offset = 0; offset + BufferHeaderSize <= bytes.Length;)
        {
            int size = BinaryPrimitives.ReadInt32LittleEndian(bytes.AsSpan(offset));
            if ((BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(offset + 0x34)) & 0x40) != 0)
                throw new InvalidDataException("the source must be uncompressed (its records are rewritten in place)");
            if (size < BufferHeaderSize || offset + size > bytes.Length) throw new InvalidDataException($"bad buffer at 0x{offset:X}");
            list.Add((offset, size));
            offset += size;
        }
        return list;
    }

    /// <summary>Where each record's timestamp lies (per header kind), walking the buffer up to SavedOffset.</summary>
    private static IEnumerable<int> TimestampPositions(byte[] bytes, int offset, int size)
    {
        int saved = BinaryPrimitives.ReadInt32LittleEndian(bytes.AsSpan(offset + 4));
        int end = offset + (saved >= BufferHeaderSize && saved <= size ? saved : size);
        for (int pos = offset + BufferHeaderSize; pos + 8 <= end;)
        {
            if (BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(pos)) == 0xFFFF_FFFF) yield break;
            byte type = bytes[pos + 2];
            bool message = (bytes[pos + 3] & 0x90) == 0x90;
            int recordSize = type is 1 or 2 or 3 or 4 or 16 or 17 && !message
                ? BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(pos + 4))
                : BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(pos));
            if (recordSize < 8) yield break;
            if (!message) yield return pos + (type is 16 or 17 ? 8 : 16);
            pos += (recordSize + 7) & ~7;
        }
    }
}
