using System.Buffers.Binary;

namespace HiddenCost.Cli.Tests.DamageCorpus;

/// <summary>
/// Makes damaged variants of one shared trace from a seed, the same ones every run: truncations at every buffer
/// boundary and around them, checked and random trace header fields, buffer sizes and buffer header bytes, end-of-records
/// markers and zero sizes over records, timestamps thrown years away, clocks out of range and a start time of 0, flipped
/// payload bytes, and the trace joined to another one. <paramref name="scale"/> multiplies the random cases' counts;
/// <paramref name="maxBoundaryCuts"/> bounds the cuts at boundaries (taken evenly across a trace that has more).
/// </summary>
internal static class DamageCorpusGenerator
{
    public static IEnumerable<DamageCase> Generate(string name, byte[] original, byte[] other, int seed, int scale = 1, int maxBoundaryCuts = int.MaxValue)
    {
        var layout = new TraceLayout(original);
        var random = new Random(HashCode.Combine(seed, StableHash(name)));
        var buffers = layout.Buffers;
        var records = layout.Records;
        var timed = records.Where(r => r.TimestampOffset >= 0).ToList();
        int n = scale;

        // Cut exactly at each buffer boundary: a shorter trace, told by the header's count of buffers written (not in a
        // circular file, which holds fewer once it wraps).
        int step = Math.Max(1, (buffers.Count - 1 + maxBoundaryCuts - 1) / maxBoundaryCuts);
        foreach (var b in buffers.Skip(1).Where((_, i) => i % step == 0))
            yield return Case($"cut at buffer boundary 0x{b.Offset:X}", original[..b.Offset], layout.CircularFile ? Expectation.MaybeUnseen : Expectation.Seen);
        // Around boundaries and anywhere inside buffers: the file ends inside a buffer (or its header).
        for (int i = 0; i < 6 * n; i++)
        {
            var b = buffers[random.Next(buffers.Count)];
            int at = i % 2 == 0
                ? b.Offset + (random.Next(2) == 0 ? -1 : 1) * random.Next(1, Math.Min(b.Size, 200))
                : b.Offset + random.Next(1, b.Size);
            if (at <= 0 || at >= original.Length) continue;
            yield return Case($"cut at 0x{at:X}", original[..at], Expectation.Seen);
        }

        // Trace header fields every figure depends on: refused (pointer size, processors, clock type) or damage (clock
        // rate, start time) — seen either way.
        foreach (var (field, at, size, value) in new (string, int, int, long)[]
        {
            ("pointer size 3", TraceLayout.PointerSize, 4, 3),
            ("pointer size 0", TraceLayout.PointerSize, 4, 0),
            ("0 processors", TraceLayout.NumberOfProcessors, 4, 0),
            ("5000 processors", TraceLayout.NumberOfProcessors, 4, 5000),
            ("clock type 9", layout.ClockType, 4, 9),
            ("a start time of 0", layout.StartTime, 8, 0),
            ("a 1 THz clock", layout.PerfFrequency, 8, 1_000_000_000_000),
            ("a 2^63 Hz clock", layout.PerfFrequency, 8, 0x7FFF_FFFF_FFFF_FFF0),
            ("a 0 Hz clock", layout.PerfFrequency, 8, 0),
            ("a negative clock", layout.PerfFrequency, 8, -10_000_000),
        })
            yield return Case($"trace header: {field}", With(original, at, size, value), Expectation.Seen);
        for (int i = 0; i < 2 * n; i++)
        {
            long hz = random.Next(2) == 0 ? random.NextInt64(1, 1_000_000) : random.NextInt64(10_000_000_001, long.MaxValue);
            yield return Case($"trace header: a {hz} Hz clock", With(original, layout.PerfFrequency, 8, hz), Expectation.Seen);
        }
        // Random bytes of the trace header record: most fields are read by nothing that checks them.
        for (int i = 0; i < 4 * n; i++)
            yield return Flips(original, random, $"trace header flip {i}", TraceLayout.BufferHeaderSize, TraceLayout.HeaderPayload + 0x140, Expectation.MaybeUnseen);

        // Buffer headers: an impossible size is seen; other bytes may be fields nothing reads.
        for (int i = 0; i < 3 * n && buffers.Count > 1; i++)
        {
            var b = buffers[random.Next(1, buffers.Count)];
            uint size = random.Next(2) == 0 ? (uint)random.Next(0, TraceLayout.BufferHeaderSize) : (uint)random.NextInt64(64L * 1024 * 1024 + 1, uint.MaxValue);
            yield return Case($"buffer 0x{b.Offset:X}: size {size}", With(original, b.Offset, 4, size), Expectation.Seen);
        }
        for (int i = 0; i < 4 * n && buffers.Count > 1; i++)
        {
            var b = buffers[random.Next(1, buffers.Count)];
            yield return Flips(original, random, $"buffer 0x{b.Offset:X} header flip {i}", b.Offset, b.Offset + TraceLayout.BufferHeaderSize, Expectation.MaybeUnseen);
        }

        // Records of uncompressed buffers: an end-of-records marker or a size of 0 over one, a timestamp thrown years
        // away (a byte above the sixth changed), and flipped payload bytes (seen only when an event no longer decodes).
        for (int i = 0; i < 3 * n && records.Count > 0; i++)
        {
            var r = records[random.Next(records.Count)];
            yield return Case($"end-of-records marker over the record at 0x{r.Offset:X}", With(original, r.Offset, 4, 0xFFFF_FFFF), Expectation.Seen);
        }
        for (int i = 0; i < 2 * n && records.Count > 0; i++)
        {
            var r = records[random.Next(records.Count)];
            var bytes = (byte[])original.Clone();
            bytes.AsSpan(r.Offset, 8).Clear();
            yield return Case($"record at 0x{r.Offset:X} zeroed (size 0)", bytes, Expectation.Seen);
        }
        for (int i = 0; i < 3 * n && timed.Count > 0; i++)
        {
            var r = timed[random.Next(timed.Count)];
            var bytes = (byte[])original.Clone();
            bytes[r.Offset + r.TimestampOffset + random.Next(6, 8)] ^= (byte)random.Next(1, 256);
            yield return Case($"timestamp of the record at 0x{r.Offset:X} thrown years away", bytes, Expectation.Seen);
        }
        for (int i = 0; i < 4 * n && records.Count > 0; i++)
        {
            var r = records[random.Next(records.Count)];
            if (r.Size <= r.HeaderSize) continue;
            yield return Flips(original, random, $"payload flip in the record at 0x{r.Offset:X}", r.Offset + r.HeaderSize, r.Offset + r.Size, Expectation.MaybeUnseen);
        }
        // Compressed buffers' data: the XPRESS stream fails or decodes to other records, seen or not.
        foreach (var b in buffers.Where(b => b.Compressed).Take(2 * n))
            yield return Flips(original, random, $"compressed data flip in buffer 0x{b.Offset:X}", b.Offset + TraceLayout.BufferHeaderSize, b.Offset + b.Size, Expectation.MaybeUnseen);

        // Joined to another trace (or itself), whole or cut: more buffers than the header says were written.
        yield return Case("joined to itself", [.. original, .. original], Expectation.Seen);
        yield return Case("joined to another trace", [.. original, .. other], Expectation.Seen);
        byte[] joined = [.. original, .. other];
        int cut = original.Length + random.Next(1, other.Length);
        yield return Case($"joined to another trace, cut at 0x{cut:X}", joined[..cut], Expectation.Seen);
    }

    private static DamageCase Case(string what, byte[] bytes, Expectation expect) => new(what, bytes, expect);

    private static byte[] With(byte[] original, int at, int size, long value)
    {
        var bytes = (byte[])original.Clone();
        if (size == 4) BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(at), (uint)value);
        else BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(at), value);
        return bytes;
    }

    private static DamageCase Flips(byte[] original, Random random, string what, int from, int to, Expectation expect)
    {
        var bytes = (byte[])original.Clone();
        int flips = random.Next(1, 5);
        for (int f = 0; f < flips; f++)
        {
            int at = random.Next(from, Math.Max(from + 1, Math.Min(to, bytes.Length)));
            bytes[at] ^= (byte)random.Next(1, 256);
        }
        return new DamageCase($"{what} ({flips} bytes)", bytes, expect);
    }

    /// <summary>string.GetHashCode differs from run to run; the corpus must not.</summary>
    private static int StableHash(string s)
    {
        int h = 17;
        foreach (char c in s) h = unchecked(h * 31 + c);
        return h;
    }
}
