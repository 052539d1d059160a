using System.Buffers.Binary;
using HiddenCost.Symbols.Pdb;
using HiddenCost.Symbols.Tests.Support;

namespace HiddenCost.Symbols.Tests;

/// <summary>
/// Corrupt PDBs, as a failing disk, a cut download or a hostile file gives them: each is refused with a
/// <see cref="SymbolFormatException"/> naming the file, never another exception, a hang or an allocation larger than the file.
/// </summary>
[TestClass]
public sealed class MutationTests
{
    private const int DbiStream = 3;

    private static byte[] Native() => File.ReadAllBytes(Fixtures.Path("native.pdb"));

    private static SymbolFormatException Refused(byte[] bytes, string name = "mutant.pdb")
    {
        var e = Assert.ThrowsExactly<SymbolFormatException>(() =>
        {
            using var pdb = PdbFile.Open(new MemoryStream(bytes), name);
            pdb.ReadPublics();
        });
        Assert.AreEqual(name, e.FilePath);
        StringAssert.StartsWith(e.Message, name + ": ");
        return e;
    }

    [TestMethod]
    public void Every_truncation_is_refused_as_truncated_or_not_a_pdb()
    {
        var bytes = Native();
        for (int length = 0; length < bytes.Length; length += length < 64 ? 1 : 509)
        {
            var e = Refused(bytes[..length]);
            Assert.IsTrue(e.Message.Contains("truncated") || e.Message.Contains("no MSF 7.0 signature"), $"{length}: {e.Message}");
        }
    }

    [TestMethod]
    public void Block_map_naming_a_block_past_the_end_is_refused()
    {
        var edit = new PdbEditor(Native());
        edit.WriteU32(52, 0xFFFFFFF0);
        StringAssert.Contains(Refused(edit.Bytes).Message, "names block 4294967280, outside the file's blocks 1..17");
    }

    [TestMethod]
    public void Stream_block_past_the_end_is_refused()
    {
        var edit = new PdbEditor(Native());
        edit.WriteU32(edit.BlockEntryOffset(DbiStream, 0), 1000);
        StringAssert.Contains(Refused(edit.Bytes).Message, "stream 3 names block 1000, outside the file's blocks 1..17");
    }

    [TestMethod]
    public void Stream_naming_a_block_twice_is_refused_as_a_loop()
    {
        var edit = new PdbEditor(File.ReadAllBytes(Fixtures.CppConPdb));
        var dbi = ReadDbi(edit);
        int symbols = BinaryPrimitives.ReadUInt16LittleEndian(dbi.AsSpan(20));
        Assert.IsTrue(edit.StreamSize(symbols) > edit.BlockSize, "CppCon's symbol records span blocks");
        edit.WriteU32(edit.BlockEntryOffset(symbols, 1), (uint)edit.BlockOf(symbols, 0));
        StringAssert.Contains(Refused(edit.Bytes).Message, $"stream {symbols} names block {edit.BlockOf(symbols, 0)} twice (a loop");
    }

    [TestMethod]
    public void Directory_listed_twice_in_the_block_map_is_refused_as_a_loop()
    {
        // A directory of several blocks whose block map names the same block for two of them.
        var streams = MsfWriter.ReadStreams(Fixtures.Path("native.pdb"));
        for (int i = 0; i < 200; i++) streams.Add([1]);
        var edit = new PdbEditor(MsfWriter.Write(streams, 512));
        int map = edit.MapBlock * 512;
        edit.WriteU32(map + 4, BinaryPrimitives.ReadUInt32LittleEndian(edit.Bytes.AsSpan(map)));
        StringAssert.Contains(Refused(edit.Bytes).Message, "the stream directory names block");
    }

    [TestMethod]
    public void Stream_larger_than_the_file_is_refused_before_any_allocation()
    {
        var edit = new PdbEditor(Native());
        edit.WriteU32(edit.StreamSizeOffset(DbiStream), 0x7FFF0000);
        StringAssert.Contains(Refused(edit.Bytes).Message, "stream 3 is 2147418112 bytes, larger than the file (73728 bytes)");
    }

    [TestMethod]
    public void Directory_counting_more_streams_than_it_holds_is_refused()
    {
        var edit = new PdbEditor(Native());
        edit.WriteU32(edit.DirectoryOffset, 0x40000000);
        StringAssert.Contains(Refused(edit.Bytes).Message, "the stream directory counts 1073741824 streams");
    }

