using System.Buffers.Binary;
using System.IO.Compression;
using HiddenCost.Symbols.Cab;
using HiddenCost.Symbols.Tests.Support;

namespace HiddenCost.Symbols.Tests;

[TestClass]
public sealed class CabinetTests
{
    [TestMethod]
    public void Gcab_mszip_cabinet_expands_to_the_original_pdb()
    {
        using var cab = File.OpenRead(Fixtures.Path("native.pd_"));
        using var output = new MemoryStream();
        Assert.AreEqual("native.pdb", CabinetReader.Expand(cab, "native.pd_", "NATIVE.PDB", output));
        CollectionAssert.AreEqual(File.ReadAllBytes(Fixtures.Path("native.pdb")), output.ToArray());
    }

    [TestMethod]
    public void Mszip_block_reaching_back_into_the_previous_blocks_output_expands()
    {
        // makecab and symstore share the deflate history across a folder's blocks (gcab does not): block 2 here is
        // only back references into block 1, the farthest 32,768 bytes back.
        var first = new byte[32768];
        new Random(3).NextBytes(first);
        var (cab, expected) = MsZipCabinetWriter.Write("shared.pdb", first, [(32768, 258), (1000, 100), (5, 20), (30000, 3)]);
        using var output = new MemoryStream();
        CabinetReader.Expand(new MemoryStream(cab), "shared.pd_", "shared.pdb", output);
        CollectionAssert.AreEqual(expected, output.ToArray());
        Assert.AreEqual(32768 + 381, expected.Length);
    }

    [TestMethod]
    public void Gcab_blocks_each_decode_alone()
    {
        // The committed fixture's three blocks, decoded in turn with one inflater, give the PDB.
        var bytes = File.ReadAllBytes(Fixtures.Path("native.pd_"));
        var blocks = DataBlocks(bytes);
        Assert.AreEqual(3, blocks.Count);
        var shared = new Inflater();
        var output = new byte[32768];
        using var all = new MemoryStream();
        foreach (var (offset, packed, unpacked) in blocks)
        {
            shared.Inflate(bytes, offset + 2, packed - 2, output.AsSpan(0, unpacked));
            all.Write(output, 0, unpacked);
        }
        CollectionAssert.AreEqual(File.ReadAllBytes(Fixtures.Path("native.pdb")), all.ToArray());
    }

    [TestMethod]
    public void Inflater_agrees_with_DeflateStream_on_each_block_type()
    {
        var random = new Random(5);
        foreach (var level in new[] { CompressionLevel.NoCompression, CompressionLevel.Fastest, CompressionLevel.SmallestSize })
            foreach (int size in new[] { 1, 100, 4000, 32768 })
            {
                var data = new byte[size];
                for (int i = 0; i < size; i++) data[i] = (byte)(random.Next(4) == 0 ? random.Next(256) : "symbols "[i % 8]);
                using var packed = new MemoryStream();
                using (var deflate = new DeflateStream(packed, level, leaveOpen: true)) deflate.Write(data);
                var output = new byte[size];
                new Inflater().Inflate(packed.ToArray(), 0, (int)packed.Length, output);
                CollectionAssert.AreEqual(data, output, $"{level}, {size} bytes");
            }
    }

