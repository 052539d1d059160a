using System.Buffers.Binary;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests;

/// <summary>
/// Damaged copies of every real sample, made from a fixed seed: random byte flips, truncation at every buffer
/// boundary (and inside buffers), and corrupted size fields (buffer size, saved offset, processor and flags,
/// record sizes). Every case must either be rejected with an <see cref="EtlFormatException"/> or read to the
/// end, within a timeout and an allocation bound; a failure names the seed and the case. Random flips and size
/// corruption use each sample's first 2 MiB of whole buffers so that thousands of cases fit in CI's time;
/// <c>HIDDENCOST_MUTATION_SCALE</c> and <c>HIDDENCOST_MUTATION_SEED</c> run more (see the README).
/// </summary>
[TestClass]
public sealed class MutationTests
{
    private const int BaseBytes = 2 * 1024 * 1024;
    private const int FlipCasesPerSample = 250;
    private const int SizeCasesPerSample = 150;
    private const int InsideBufferCutsPerSample = 40;

    [TestMethod]
    [DynamicData(nameof(ReadableSamples))]
    public void Random_byte_flips_are_rejected_or_read_to_the_end(string sample)
    {
        var original = Base(sample, out var buffers);
        var tally = new MutationHarness.Tally();
        for (int i = 0; i < FlipCasesPerSample * MutationHarness.Scale; i++)
        {
            var random = CaseRandom(sample, "flip", i);
            var bytes = (byte[])original.Clone();
            // Half the cases aim at the headers (buffer headers and the start of buffer data), where a flip
            // changes structure; the rest land anywhere.
            int flips = random.Next(1, 9);
            for (int f = 0; f < flips; f++)
            {
                int at = random.Next(2) == 0
                    ? (int)buffers[random.Next(buffers.Count)].Offset + random.Next(RawLayout.BufferHeaderSize + 64)
                    : random.Next(bytes.Length);
                if (at >= bytes.Length) continue;
                if (random.Next(2) == 0) bytes[at] ^= (byte)(1 << random.Next(8));
                else bytes[at] = (byte)random.Next(256);
            }
            MutationHarness.Run(tally, bytes, $"{sample} flip case {i} ({flips} bytes)");
        }
        Report(tally, sample);
    }

    [TestMethod]
    [DynamicData(nameof(ReadableSamples))]
    public void Truncation_at_every_buffer_boundary_and_inside_buffers_reads_what_is_whole(string sample)
    {
        var original = Samples.Bytes(sample);
        var buffers = RawLayout.Buffers(original);
        var tally = new MutationHarness.Tally();
        foreach (var b in buffers)
        {
            // Cut exactly at the boundary: a smaller but undamaged trace (or too short to open).
            MutationHarness.Run(tally, original[..(int)b.Offset], $"{sample} cut at buffer boundary 0x{b.Offset:X}", headerOnlyWalk: false);
        }
        for (int i = 0; i < InsideBufferCutsPerSample * MutationHarness.Scale; i++)
        {
            var random = CaseRandom(sample, "cut", i);
            var b = buffers[random.Next(buffers.Count)];
            int at = (int)Math.Min(original.Length - 1, b.Offset + 1 + random.Next((int)Math.Max(1, b.BufferSize - 1)));
            MutationHarness.Run(tally, original[..at], $"{sample} cut case {i} at 0x{at:X}", headerOnlyWalk: false);
        }
        Report(tally, sample);
        Assert.AreEqual(buffers.Count + InsideBufferCutsPerSample * MutationHarness.Scale, tally.Cases);
    }

