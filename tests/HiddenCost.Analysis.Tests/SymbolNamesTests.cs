using System.Reflection.PortableExecutable;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Etl;
using HiddenCost.Symbols.Resolution;
using HiddenCost.Symbols.Store;
using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Model;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// The session's native names: a synthetic trace (the project's writer) whose DbgID_RSDS records name the PDB
/// built by tests/HiddenCost.Symbols.Tests/Fixtures/build.sh, for a user image and for the kernel.
/// </summary>
[TestClass]
public sealed class SymbolNamesTests
{
    private static readonly string Fixtures = Path.Combine(SharedFolder.RepositoryRoot, "tests", "HiddenCost.Symbols.Tests", "Fixtures");

    [TestMethod]
    public void Images_whose_rsds_names_a_pdb_on_the_symbol_path_are_named_module_bang_function()
    {
        var key = NativeKey();
        var b = new TraceBuilder(new TraceBuilderSettings { Cpus = 1 });
        var process = b.AddProcess("native.exe", "native.exe");
        var image = b.AddImage(process, @"\Device\HarddiskVolume3\bin\native.exe", 0x6000);
        var thread = b.AddThread(process);
        b.Run(0, thread, b.At(0), b.At(2), new Activity("work", [image.At(0x1000 + 26)]));
        // After the builder's own (synthetic) identities: these name the built PDB, for the image and for ntoskrnl.
        b.Emit(KernelTraceControlEvents.DbgIdRsds(b.OnCpu(0, b.At(3)), image.Base, (uint)process.Pid, key.Guid, key.Age, "native.pdb"));
        b.Emit(KernelTraceControlEvents.DbgIdRsds(b.OnCpu(0, b.At(3)), b.Kernel.Base, 0, key.Guid, key.Age, "native.pdb"));
        var store = Path.Combine(Path.GetTempPath(), "hiddencost-symbolnames-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(store);
        File.Copy(Path.Combine(Fixtures, "native.pdb"), Path.Combine(store, "native.pdb"));

        using var resolver = new SymbolResolver(new SymbolResolverOptions { Path = SymbolPath.Parse(store, _ => null) });
        var session = new TraceSession(symbols: resolver);
        using (var reader = EtlReader.Open(b.Build().Bytes, "symbols.etl"))
            foreach (var e in reader.ReadEvents()) session.Observe(e);
        session.Complete();

        var loaded = session.State.ImagesOf(process.Pid).Single(i => i.FileName == "native.exe");
        Assert.IsTrue(session.Symbols.Available);
        Assert.AreEqual("native.exe!add", session.Symbols.Name(loaded, loaded.ImageBase + 0x1000 + 26));
        Assert.IsNull(session.Symbols.Name(loaded, loaded.ImageBase + 0x2004), ".rdata");
        Assert.AreEqual("ntoskrnl.exe!twice", session.Symbols.KernelSymbol("ntoskrnl.exe", 0x1000 + 34));
        Assert.IsNull(session.Symbols.KernelSymbol("hal.dll", 0x1000), "its (synthetic) PDB is not on the path");
        CollectionAssert.AreEqual(new[] { ("hal.dll", PdbState.NotFound), ("native.exe", PdbState.Loaded), ("ntoskrnl.exe", PdbState.Loaded) },
            session.Symbols.Statuses.Select(s => (s.ImageFileName, s.State)).ToArray());
    }

    [TestMethod]
    public void Without_a_resolver_nothing_is_named()
    {
        var session = new TraceSession();
        Assert.IsFalse(session.Symbols.Available);
        Assert.IsNull(session.Symbols.KernelSymbol("ntoskrnl.exe", 0x1000));
        Assert.AreEqual(0, session.Symbols.Statuses.Count);
    }

    private static PdbKey NativeKey()
    {
        using var pe = new PEReader(File.OpenRead(Path.Combine(Fixtures, "native.exe")));
        var data = pe.ReadCodeViewDebugDirectoryData(pe.ReadDebugDirectory().First(d => d.Type == DebugDirectoryEntryType.CodeView));
        return new PdbKey(data.Path, data.Guid, (uint)data.Age);
    }
}
