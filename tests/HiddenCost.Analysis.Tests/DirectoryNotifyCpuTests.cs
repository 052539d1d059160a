using HiddenCost.Analysis.Tables.DirectoryNotify;
using HiddenCost.Analysis.Tests.Support;
using HiddenCost.Etl;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// Notify CPU (ms) from kernel samples in the notify-buffer path: on the synthetic notify buffer storm, ingest.exe's
/// file churn is sampled in memset under FsRtlNotifyFilterReportChangeLiteEx. With a synthetic kernel PDB stamped with
/// the scenario kernel's identity those frames are named and the samples counted; without symbols the column stays empty.
/// </summary>
[TestClass]
public sealed class DirectoryNotifyCpuTests
{
    private static readonly (string Name, uint Rva)[] KernelPublics =
    [
        ("KiSwapThread", (uint)KernelFunctions.KiSwapThreadRva),
        ("FsRtlNotifyFilterReportChangeLiteEx", (uint)KernelFunctions.FsRtlNotifyFilterReportChangeLiteExRva),
        ("FsRtlCheckOplock", (uint)KernelFunctions.FsRtlNotifyFilterReportChangeLiteExRva + 0x800),
        ("memset", (uint)KernelFunctions.MemsetRva),
    ];

    [TestMethod]
    public void Notify_cpu_is_the_victims_samples_under_FsRtlNotify_when_the_kernels_pdb_loads()
    {
        var scenario = NotifyBufferStorm.Generate();
        using var store = new SyntheticPdbStore(scenario.Bytes, "notify-storm").Add("ntoskrnl.exe", KernelPublics);
        using var resolver = store.Resolver();
        var named = TraceAnalyzer.Analyze(new TraceFileName(store.TracePath, store.TracePath), symbols: resolver).Table(DirectoryNotifyTables.Victims);
        var plain = TraceAnalyzer.Analyze(store.TracePath).Table(DirectoryNotifyTables.Victims);
        // The truth, from the samples as written: ingest.exe's samples with a frame in FsRtlNotifyFilterReportChangeLiteEx
        // (all taken while SyncAgent.exe and explorer.exe watched), each weighing the builder's 1 ms interval.
        var inNotifyPath = scenario.Trace.Samples.Count(s => s.Frames.Any(f => InNotifyFunction(store, f)));
        Assert.IsTrue(scenario.Trace.Samples.Where(s => s.Frames.Any(f => InNotifyFunction(store, f))).All(s => s.Thread.Process.ImageName == "ingest.exe"));
        Assert.IsTrue(inNotifyPath > 20, $"the churn is sampled in the notify path ({inNotifyPath})");
        Assert.AreEqual(1.0, new TraceBuilderSettings().SampleIntervalMs);

        var ingest = named.Rows.Single(r => r.Process == "ingest.exe");
        Assert.AreEqual(inNotifyPath * 1.0, ingest.NotifyCpuMs!.Value, 1e-9);
        Assert.AreEqual(0.0, named.Rows.Single(r => r.Process == "backup.exe").NotifyCpuMs, "backup.exe renames but is never sampled in the notify path");
        Assert.IsFalse(named.Notes.Any(n => n.Code == "directory-notify.no-notify-cpu"), "the column is measured: no note says it is empty");

        // Without symbols: empty, with the note, and every other figure the same.
        Assert.IsTrue(plain.Rows.All(r => r.NotifyCpuMs is null));
        Assert.IsTrue(plain.Notes.Any(n => n.Code == "directory-notify.no-notify-cpu"));
        CollectionAssert.AreEqual(plain.Rows.ToList(), named.Rows.Select(r => r with { NotifyCpuMs = null }).ToList());
    }

    [TestMethod]
    public void Notify_cpu_stays_empty_and_the_note_names_the_kernels_pdb_when_it_is_not_on_the_symbol_path()
    {
        var scenario = NotifyBufferStorm.Generate();
        using var store = new SyntheticPdbStore(scenario.Bytes, "notify-storm-nopdb");
        using var resolver = store.Resolver();
        var victims = TraceAnalyzer.Analyze(new TraceFileName(store.TracePath, store.TracePath), symbols: resolver).Table(DirectoryNotifyTables.Victims);
        Assert.IsTrue(victims.Rows.All(r => r.NotifyCpuMs is null));
        var missing = victims.Notes.Single(n => n.Code == "symbols.missing").Text;
        StringAssert.Contains(missing, $"ntoskrnl.exe needs {store.KeyOf("ntoskrnl.exe").StorePath}, not found");
    }

    private static bool InNotifyFunction(SyntheticPdbStore store, ulong address) =>
        store.State.ResolveFrame(0, address, 0) is { Image.FileName: "ntoskrnl.exe" } frame
        && frame.Rva >= KernelFunctions.FsRtlNotifyFilterReportChangeLiteExRva && frame.Rva < KernelFunctions.FsRtlNotifyFilterReportChangeLiteExRva + 0x800;
}
