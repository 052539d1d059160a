using HiddenCost.Etl.Decoding.KernelTraceControl;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.Decoding;

[TestClass]
public sealed class KernelTraceControlTests
{
    private static readonly Guid WntdllSignature = new("ec83d8df-5559-46e0-b630-133ebd979266");

    [TestMethod]
    public void DbgID_RSDS_gives_ntdll_its_pdb_identity()
    {
        var x64 = SampleScan.Of("perfview/net.4.5.2.x64.etl.zip");
        Assert.AreEqual(3_534, x64.Rsds.Count);
        var rsds = x64.Rsds.First(r => r.ImageBase == 0x7771_0000);
        Assert.AreEqual(new DbgIdRsds(0x7771_0000, 4, WntdllSignature, 2, "wntdll.pdb"), rsds);
        var ntdll = x64.State.ImagesOf(4).First(i => i.ImageBase == 0x7771_0000);
        Assert.AreEqual("wntdll.pdb", ntdll.Pdb!.Value.PdbName);
        Assert.AreEqual(WntdllSignature, ntdll.Pdb.Value.Signature);
        Assert.AreEqual(2U, ntdll.Pdb.Value.Age);
        Assert.AreEqual("wntdll.pdb/EC83D8DF555946E0B630133EBD9792662/wntdll.pdb", ntdll.Pdb.Value.SymbolServerKey);
        Assert.AreEqual("ntdll.dll", ntdll.OriginalFileName);
    }

    [TestMethod]
    public void Kernel_module_gets_its_pdb_identity()
    {
        var ntoskrnl = SampleScan.Of("perfview/net.4.5.2.x64.etl.zip").State.ImagesOf(0).Single(i => i.FileName == "ntoskrnl.exe");
        Assert.AreEqual(new Guid("72482100-1c1c-4a03-aed8-c4c71c2e8d1d"), ntoskrnl.Pdb!.Value.Signature);
        Assert.AreEqual("ntkrnlmp.pdb", ntoskrnl.Pdb.Value.PdbName);
    }

    [TestMethod]
    public void Every_image_of_the_x64_sample_with_an_RSDS_record_gets_it()
    {
        var x64 = SampleScan.Of("perfview/net.4.5.2.x64.etl.zip");
        Assert.AreEqual(3_590, x64.Count("ImageId"));
        // 1,767: an image loaded twice at one base (mscorlib twice, combase) gets the record that follows each load.
        Assert.AreEqual(1_767, x64.State.Images.Count(i => i.Pdb is not null));
    }

    [TestMethod]
    public void Volume_mappings_turn_nt_paths_into_dos_paths()
    {
        var state = SampleScan.Of("perfview/net.4.5.2.x64.etl.zip").State;
        Assert.AreEqual(@"C:\Windows\SysWOW64\ntdll.dll", state.ToDosPath(@"\Device\HarddiskVolume2\Windows\SysWOW64\ntdll.dll"));
        Assert.AreEqual(@"C:\Windows\System32\smss.exe", state.ToDosPath(@"\SystemRoot\System32\smss.exe"));
        Assert.AreEqual(@"\Device\Unknown7\x.dll", state.ToDosPath(@"\Device\Unknown7\x.dll"));
    }
}