    [TestMethod]
    public void Corrupt_deflate_data_is_refused_naming_the_cabinet()
    {
        var bytes = File.ReadAllBytes(Fixtures.Path("native.pd_"));
        var (offset, _, _) = DataBlocks(bytes)[0];
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(offset - 8), 0); // no checksum: reach the decoder
        for (int i = 2; i < 40; i++) bytes[offset + i] ^= 0x5A;
        var e = Assert.ThrowsExactly<SymbolFormatException>(() => CabinetReader.Expand(new MemoryStream(bytes), "bad.pd_", null, new MemoryStream()));
        StringAssert.StartsWith(e.Message, "bad.pd_: ");
    }

    [TestMethod]
    public void Corrupt_block_fails_its_checksum()
    {
        var bytes = File.ReadAllBytes(Fixtures.Path("native.pd_"));
        var (offset, _, _) = DataBlocks(bytes)[1];
        Assert.AreNotEqual(0u, BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(offset - 8)), "gcab writes checksums");
        bytes[offset + 10] ^= 1;
        var e = Assert.ThrowsExactly<SymbolFormatException>(() => CabinetReader.Expand(new MemoryStream(bytes), "bad.pd_", null, new MemoryStream()));
        StringAssert.Contains(e.Message, "data block 1 fails its checksum");
    }

    [TestMethod]
    public void Lzx_cabinet_is_reported_unsupported()
    {
        var bytes = File.ReadAllBytes(Fixtures.Path("native.pd_"));
        BinaryPrimitives.WriteUInt16LittleEndian(bytes.AsSpan(36 + 6), 0x1503); // folder 0: LZX, 2 MiB window
        var e = Assert.ThrowsExactly<SymbolFormatException>(() => CabinetReader.Expand(new MemoryStream(bytes), "lzx.pd_", null, new MemoryStream()));
        Assert.IsTrue(e.Unsupported);
        StringAssert.Contains(e.Message, "LZX compression");
    }

    [TestMethod]
    public void Truncated_cabinets_are_refused()
    {
        var bytes = File.ReadAllBytes(Fixtures.Path("native.pd_"));
        for (int length = 0; length < bytes.Length; length += 97)
            Assert.ThrowsExactly<SymbolFormatException>(() => CabinetReader.Expand(new MemoryStream(bytes[..length]), "cut.pd_", null, new MemoryStream()));
    }

    [TestMethod]
    public void Seeded_random_mutations_of_a_cabinet_expand_or_are_refused_never_crash()
    {
        var source = File.ReadAllBytes(Fixtures.Path("native.pd_"));
        var random = new Random(34);
        int expanded = 0, refused = 0;
        for (int round = 0; round < 3000; round++)
        {
            var bytes = (byte[])source.Clone();
            int hits = 1 + random.Next(3);
            for (int h = 0; h < hits; h++)
            {
                // Aim at the headers (the first 100 bytes: cabinet, folder, file, first CFDATA) or anywhere.
                int offset = random.Next(2) == 0 ? random.Next(100) : random.Next(bytes.Length);
                bytes[offset] = (byte)(random.Next(3) switch { 0 => 0, 1 => 0xFF, _ => random.Next(256) });
            }
            // Half without checksums, so that mutations reach the decoder instead of stopping at the checksum.
            if (round % 2 == 0)
                foreach (var (offset, _, _) in DataBlocks(source)) BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(offset - 8), 0);
            try
            {
                CabinetReader.Expand(new MemoryStream(bytes), "mutant.pd_", null, new MemoryStream());
                expanded++;
            }
            catch (SymbolFormatException e)
            {
                StringAssert.StartsWith(e.Message, "mutant.pd_: ");
                refused++;
            }
        }
        Assert.IsTrue(expanded > 100 && refused > 100, $"expanded {expanded}, refused {refused}");
    }

    /// <summary>The CFDATA blocks of a one-folder cabinet without reserves: (offset of the data, packed, unpacked).</summary>
    private static List<(int Offset, int Packed, int Unpacked)> DataBlocks(byte[] cab)
    {
        int at = (int)BinaryPrimitives.ReadUInt32LittleEndian(cab.AsSpan(36));
        int count = BinaryPrimitives.ReadUInt16LittleEndian(cab.AsSpan(40));
        var blocks = new List<(int, int, int)>();
        for (int i = 0; i < count; i++)
        {
            int packed = BinaryPrimitives.ReadUInt16LittleEndian(cab.AsSpan(at + 4)), unpacked = BinaryPrimitives.ReadUInt16LittleEndian(cab.AsSpan(at + 6));
            blocks.Add((at + 8, packed, unpacked));
            at += 8 + packed;
        }
        return blocks;
    }
}
