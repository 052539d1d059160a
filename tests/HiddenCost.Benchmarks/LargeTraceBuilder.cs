using System.Buffers.Binary;
using HiddenCost.Etl.Buffers;

namespace HiddenCost.Benchmarks;

/// <summary>
/// Builds a large trace from a real one: the source's buffers, then its buffers again (all but the first,
/// which holds the trace header) as many times as needed, each copy with every record timestamp and buffer
/// flush time moved past the end of the previous copy. Each processor's stream therefore stays in time order
/// and the merge does the same work as on a long real capture. Compressed buffers are decompressed, shifted
/// and compressed again (<see cref="XpressEncoder"/>, each result checked by the reader's decoder). Timestamps
/// inside payloads (e.g. StackWalk's EventTimeStamp) are left alone: the benchmark reads them, it does not
/// match them.
/// </summary>
internal static class LargeTraceBuilder
{
    private const int BufferHeaderSize = 0x48;

    public static string Build(string source, long minimumBytes, string folder)
    {
        Directory.CreateDirectory(folder);
        var target = Path.Combine(folder, $"{Path.GetFileNameWithoutExtension(source)}-x{minimumBytes >> 20}MiB.etl");
        var bytes = File.ReadAllBytes(source);
        var buffers = BufferOffsets(bytes).Select(b => Plain(bytes, b.Offset, b.Size)).ToList();
        HiddenCost.Etl.Header.TraceHeader sourceHeader;
        using (var sourceReader = HiddenCost.Etl.EtlReader.Open(source)) sourceHeader = sourceReader.Header;
        if (File.Exists(target) && new FileInfo(target).Length >= minimumBytes && CountsItsCopies(target, buffers.Count, sourceHeader.EndTimeUtc)) return target;
        long first = long.MaxValue, last = long.MinValue;
        foreach (var buffer in buffers)
        {
            foreach (int at in TimestampPositions(buffer.Data))
            {
                long ts = BinaryPrimitives.ReadInt64LittleEndian(buffer.Data.AsSpan(at));
                first = Math.Min(first, ts);
                last = Math.Max(last, ts);
            }
        }
        long span = last - first + 1;

        // The copies first, then the header buffer in front of them with the count of buffers the whole file holds
        // (the reader warns of a file that holds more buffers than its trace header says were written: joined traces).
        var body = target + ".body.tmp";
        int written = buffers.Count;
        long bodyBytes = 0, lastShift = 0;
        using (var output = new FileStream(body, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 20))
        {
            output.Write(bytes.AsSpan(BufferOffsets(bytes)[0].Size));
            for (int round = 1; bodyBytes + bytes.Length < minimumBytes; round++)
            {
                long shift = span * round;
                lastShift = shift;
                foreach (var buffer in buffers.Skip(1))
                {
                    var data = (byte[])buffer.Data.Clone();
                    Shift(data, 0x10, shift); // flush time
                    foreach (int at in TimestampPositions(data)) Shift(data, at, shift);
                    var stored = buffer.Compressed ? Compress(data) : data;
                    output.Write(stored);
                    bodyBytes += stored.Length;
                    written++;
                }
            }
        }
        var temp = target + ".tmp";
        using (var output = new FileStream(temp, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 20))
        {
            var header = (byte[])buffers[0].Data.Clone();
            SetBuffersWritten(header, (uint)written);
            // The header's end moves with the last copy: the reader leaves out events stamped far past it (damage).
            MoveEndTime(header, (long)((Int128)lastShift * TimeSpan.TicksPerSecond / sourceHeader.TicksPerSecond));
            output.Write(buffers[0].Compressed ? Compress(header) : header);
            using var copies = File.OpenRead(body);
            copies.CopyTo(output);
        }
        File.Delete(body);
        File.Move(temp, target, overwrite: true);
        return target;
    }

    /// <summary>
    /// Whether a trace built before counts its copies' buffers in its header and ends after them (builds before these
    /// checks kept the source's count and end time).
    /// </summary>
    private static bool CountsItsCopies(string built, int sourceBuffers, DateTime? sourceEnd)
    {
        try
        {
            using var reader = HiddenCost.Etl.EtlReader.Open(built);
            return reader.Header.BuffersWritten > sourceBuffers && (sourceEnd is null || reader.Header.EndTimeUtc > sourceEnd);
        }
        catch (HiddenCost.Etl.EtlFormatException)
        {
            return false; // a damaged leftover (a build cut short): built again
        }
    }

