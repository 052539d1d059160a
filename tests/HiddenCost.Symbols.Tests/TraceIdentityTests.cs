using HiddenCost.Etl;
using HiddenCost.Etl.State;
using HiddenCost.Symbols.Resolution;
using HiddenCost.TestSupport;

namespace HiddenCost.Symbols.Tests;

/// <summary>The resolver's input is what the ETL reader decodes from KernelTraceControl DbgID_RSDS: the same key, byte for byte.</summary>
[TestClass]
public sealed class TraceIdentityTests
{
    [TestMethod]
    public void Pdb_identities_of_a_real_merged_trace_become_the_same_store_keys()
    {
        using var reader = EtlReader.Open(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip"));
        var state = new TraceState();
        foreach (var e in reader.ReadEvents()) state.Observe(e);
        var identified = state.Images.Where(i => i.Pdb is not null).ToList();
        Assert.IsTrue(identified.Count > 50, $"{identified.Count} images with a PDB identity");
        foreach (var image in identified)
        {
            var pdb = image.Pdb!.Value;
            var key = new PdbKey(pdb.PdbName, pdb.Signature, pdb.Age);
            Assert.AreEqual(pdb.SymbolServerKey, key.StorePath, image.ToString());
        }
        // The 32-bit ntdll's, as the reference notes decode it (base 0x77710000, GUID ec83d8df-…, age 2, wntdll.pdb).
        var ntdll = identified.First(i => i.FileName.Equals("ntdll.dll", StringComparison.OrdinalIgnoreCase));
        Assert.AreEqual(0x77710000UL, ntdll.ImageBase);
        var pdbOfNtdll = ntdll.Pdb!.Value;
        Assert.AreEqual("wntdll.pdb/EC83D8DF555946E0B630133EBD9792662/wntdll.pdb", new PdbKey(pdbOfNtdll.PdbName, pdbOfNtdll.Signature, pdbOfNtdll.Age).StorePath);
    }
}