    [TestMethod]
    [DynamicData(nameof(ReadableSamples))]
    public void Corrupt_size_fields_are_rejected_or_read_to_the_end(string sample)
    {
        var original = Base(sample, out var buffers);
        var plainRecords = buffers.Where(b => !b.IsCompressed).SelectMany(b => RawLayout.Records(original, b)).ToList();
        var tally = new MutationHarness.Tally();
        for (int i = 0; i < SizeCasesPerSample * MutationHarness.Scale; i++)
        {
            var random = CaseRandom(sample, "size", i);
            var bytes = (byte[])original.Clone();
            string what;
            if (plainRecords.Count > 0 && random.Next(3) == 0)
            {
                var r = plainRecords[random.Next(plainRecords.Count)];
                int field = (int)r.Offset + (r.HeaderType is 1 or 2 or 3 or 4 or 16 or 17 ? 4 : 0);
                ushort value = Interesting16(random, (ushort)r.Size);
                BinaryPrimitives.WriteUInt16LittleEndian(bytes.AsSpan(field), value);
                what = $"record size at 0x{r.Offset:X} {r.Size} -> {value}";
            }
            else
            {
                var b = buffers[random.Next(buffers.Count)];
                var header = bytes.AsSpan((int)b.Offset);
                switch (random.Next(5))
                {
                    case 0:
                        uint size = Interesting32(random, b.BufferSize);
                        BinaryPrimitives.WriteUInt32LittleEndian(header, size);
                        what = $"BufferSize of 0x{b.Offset:X} -> {size}";
                        break;
                    case 1:
                        uint saved = Interesting32(random, b.SavedOffset);
                        BinaryPrimitives.WriteUInt32LittleEndian(header[4..], saved);
                        what = $"SavedOffset of 0x{b.Offset:X} -> {saved}";
                        break;
                    case 2:
                        ushort cpu = (ushort)random.Next(0x10000);
                        BinaryPrimitives.WriteUInt16LittleEndian(header[0x28..], cpu);
                        what = $"processor of 0x{b.Offset:X} -> {cpu}";
                        break;
                    case 3:
                        ushort flags = (ushort)(BinaryPrimitives.ReadUInt16LittleEndian(header[0x34..]) ^ (1 << random.Next(7)));
                        BinaryPrimitives.WriteUInt16LittleEndian(header[0x34..], flags);
                        what = $"flags of 0x{b.Offset:X} -> 0x{flags:X}";
                        break;
                    default:
                        int count = random.Next(1, 6);
                        for (int k = 0; k < count; k++)
                        {
                            var other = buffers[random.Next(buffers.Count)];
                            BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan((int)other.Offset + 4 * random.Next(2)), Interesting32(random, other.BufferSize));
                        }
                        what = $"{count} buffer sizes and saved offsets";
                        break;
                }
            }
            MutationHarness.Run(tally, bytes, $"{sample} size case {i}: {what}");
        }
        Report(tally, sample);
        Assert.IsTrue(tally.Warned + tally.Rejected > tally.Cases / 4, "the corruption must be noticed: " + tally);
    }

    public static IEnumerable<object[]> ReadableSamples => Samples.Readable.Select(s => new object[] { s });

    /// <summary>The sample's whole buffers within its first 2 MiB (at least two buffers).</summary>
    private static byte[] Base(string sample, out List<RawBuffer> buffers)
    {
        var all = Samples.Bytes(sample);
        var every = RawLayout.Buffers(all);
        buffers = every.TakeWhile((b, i) => i < 2 || b.Offset + b.BufferSize <= BaseBytes).ToList();
        var last = buffers[^1];
        return all[..(int)(last.Offset + last.BufferSize)];
    }

    private static Random CaseRandom(string sample, string kind, int index) =>
        new(HashCode.Combine(MutationHarness.Seed, StableHash(sample), StableHash(kind), index));

    private static int StableHash(string text)
    {
        int h = 17;
        foreach (char c in text) h = unchecked(h * 31 + c);
        return h;
    }

    private static uint Interesting32(Random random, uint current) => random.Next(9) switch
    {
        0 => 0,
        1 => 1,
        2 => 0x47,
        3 => 0x48,
        4 => current - 1,
        5 => current + 1,
        6 => 0xFFFF_FFFF,
        7 => 0x7FFF_FFFF,
        _ => (uint)random.NextInt64(0, 1L << 32),
    };

    private static ushort Interesting16(Random random, ushort current) => random.Next(8) switch
    {
        0 => 0,
        1 => 1,
        2 => 7,
        3 => 8,
        4 => (ushort)(current - 1),
        5 => (ushort)(current + 8),
        6 => 0xFFFF,
        _ => (ushort)random.Next(0x10000),
    };

    private static void Report(MutationHarness.Tally tally, string sample) => Console.WriteLine($"{sample}: {tally}");
}