    /// <summary>The trace header's BuffersWritten (its payload's offset 36), in the header record that opens a plain first buffer.</summary>
    private static void SetBuffersWritten(byte[] firstBuffer, uint buffers)
    {
        byte type = firstBuffer[BufferHeaderSize + 2];
        if (type is not (1 or 2 or 3 or 4)) throw new InvalidDataException("the first record is not the trace header's system record");
        int payload = BufferHeaderSize + (type <= 2 ? 32 : 24);
        BinaryPrimitives.WriteUInt32LittleEndian(firstBuffer.AsSpan(payload + 36), buffers);
    }

    /// <summary>Moves the trace header's EndTime (a FILETIME at its payload's offset 16) by <paramref name="by"/> (100 ns units); none stays none.</summary>
    private static void MoveEndTime(byte[] firstBuffer, long by)
    {
        byte type = firstBuffer[BufferHeaderSize + 2];
        int at = BufferHeaderSize + (type <= 2 ? 32 : 24) + 16;
        long end = BinaryPrimitives.ReadInt64LittleEndian(firstBuffer.AsSpan(at));
        if (end > 0) BinaryPrimitives.WriteInt64LittleEndian(firstBuffer.AsSpan(at), end + by);
    }

    /// <summary>A buffer as stored, or (compressed) its header plus the decompressed data up to SavedOffset.</summary>
    private static (byte[] Data, bool Compressed) Plain(byte[] file, int offset, int size)
    {
        var stored = file.AsSpan(offset, size);
        if ((BinaryPrimitives.ReadUInt16LittleEndian(stored[0x34..]) & 0x40) == 0) return (stored.ToArray(), false);
        int saved = BinaryPrimitives.ReadInt32LittleEndian(stored[4..]);
        var data = new byte[saved];
        stored[..BufferHeaderSize].CopyTo(data);
        if (XpressDecoder.Decompress(stored[BufferHeaderSize..], data.AsSpan(BufferHeaderSize)) != saved - BufferHeaderSize)
            throw new InvalidDataException($"source buffer at 0x{offset:X} does not decompress");
        return (data, true);
    }

    /// <summary>Compresses a plain buffer back into the stored form, and proves it decodes to the same bytes.</summary>
    private static byte[] Compress(byte[] plain)
    {
        var packed = XpressEncoder.Compress(plain.AsSpan(BufferHeaderSize));
        var check = new byte[plain.Length - BufferHeaderSize];
        if (XpressDecoder.Decompress(packed, check) != check.Length || !check.AsSpan().SequenceEqual(plain.AsSpan(BufferHeaderSize)))
            throw new InvalidOperationException("XPRESS round trip failed");
        var stored = new byte[BufferHeaderSize + packed.Length];
        plain.AsSpan(0, BufferHeaderSize).CopyTo(stored);
        BinaryPrimitives.WriteInt32LittleEndian(stored, stored.Length);
        packed.CopyTo(stored, BufferHeaderSize);
        return stored;
    }

    private static void Shift(byte[] bytes, int at, long delta) =>
        BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(at), BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(at)) + delta);

    private static List<(int Offset, int Size)> BufferOffsets(byte[] bytes)
    {
        var list = new List<(int, int)>();
        for (int offset = 0; offset + BufferHeaderSize <= bytes.Length;)
        {
            int size = BinaryPrimitives.ReadInt32LittleEndian(bytes.AsSpan(offset));
            if (size < BufferHeaderSize || offset + size > bytes.Length) throw new InvalidDataException($"bad buffer at 0x{offset:X}");
            list.Add((offset, size));
            offset += size;
        }
        return list;
    }

    /// <summary>Where each record's timestamp lies (per header kind) in a plain buffer, up to SavedOffset.</summary>
    private static IEnumerable<int> TimestampPositions(byte[] buffer)
    {
        int saved = BinaryPrimitives.ReadInt32LittleEndian(buffer.AsSpan(4));
        int end = saved >= BufferHeaderSize && saved <= buffer.Length ? saved : buffer.Length;
        for (int pos = BufferHeaderSize; pos + 8 <= end;)
        {
            if (BinaryPrimitives.ReadUInt32LittleEndian(buffer.AsSpan(pos)) == 0xFFFF_FFFF) yield break;
            byte type = buffer[pos + 2];
            bool message = (buffer[pos + 3] & 0x90) == 0x90;
            int recordSize = type is 1 or 2 or 3 or 4 or 16 or 17 && !message
                ? BinaryPrimitives.ReadUInt16LittleEndian(buffer.AsSpan(pos + 4))
                : BinaryPrimitives.ReadUInt16LittleEndian(buffer.AsSpan(pos));
            if (recordSize < 8) yield break;
            if (!message) yield return pos + (type is 16 or 17 ? 8 : 16);
            pos += (recordSize + 7) & ~7;
        }
    }
}
