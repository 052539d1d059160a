using System.Text;
using HiddenCost.Etl.Buffers;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests;

[TestClass]
public sealed class XpressDecoderTests
{
    [TestMethod]
    public void Literal_run_from_the_MS_XCA_example_decodes()
    {
        // [MS-XCA] 3.1: 26 literals, then the unused flag bits set to 1.
        var input = new byte[] { 0x3F, 0x00, 0x00, 0x00 }.Concat(Encoding.ASCII.GetBytes("abcdefghijklmnopqrstuvwxyz")).ToArray();
        var output = new byte[26];
        Assert.AreEqual(26, XpressDecoder.Decompress(input, output));
        Assert.AreEqual("abcdefghijklmnopqrstuvwxyz", Encoding.ASCII.GetString(output));
    }

    [TestMethod]
    public void Overlapping_match_with_a_16_bit_length_from_the_MS_XCA_example_decodes()
    {
        // [MS-XCA] 3.1: "abc" x 100 = 3 literals + one match at distance 3 whose length (297) needs the
        // half-byte 15, the byte 255 and the 16-bit length 294.
        var input = new byte[] { 0xFF, 0xFF, 0xFF, 0x1F, 0x61, 0x62, 0x63, 0x17, 0x00, 0x0F, 0xFF, 0x26, 0x01 };
        var output = new byte[300];
        Assert.AreEqual(300, XpressDecoder.Decompress(input, output));
        Assert.AreEqual(string.Concat(Enumerable.Repeat("abc", 100)), Encoding.ASCII.GetString(output));
    }

    [TestMethod]
    public void Two_long_matches_share_one_half_byte_low_nibble_first()
    {
        // 4 literals, then two matches (distance 4, length code 7). The first reads a new byte 0x52 and uses
        // its low nibble (2 → length 12); the second uses the saved high nibble (5 → length 15).
        var input = new byte[] { 0xFF, 0xFF, 0xFF, 0x0F, (byte)'a', (byte)'b', (byte)'c', (byte)'d', 0x1F, 0x00, 0x52, 0x1F, 0x00 };
        var output = new byte[31];
        Assert.AreEqual(31, XpressDecoder.Decompress(input, output));
        Assert.AreEqual(string.Concat(Enumerable.Repeat("abcd", 8))[..31], Encoding.ASCII.GetString(output));
    }

    [TestMethod]
    public void Match_length_can_come_from_a_32_bit_field()
    {
        // 1 literal, then a distance-1 match: half-byte 15, byte 255, 16-bit 0 → 32-bit length 996 → 999 bytes.
        var input = new byte[] { 0xFF, 0xFF, 0xFF, 0x7F, (byte)'x', 0x07, 0x00, 0x0F, 0xFF, 0x00, 0x00, 0xE4, 0x03, 0x00, 0x00 };
        var output = new byte[1000];
        Assert.AreEqual(1000, XpressDecoder.Decompress(input, output));
        Assert.IsTrue(output.All(b => b == (byte)'x'));
    }

    [TestMethod]
    public void Every_compressed_buffer_of_the_samples_decompresses_to_SavedOffset_minus_0x48()
    {
        var buffers = CompressedBuffersOfTheSamples();
        foreach (var (name, input, expected) in buffers)
            Assert.AreEqual(expected, XpressDecoder.Decompress(input, new byte[expected]), name);
        Assert.AreEqual(359 + 275 + 2, buffers.Count);
    }

    /// <summary>The fast paths (wide literal and match copies, one-byte fills) give the specification's bytes.</summary>
    [TestMethod]
    public void Every_compressed_buffer_of_the_samples_decompresses_to_the_bytes_the_plain_algorithm_gives()
    {
        var buffers = CompressedBuffersOfTheSamples();
        foreach (var (name, input, expected) in buffers)
        {
            var fast = new byte[expected];
            var plain = new byte[expected];
            Assert.AreEqual(expected, ReferenceXpress.Decompress(input, plain), name);
            Assert.AreEqual(expected, XpressDecoder.Decompress(input, fast), name);
            CollectionAssert.AreEqual(plain, fast, name);
        }
        Assert.AreEqual(359 + 275 + 2, buffers.Count);
    }

