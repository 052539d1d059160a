using HiddenCost.Symbols.Pdb;
using HiddenCost.Symbols.Tests.Support;

namespace HiddenCost.Symbols.Tests;

[TestClass]
public sealed class PdbReaderTests
{
    [TestMethod]
    [DataRow("native")]
    [DataRow("x86")]
    public void Built_pdb_identity_and_publics_match_llvm_pdbutil(string name)
    {
        var oracle = PdbUtilDump.Parse(File.ReadAllText(Fixtures.Path(name + ".publics.txt")));
        using var pdb = PdbFile.Open(Fixtures.Path(name + ".pdb"));
        AssertMatchesOracle(pdb, oracle, undecorated: name == "x86");
    }

    [TestMethod]
    public void Real_msvc_pdb_identity_and_publics_match_llvm_pdbutil()
    {
        var path = Fixtures.CppConPdb;
        var oracle = PdbUtilDump.Parse(File.ReadAllText(Fixtures.Path("CppCon.publics.txt")));
        using var pdb = PdbFile.Open(path);
        Assert.AreEqual(new Guid("12DC0A4F-BD7D-4F2A-A9BE-263BACAEB467"), pdb.Guid);
        Assert.AreEqual(5u, pdb.InfoAge);
        Assert.AreEqual((ushort)0x14C, pdb.Machine);
        AssertMatchesOracle(pdb, oracle, undecorated: true);
    }

    [TestMethod]
    public void Real_msvc_pdb_names_a_function_by_an_address_inside_it()
    {
        using var pdb = PdbFile.Open(Fixtures.CppConPdb);
        var publics = pdb.ReadPublics();
        Assert.AreEqual(198, publics.PublicCount);
        // @__security_check_cookie@4 at 0001:0746 (.text at 0x1000): fastcall decoration removed.
        Assert.AreEqual("__security_check_cookie", publics.FunctionAt(0x1000 + 746));
        Assert.AreEqual("__security_check_cookie", publics.FunctionAt(0x1000 + 747));
        Assert.AreEqual("?__scrt_initialize_type_info@@YAXXZ", publics.FunctionAt(0x1000 + 2401));
    }

    [TestMethod]
    public void Address_past_a_code_section_or_in_data_has_no_name()
    {
        using var pdb = PdbFile.Open(Fixtures.Path("native.pdb"));
        var publics = pdb.ReadPublics();
        var text = publics.Sections[0];
        Assert.AreEqual(".text", text.Name);
        Assert.IsTrue(text.Executable);
        Assert.AreEqual("mainCRTStartup", publics.FunctionAt(text.VirtualAddress + text.Size - 1));
        Assert.IsNull(publics.FunctionAt(text.VirtualAddress + text.Size), "past .text's end");
        Assert.IsNull(publics.FunctionAt(text.VirtualAddress - 1), "before .text");
        Assert.IsNull(publics.FunctionAt(publics.Sections[1].VirtualAddress), ".rdata holds `table`, a data public");
        Assert.IsNull(publics.FunctionAt(publics.Sections[2].VirtualAddress), ".data holds `counter`");
    }

    [TestMethod]
    public void Overloads_with_one_name_in_source_are_all_publics()
    {
        using var pdb = PdbFile.Open(Fixtures.Path("native.pdb"));
        var publics = pdb.ReadPublics();
        Assert.AreEqual("?area@shapes@@YAHH@Z", publics.FunctionAt(0x1000));
        Assert.AreEqual("?area@shapes@@YAHHH@Z", publics.FunctionAt(0x1000 + 12));
        Assert.AreEqual(8, publics.PublicCount);
        Assert.AreEqual(6, publics.Count, "the two data publics are not indexed");
    }

    private static void AssertMatchesOracle(PdbFile pdb, PdbUtilDump oracle, bool undecorated)
    {
        Assert.AreEqual(oracle.Guid, pdb.Guid);
        Assert.AreEqual(oracle.Age, pdb.InfoAge);
        Assert.IsTrue(pdb.Matches(oracle.Guid, pdb.Age));
        var publics = pdb.ReadPublics();
        Assert.AreEqual(oracle.Publics.Count, publics.PublicCount);
        CollectionAssert.AreEqual(oracle.Sections.Select(s => (s.VirtualAddress, s.VirtualSize, s.Executable)).ToList(),
            publics.Sections.Select(s => (s.VirtualAddress, s.Size, s.Executable)).ToList());
        var expected = oracle.CodePublicsByRva();
        Assert.AreEqual(expected.Count, publics.Count);
        for (int i = 0; i < publics.Count; i++)
        {
            uint rva = publics.RvaAt(i);
            Assert.IsTrue(expected.TryGetValue(rva, out var names), $"0x{rva:X} is no code public in the oracle");
            var ours = publics.NameAt(i);
            Assert.IsTrue(names.Any(n => n == ours || undecorated && Undecorated(n) == ours), $"0x{rva:X}: {ours} not in {string.Join(", ", names)}");
            Assert.AreEqual(i, publics.IndexOf(rva));
        }
    }

    private static string Undecorated(string name)
    {
        if (name.Length < 2 || name[0] is not ('_' or '@')) return name;
        int at = name.LastIndexOf('@');
        bool sized = at > 1 && at < name.Length - 1 && name[(at + 1)..].All(char.IsAsciiDigit);
        if (name[0] == '@' && !sized) return name;
        return name[1..(sized ? at : name.Length)];
    }
}
