using System.Buffers.Binary;
using HiddenCost.Symbols.Msf;
using HiddenCost.Symbols.Pdb;
using HiddenCost.Symbols.Tests.Support;

namespace HiddenCost.Symbols.Tests;

[TestClass]
public sealed class MsfLayoutTests
{
    [TestMethod]
    [DataRow(512)]
    [DataRow(1024)]
    [DataRow(2048)]
    [DataRow(4096)]
    public void Real_pdb_laid_out_again_with_shuffled_blocks_reads_the_same(int blockSize)
    {
        var original = Fixtures.CppConPdb;
        var bytes = MsfWriter.Write(MsfWriter.ReadStreams(original), blockSize, seed: blockSize);
        using var expected = PdbFile.Open(original);
        using var rewritten = PdbFile.Open(new MemoryStream(bytes), "rewritten.pdb");
        Assert.AreEqual(blockSize, rewritten.BlockSize);
        AssertSamePublics(expected.ReadPublics(), rewritten.ReadPublics());
    }

    [TestMethod]
    public void Directory_whose_block_map_spans_several_blocks_is_read()
    {
        // 9,000 more one-byte streams at 512 bytes a block: a directory of over 128 blocks, whose block list takes 2 blocks.
        var streams = MsfWriter.ReadStreams(Fixtures.Path("native.pdb"));
        for (int i = 0; i < 9000; i++) streams.Add([(byte)i]);
        var bytes = MsfWriter.Write(streams, 512);
        Assert.AreEqual(2, (4 * (int)Math.Ceiling(BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(44)) / 512.0) + 511) / 512);
        using var msf = MsfFile.Open(new MemoryStream(bytes), "big-directory.pdb");
        Assert.AreEqual(streams.Count, msf.StreamCount);
        CollectionAssert.AreEqual(new byte[] { 8999 % 256 }, msf.ReadStream(msf.StreamCount - 1));
        using var pdb = PdbFile.Open(new MemoryStream(bytes), "big-directory.pdb");
        using var expected = PdbFile.Open(Fixtures.Path("native.pdb"));
        AssertSamePublics(expected.ReadPublics(), pdb.ReadPublics());
    }

    [TestMethod]
    public void Pdb_without_section_headers_lays_sections_out_from_the_section_map()
    {
        // As an NGen'd image's PDB: the debug header names no section-header stream.
        var streams = MsfWriter.ReadStreams(Fixtures.Path("native.pdb"));
        var dbi = streams[3];
        int debugHeader = DbiDebugHeaderOffset(dbi);
        BinaryPrimitives.WriteUInt16LittleEndian(dbi.AsSpan(debugHeader + 2 * 5), 0xFFFF);
        using var pdb = PdbFile.Open(new MemoryStream(MsfWriter.Write(streams, 4096)), "ngen-style.pdb");
        var publics = pdb.ReadPublics();
        CollectionAssert.AreEqual(new uint[] { 0x1000, 0x2000, 0x3000, 0x4000 }, publics.Sections.Take(4).Select(s => s.VirtualAddress).ToArray());
        CollectionAssert.AreEqual(new[] { true, false, false, false }, publics.Sections.Take(4).Select(s => s.Executable).ToArray());
        using var expected = PdbFile.Open(Fixtures.Path("native.pdb"));
        AssertSamePublics(expected.ReadPublics(), publics);
    }

    [TestMethod]
    public void Section_map_layout_rounds_each_section_end_up_to_a_page()
    {
        // Entries: code of 0x2345 bytes, data of 0x10, data of 0x1000, then the absolute pseudo-section.
        var map = new byte[4 + 4 * 20];
        BinaryPrimitives.WriteUInt16LittleEndian(map, 4);
        void Entry(int i, ushort flags, uint length)
        {
            BinaryPrimitives.WriteUInt16LittleEndian(map.AsSpan(4 + 20 * i), flags);
            BinaryPrimitives.WriteUInt32LittleEndian(map.AsSpan(4 + 20 * i + 16), length);
        }
        Entry(0, 0x10D, 0x2345);
        Entry(1, 0x10B, 0x10);
        Entry(2, 0x109, 0x1000);
        Entry(3, 0x208, 0xFFFFFFFF);
        var sections = ImageSection.FromSectionMap(map, "map.pdb");
        CollectionAssert.AreEqual(new[]
        {
            new ImageSection("", 0x1000, 0x2345, true), new ImageSection("", 0x4000, 0x10, false),
            new ImageSection("", 0x5000, 0x1000, false), new ImageSection("", 0, 0, false),
        }, sections);
    }

    internal static int DbiDebugHeaderOffset(byte[] dbi)
    {
        int at = 64;
        foreach (int field in new[] { 24, 28, 32, 36, 40, 52 }) at += BinaryPrimitives.ReadInt32LittleEndian(dbi.AsSpan(field));
        return at;
    }

    private static void AssertSamePublics(PublicSymbolTable expected, PublicSymbolTable actual)
    {
        Assert.AreEqual(expected.PublicCount, actual.PublicCount);
        Assert.AreEqual(expected.Count, actual.Count);
        for (int i = 0; i < expected.Count; i++)
        {
            Assert.AreEqual(expected.RvaAt(i), actual.RvaAt(i));
            Assert.AreEqual(expected.NameAt(i), actual.NameAt(i));
        }
    }
}