    /// <summary>Each XPRESS buffer of the compressed samples: its compressed bytes and the size it must decompress to.</summary>
    private static List<(string Name, byte[] Input, int Expected)> CompressedBuffersOfTheSamples()
    {
        var buffers = new List<(string, byte[], int)>();
        foreach (var sample in new[] { Samples.NetX64, Samples.NetX86, Samples.SelfDescribingSingleEvent })
        {
            var bytes = Samples.Bytes(sample);
            foreach (var b in RawLayout.Buffers(bytes).Where(b => b.IsCompressed))
            {
                var input = bytes.AsSpan((int)b.Offset + RawLayout.BufferHeaderSize, (int)b.BufferSize - RawLayout.BufferHeaderSize).ToArray();
                buffers.Add(($"{sample} buffer at 0x{b.Offset:X}", input, (int)b.SavedOffset - RawLayout.BufferHeaderSize));
            }
        }
        return buffers;
    }

    /// <summary>
    /// Random token streams built to hit every path — literal runs of every length, matches at every distance
    /// from 1 to 40 (overlapping or not), long lengths, streams that end early — decode as the plain algorithm does.
    /// </summary>
    [TestMethod]
    public void Generated_streams_decode_as_the_plain_algorithm_does()
    {
        var random = new Random(2_0251_122);
        for (int i = 0; i < 5_000; i++)
        {
            var input = RandomStream(random);
            int size = random.Next(0, 3000);
            var fast = new byte[size];
            var plain = new byte[size];
            int expected = ReferenceXpress.Decompress(input, plain);
            int written = XpressDecoder.Decompress(input, fast);
            Assert.AreEqual(expected, written, $"case {i}");
            if (written > 0) CollectionAssert.AreEqual(plain[..written], fast[..written], $"case {i}");
        }
    }

    private static byte[] RandomStream(Random random)
    {
        var stream = new List<byte>();
        int produced = 0;
        for (int word = random.Next(1, 40); word > 0; word--)
        {
            uint flags = (uint)random.NextInt64(0, 1L << 32) & (random.Next(3) == 0 ? 0xFFFF0000u : 0xFFFFFFFFu);
            stream.AddRange(BitConverter.GetBytes(flags));
            for (int bit = 31; bit >= 0; bit--)
            {
                if ((flags & (1u << bit)) == 0)
                {
                    stream.Add((byte)random.Next(256));
                    produced++;
                    continue;
                }
                int offset = Math.Max(1, Math.Min(produced, random.Next(3) == 0 ? random.Next(1, 41) : random.Next(1, 8192)));
                int length = random.Next(4) switch { 0 => random.Next(3, 10), 1 => random.Next(10, 25), 2 => random.Next(25, 300), _ => random.Next(300, 1000) };
                int code = Math.Min(length - 3, 7);
                stream.Add((byte)(((offset - 1) << 3 | code) & 0xFF));
                stream.Add((byte)((offset - 1) >> 5));
                if (code == 7)
                {
                    int rest = length - 10;
                    // Each long match writes a length byte of its own; the decoder takes every second one's half byte
                    // from the first's byte, so later tokens drift out of step. That only varies the streams more:
                    // the two decoders must agree on any input.
                    if (rest < 15) stream.Add((byte)rest);
                    else
                    {
                        stream.Add(15);
                        int extra = length - 3 - 7 - 15;
                        if (extra < 255) stream.Add((byte)extra);
                        else
                        {
                            stream.Add(255);
                            stream.AddRange(BitConverter.GetBytes((ushort)(length - 3)));
                        }
                    }
                }
                produced += length;
            }
        }
        if (random.Next(4) == 0)
        {
            int cut = random.Next(1, Math.Min(8, stream.Count));
            stream.RemoveRange(stream.Count - cut, cut);
        }
        return stream.ToArray();
    }

