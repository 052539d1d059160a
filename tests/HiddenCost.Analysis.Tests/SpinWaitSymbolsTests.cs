using HiddenCost.Analysis.Tables.SpinWait;
using HiddenCost.Analysis.Tests.Support;
using HiddenCost.Etl;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// Spin detection by native function name: on the synthetic spin contention trace, PollingService.exe polls in
/// SwitchToThread and Sleep(0) loops. Without symbols its KernelBase frames are only a system module passed through
/// (not spin); with a synthetic KernelBase PDB stamped with the trace's KernelBase identity, CPU sampled in SleepEx and
/// SwitchToThread is spin, its call site the polling code that called them.
/// </summary>
[TestClass]
public sealed class SpinWaitSymbolsTests
{
    private static readonly (string Name, uint Rva)[] KernelBasePublics =
    [
        ("WaitForSingleObjectEx", 0x3_1E00),
        ("SleepEx", (uint)UserFunctions.KernelBaseSleepExRva),
        ("SwitchToThread", (uint)UserFunctions.KernelBaseSwitchToThreadRva),
        ("GetTickCount64", (uint)UserFunctions.KernelBaseSwitchToThreadRva + 0x80),
    ];

    [TestMethod]
    public void Samples_in_SleepEx_and_SwitchToThread_are_spin_of_the_polling_call_site_when_KernelBase_symbols_resolve()
    {
        var scenario = SpinContention.Generate();
        using var store = new SyntheticPdbStore(scenario.Bytes, "spin-contention").Add("KernelBase.dll", KernelBasePublics);
        using var resolver = store.Resolver();
        var named = TraceAnalyzer.Analyze(new TraceFileName(store.TracePath, store.TracePath), symbols: resolver);
        var plain = TraceAnalyzer.Analyze(store.TracePath);
        // The truth, from the samples as written: polling samples whose leaf is in KernelBase's SleepEx or SwitchToThread.
        var inYields = scenario.Trace.Samples.Count(sample => sample.Thread.Process.ImageName == "PollingService.exe" && LeafFunction(store, sample) is "SleepEx" or "SwitchToThread");
        Assert.IsTrue(inYields > 100, $"the polling loops are sampled in KernelBase ({inYields})");
        double expectedMs = inYields * scenario.Truth.SampleIntervalMs;

        var row = named.Table(SpinWaitTables.PerLock).Rows.Single(r => r.Process == "PollingService.exe");
        Assert.AreEqual("PollingService.exe", row.CallSite, "the caller of SleepEx/SwitchToThread: the polling code (its own PDB is not in the store)");
        Assert.AreEqual(expectedMs, row.SpinCpuMs, 1e-9);
        Assert.AreEqual(2, row.Threads);
        Assert.AreEqual(0, row.Contentions);
        Assert.AreEqual(expectedMs, named.Table(SpinWaitTables.ByProcess).Rows.Single(r => r.Process == "PollingService.exe").LockSpinCpuMs, 1e-9);

        var missing = named.Table(SpinWaitTables.PerLock).Notes.Single(n => n.Code == "symbols.missing").Text;
        StringAssert.StartsWith(missing, "Native spin functions are not recognised and call sites stay module+0xRVA where their PDB did not load: ");
        StringAssert.Contains(missing, $"ntdll.dll needs {store.KeyOf("ntdll.dll").StorePath}, not found");
        Assert.IsFalse(missing.Contains("KernelBase.dll needs"), missing);
        Assert.IsFalse(plain.Table(SpinWaitTables.PerLock).Notes.Any(n => n.Code == "symbols.missing"), "no symbol path: no note");

        // Without symbols, as before: KernelBase is a system module passed through, the polling loops are no lock spin.
        Assert.IsFalse(plain.Table(SpinWaitTables.PerLock).Rows.Any(r => r.Process == "PollingService.exe"));
        Assert.AreEqual(0, plain.Table(SpinWaitTables.ByProcess).Rows.Single(r => r.Process == "PollingService.exe").LockSpinCpuMs);
        // Every other row is the same with and without symbols (the managed locks' figures do not depend on native names).
        CollectionAssert.AreEqual(plain.Table(SpinWaitTables.PerLock).Rows.ToList(), named.Table(SpinWaitTables.PerLock).Rows.Where(r => r.Process != "PollingService.exe").ToList());
    }

    private static string? LeafFunction(SyntheticPdbStore store, EmittedSample sample)
    {
        var frame = store.State.ResolveFrame(sample.Thread.Process.Pid, sample.Frames[0], 0);
        if (frame.Image?.FileName != "KernelBase.dll") return null;
        return KernelBasePublics.Where(p => p.Rva <= frame.Rva).OrderByDescending(p => p.Rva).Select(p => p.Name).FirstOrDefault();
    }
}
