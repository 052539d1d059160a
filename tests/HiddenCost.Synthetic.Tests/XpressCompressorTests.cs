using HiddenCost.Synthetic.Etl;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Tests.Support;

namespace HiddenCost.Synthetic.Tests;

[TestClass]
public sealed class XpressCompressorTests
{
    [TestMethod]
    public void Empty_input_round_trips()
    {
        var compressed = XpressCompressor.Compress([]);
        Assert.AreEqual(4, compressed.Length);
        Assert.AreEqual(0, XpressDecompressor.Decompress(compressed, 0).Length);
    }

    [TestMethod]
    public void Random_bytes_round_trip()
    {
        var data = RandomBytes(70_000, seed: 7);
        CollectionAssert.AreEqual(data, XpressDecompressor.Decompress(XpressCompressor.Compress(data), data.Length));
    }

    [TestMethod]
    public void Runs_of_every_length_class_round_trip()
    {
        // Lengths that use the 3-bit field, the shared half byte, the extra byte, the u16 and the u32 forms.
        var data = new List<byte>();
        var random = new Prng(11);
        foreach (var run in new[] { 3, 9, 10, 21, 22, 23, 40, 276, 277, 278, 300, 5_000, 65_538, 70_000 })
        {
            for (var i = 0; i < 5; i++) data.Add((byte)random.Next(0, 256));
            data.AddRange(Enumerable.Repeat((byte)(run & 0xFF), run));
        }
        var bytes = data.ToArray();
        var compressed = XpressCompressor.Compress(bytes);
        Assert.IsTrue(compressed.Length < bytes.Length / 20, $"runs should compress well: {compressed.Length} of {bytes.Length}");
        CollectionAssert.AreEqual(bytes, XpressDecompressor.Decompress(compressed, bytes.Length));
    }

    [TestMethod]
    public void Consecutive_long_matches_share_the_half_byte_and_round_trip()
    {
        var unit = RandomBytes(40, seed: 3);
        var data = new List<byte>();
        for (var i = 0; i < 200; i++)
        {
            data.AddRange(unit.Take(10 + i % 20));
            data.Add((byte)i);
        }
        var bytes = data.ToArray();
        CollectionAssert.AreEqual(bytes, XpressDecompressor.Decompress(XpressCompressor.Compress(bytes), bytes.Length));
    }

    [TestMethod]
    public void Matches_reach_back_at_most_8192_bytes()
    {
        // The same block twice, 9000 bytes apart: too far for a match, so nothing compresses.
        var block = RandomBytes(9000, seed: 5);
        var bytes = block.Concat(block).ToArray();
        var compressed = XpressCompressor.Compress(bytes);
        Assert.IsTrue(compressed.Length > bytes.Length, "out-of-window repeats must not be encoded as matches");
        CollectionAssert.AreEqual(bytes, XpressDecompressor.Decompress(compressed, bytes.Length));
    }

    [TestMethod]
    public void Every_length_from_0_to_200_round_trips()
    {
        var pattern = RandomBytes(13, seed: 9);
        for (var n = 0; n <= 200; n++)
        {
            var bytes = Enumerable.Range(0, n).Select(i => pattern[i % 13]).ToArray();
            CollectionAssert.AreEqual(bytes, XpressDecompressor.Decompress(XpressCompressor.Compress(bytes), n), $"length {n}");
        }
    }

    [TestMethod]
    public void Compression_is_deterministic()
    {
        var data = RandomBytes(20_000, seed: 1).Concat(RandomBytes(20_000, seed: 1)).ToArray();
        CollectionAssert.AreEqual(XpressCompressor.Compress(data), XpressCompressor.Compress(data));
    }

    private static byte[] RandomBytes(int n, ulong seed)
    {
        var r = new Prng(seed);
        return Enumerable.Range(0, n).Select(_ => (byte)r.Next(0, 256)).ToArray();
    }
}