    [TestMethod]
    public void Matching_identity_with_garbage_symbol_records_is_refused()
    {
        var edit = new PdbEditor(Native());
        int symbols = BinaryPrimitives.ReadUInt16LittleEndian(ReadDbi(edit).AsSpan(20));
        var random = new Random(7);
        for (int i = 0; i < edit.StreamSize(symbols); i++) edit.Bytes[edit.FileOffset(symbols, i)] = (byte)random.Next(256);
        using (var pdb = PdbFile.Open(new MemoryStream(edit.Bytes), "garbage.pdb"))
            Assert.IsTrue(pdb.Matches(new Guid("0608B959-9D4F-A73D-4C4C-44205044422E"), 1), "the identity still matches");
        StringAssert.Contains(Refused(edit.Bytes, "garbage.pdb").Message, "of the address map points at");
    }

    [TestMethod]
    public void Dbi_substreams_larger_than_the_stream_are_refused()
    {
        var edit = new PdbEditor(Native());
        edit.WriteU32(edit.FileOffset(DbiStream, 24), 0x7FFFFFF0);
        StringAssert.Contains(Refused(edit.Bytes).Message, "the DBI header's substreams add up to");
    }

    [TestMethod]
    public void Msfz_and_other_containers_are_reported_unsupported()
    {
        var msfz = new byte[4096];
        "Microsoft MSFZ Container\r\n\u001aALD\0\0"u8.CopyTo(msfz);
        var e = Refused(msfz);
        Assert.IsTrue(e.Unsupported);
        StringAssert.Contains(e.Message, "MSFZ");
        var cab = new byte[64];
        "MSCF"u8.CopyTo(cab);
        Assert.IsTrue(Refused(cab).Unsupported);
        var text = "<html><body>not found</body></html>                                  "u8.ToArray();
        var html = Refused(text);
        Assert.IsFalse(html.Unsupported);
        StringAssert.Contains(html.Message, "not a PDB");
    }

    [TestMethod]
    public void Seeded_random_mutations_are_read_or_refused_never_crash()
    {
        foreach (var source in new[] { Native(), File.ReadAllBytes(Fixtures.Path("x86.pdb")) })
        {
            var random = new Random(34);
            var original = new PdbEditor(source);
            int directory = original.DirectoryOffset;
            var dbiHeader = Enumerable.Range(0, 64).Select(i => original.FileOffset(DbiStream, i)).ToArray();
            int read = 0, refused = 0;
            for (int round = 0; round < 1500; round++)
            {
                var bytes = (byte[])source.Clone();
                int hits = 1 + random.Next(4);
                for (int h = 0; h < hits; h++)
                {
                    // Aim at the structures: the super block, the directory, the DBI and publics headers, or anywhere.
                    int offset = random.Next(5) switch
                    {
                        0 => random.Next(64),
                        1 => directory + random.Next(256),
                        2 => dbiHeader[random.Next(64)],
                        _ => random.Next(bytes.Length - 4),
                    };
                    uint value = random.Next(4) switch { 0 => 0, 1 => 0xFFFFFFFF, 2 => (uint)random.Next(64), _ => (uint)random.Next() };
                    if (random.Next(2) == 0) bytes[offset] = (byte)value;
                    else BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(Math.Min(offset, bytes.Length - 4)), value);
                }
                try
                {
                    using var pdb = PdbFile.Open(new MemoryStream(bytes), "mutant.pdb");
                    var publics = pdb.ReadPublics();
                    for (uint rva = 0x1000; rva < 0x1100; rva += 7) publics.FunctionAt(rva);
                    read++;
                }
                catch (SymbolFormatException e)
                {
                    StringAssert.StartsWith(e.Message, "mutant.pdb: ");
                    refused++;
                }
            }
            Assert.IsTrue(read > 100 && refused > 100, $"read {read}, refused {refused}");
        }
    }

    private static byte[] ReadDbi(PdbEditor edit)
    {
        var dbi = new byte[64];
        for (int i = 0; i < 64; i++) dbi[i] = edit.Bytes[edit.FileOffset(DbiStream, i)];
        return dbi;
    }
}
