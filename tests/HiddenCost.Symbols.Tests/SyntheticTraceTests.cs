using HiddenCost.Etl;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.State;
using HiddenCost.Symbols.Resolution;
using HiddenCost.Symbols.Store;
using HiddenCost.Symbols.Tests.Support;
using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Model;

namespace HiddenCost.Symbols.Tests;

/// <summary>
/// End to end below the analyses: a synthetic trace (labelled so: the project's synthetic writer) whose DbgID_RSDS
/// names the built native.pdb, read by the ETL reader's system state; its CPU samples' addresses resolve to the names
/// llvm-pdbutil gives for them.
/// </summary>
[TestClass]
public sealed class SyntheticTraceTests
{
    [TestMethod]
    public void Samples_in_an_image_whose_rsds_names_a_built_pdb_resolve_to_its_functions()
    {
        var key = ImageIdentity.Native;
        var b = new TraceBuilder(new TraceBuilderSettings { Cpus = 1, SampleIntervalMs = 1 });
        var process = b.AddProcess("native.exe", "native.exe");
        var image = b.AddImage(process, @"\Device\HarddiskVolume3\bin\native.exe", 0x6000);
        var thread = b.AddThread(process);
        // Leaf first: add (0x1000 + 24) called from twice (+34), spin (+41), mainCRTStartup (+137); and an address in .rdata.
        b.Run(0, thread, b.At(0), b.At(20), new Activity("work",
            [image.At(0x1000 + 26), image.At(0x1000 + 40), image.At(0x1000 + 60), image.At(0x1000 + 140)],
            [image.At(0x2000 + 4), image.At(0x1000 + 140)]));
        // The builder's own DbgID_RSDS names a synthetic PDB; this later one names the built PDB, as a merged trace would.
        b.Emit(KernelTraceControlEvents.DbgIdRsds(b.OnCpu(0, b.At(21)), image.Base, (uint)process.Pid, key.Guid, key.Age, @"C:\build\native.pdb"));
        var trace = b.Build();

        using var reader = EtlReader.Open(trace.Bytes, "synthetic-native.etl");
        var state = new TraceState();
        var samples = new List<ulong>();
        foreach (var e in reader.ReadEvents())
        {
            state.Observe(e);
            if (SampledProfile.TryDecode(e, out var sample) && sample.ThreadId == thread.Tid) samples.Add(sample.InstructionPointer);
        }
        var loaded = state.ImagesOf(process.Pid).Single(i => i.FileName == "native.exe");
        var pdb = loaded.Pdb!.Value;
        Assert.AreEqual(key.StorePath, new PdbKey(pdb.PdbName, pdb.Signature, pdb.Age).StorePath);

        var store = Fixtures.TempFolder();
        Directory.CreateDirectory(Path.Combine(store, key.PdbName, key.Signature));
        File.Copy(Fixtures.Path("native.pdb"), Path.Combine(store, key.StorePath));
        using var resolver = new SymbolResolver(new SymbolResolverOptions { Path = SymbolPath.Parse(store, _ => null) });
        var module = resolver.GetModule(loaded.FileName, new PdbKey(pdb.PdbName, pdb.Signature, pdb.Age));
        var names = samples.Select(ip => module.Resolve((uint)(ip - loaded.ImageBase)) ?? $"{loaded.FileName}+0x{ip - loaded.ImageBase:X}").ToList();
        Assert.IsTrue(samples.Count >= 15, $"{samples.Count} samples");
        CollectionAssert.AreEquivalent(new[] { "native.exe!add", "native.exe+0x2004" }, names.Distinct().ToArray());
        Assert.AreEqual(names.Count(n => n == "native.exe!add"), module.FramesResolved);
    }
}