    [TestMethod]
    [DataRow(new byte[] { 0xFF, 0xFF, 0xFF, 0x7F, 0x61, 0x18, 0x00 }, 10, DisplayName = "distance 4 reaches before the output start")]
    [DataRow(new byte[] { 0xFF, 0xFF, 0xFF, 0x7F, 0x61, 0x00, 0x00 }, 3, DisplayName = "match runs past the output end")]
    [DataRow(new byte[] { 0xFF, 0xFF, 0xFF, 0x7F, 0x61, 0x00 }, 10, DisplayName = "match token cut to one byte")]
    [DataRow(new byte[] { 0xFF, 0xFF, 0xFF, 0x7F, 0x61, 0x07, 0x00 }, 10, DisplayName = "half-byte missing")]
    [DataRow(new byte[] { 0xFF, 0xFF, 0xFF, 0x7F, 0x61, 0x07, 0x00, 0x0F }, 40, DisplayName = "length byte missing")]
    [DataRow(new byte[] { 0xFF, 0xFF, 0xFF, 0x7F, 0x61, 0x07, 0x00, 0x0F, 0xFF, 0x05 }, 40, DisplayName = "16-bit length cut short")]
    [DataRow(new byte[] { 0xFF, 0xFF, 0xFF, 0x7F, 0x61, 0x07, 0x00, 0x0F, 0xFF, 0x05, 0x00 }, 40, DisplayName = "16-bit length below 22")]
    [DataRow(new byte[] { 0xFF, 0xFF, 0xFF, 0x7F, 0x61, 0x07, 0x00, 0x0F, 0xFF, 0x00, 0x00, 0x01 }, 40, DisplayName = "32-bit length cut short")]
    [DataRow(new byte[] { 0xFF, 0xFF, 0xFF, 0x7F, 0x61, 0x07, 0x00, 0x0F, 0xFF, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF }, 40, DisplayName = "32-bit length of 4 GiB")]
    [DataRow(new byte[] { 0x00, 0x00, 0x00, 0x00, 0x61, 0x62, 0x63 }, 2, DisplayName = "literals overflow the output")]
    public void Corrupt_streams_are_rejected_without_exceptions(byte[] input, int outputSize)
    {
        var output = new byte[outputSize];
        Assert.AreEqual(-1, XpressDecoder.Decompress(input, output));
    }

    [TestMethod]
    public void A_stream_that_ends_early_reports_fewer_bytes_than_expected()
    {
        var input = new byte[] { 0x3F, 0x00, 0x00, 0x00 }.Concat(Encoding.ASCII.GetBytes("abc")).ToArray();
        Assert.AreEqual(3, XpressDecoder.Decompress(input, new byte[26]));
        Assert.AreEqual(0, XpressDecoder.Decompress(ReadOnlySpan<byte>.Empty, new byte[26]));
    }

    [TestMethod]
    public void Random_input_never_throws_and_never_claims_more_than_the_output()
    {
        var random = new Random(5_0501);
        var output = new byte[4096];
        for (int i = 0; i < 20_000; i++)
        {
            var input = new byte[random.Next(0, 300)];
            random.NextBytes(input);
            int size = random.Next(0, output.Length + 1);
            int written = XpressDecoder.Decompress(input, output.AsSpan(0, size));
            Assert.IsTrue(written >= -1 && written <= size, $"case {i}: {written} of {size}");
        }
    }

    [TestMethod]
    public void Damaged_real_buffers_fail_or_decode_within_bounds()
    {
        var bytes = Samples.Bytes(Samples.NetX64);
        var random = new Random(5_0502);
        var buffers = RawLayout.Buffers(bytes).Where(b => b.IsCompressed).ToList();
        int rejected = 0;
        for (int i = 0; i < 500; i++)
        {
            var b = buffers[random.Next(buffers.Count)];
            var input = bytes.AsSpan((int)b.Offset + RawLayout.BufferHeaderSize, (int)b.BufferSize - RawLayout.BufferHeaderSize).ToArray();
            for (int flips = random.Next(1, 9); flips > 0; flips--) input[random.Next(input.Length)] = (byte)random.Next(256);
            var output = new byte[b.SavedOffset - RawLayout.BufferHeaderSize];
            int written = XpressDecoder.Decompress(input, output);
            Assert.IsTrue(written >= -1 && written <= output.Length, $"case {i}");
            if (written != output.Length) rejected++;
        }
        Assert.IsTrue(rejected > 250, $"only {rejected} of 500 damaged buffers were noticed");
    }
}
