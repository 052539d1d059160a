using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.TraceReadiness;
using System.Globalization;
using HiddenCost.Analysis.Tables.Findings;
using HiddenCost.Synthetic.Samples;
using HiddenCost.Synthetic.Scenarios;
using static HiddenCost.Analysis.Tests.Findings.FindingsFixtures;

namespace HiddenCost.Analysis.Tests.Findings;

/// <summary>The Findings table on the synthetic scenario samples, against each scenario's ground truth.</summary>
[TestClass]
public sealed class FindingsScenarioTests
{
    private static AnalysisResult Sample(string fileName, out object truth)
    {
        var sample = SampleCatalog.All.Single(d => d.FileName == fileName).Generate();
        truth = sample.Truth;
        return Analyze(sample.Trace, Path.GetFileNameWithoutExtension(fileName));
    }

    private static FindingRow[] Found(AnalysisResult result) => Rows(result).Where(r => r.Severity != SeverityNames.NotChecked).ToArray();

    private static string N0(double n) => n.ToString("N0", CultureInfo.InvariantCulture);

    private static string N1(double n) => n.ToString("N1", CultureInfo.InvariantCulture);

    [TestMethod]
    public void Notify_sample_names_the_watcher_its_buffer_the_bytes_zeroed_and_the_buffer_to_use()
    {
        var result = Sample("notify-buffer-storm.etl", out var t);
        var truth = (NotifyBufferStormTruth)t;
        var sync = truth.Watchers.Single(w => w.Process == "SyncAgent.exe");
        var row = Found(result).Single();
        Assert.AreEqual("Notify buffer", row.Problem);
        Assert.AreEqual("high", row.Severity);
        Assert.AreEqual($"SyncAgent.exe watching {truth.Directory}", row.Culprit);
        Assert.AreEqual("backup.exe (1800), ingest.exe (1200)", row.Victims);
        Assert.AreEqual(sync.BytesZeroed / (10.0 * 1024 * 1024 * 1024) * 1000, row.CostMs!.Value, 1e-9, "838,860,800 bytes at 10 GiB/s");
        Assert.AreEqual(78.125, row.CostMs!.Value, 1e-9);
        StringAssert.Contains(row.Evidence, "838,860,800 bytes zeroed");
        StringAssert.Contains(row.Evidence, "cost estimated");
        Assert.AreEqual(
            $@"Give SyncAgent.exe's ReadDirectoryChangesW on {truth.Directory} (FileSystemWatcher.InternalBufferSize) a 65,536-byte buffer (64 KiB) " +
            "instead of 2,097,152 bytes (2 MiB): its batches averaged 469 bytes of 2,097,152 bytes, and each of its 400 completions made the kernel " +
            "zero the whole buffer, 838,860,800 bytes in all.", row.Recommendation);
        Assert.AreEqual(sync.FirstArmNs, row.StartNs);
        Assert.AreEqual("Directory Notify Buffers", row.SeeTable);
        // explorer.exe's 16 KiB buffer is already right-sized: no finding.
        Assert.IsFalse(Rows(result).Any(r => r.Culprit.StartsWith("explorer.exe", StringComparison.Ordinal)));
    }

    [TestMethod]
    public void Syscall_sample_names_the_driver_its_victims_and_the_hooks_cpu()
    {
        var result = Sample("syscall-hook-storm.etl", out var t);
        var truth = (SyscallHookStormTruth)t;
        var row = Found(result).Single();
        Assert.AreEqual("Syscall hook", row.Problem);
        Assert.AreEqual("high", row.Severity);
        Assert.AreEqual("tedrdrv.sys (Palo Alto Networks Cortex XDR, EDR)", row.Culprit);
        Assert.AreEqual("OrderRouter.exe (1200), QuoteFeed.exe (1436)", row.Victims);
        double hookMs = truth.Rows.Sum(r => r.HookCpuMs);
        Assert.AreEqual(510, hookMs, 1e-9);
        Assert.AreEqual(hookMs, row.CostMs!.Value, 1e-9);
        // The overhead over both victims: hook CPU ÷ the syscalls made while samples were taken.
        double sampledSyscalls = truth.Rows.Sum(r => r.HookCpuMs * 1000 / r.HookOverheadPerSyscallUs);
        StringAssert.Contains(row.Recommendation, $"it adds {N1(hookMs * 1000 / sampledSyscalls)} µs to each of {N0(truth.TotalSyscalls)} syscalls");
        StringAssert.StartsWith(row.Recommendation, "Exclude OrderRouter.exe and QuoteFeed.exe from Palo Alto Networks Cortex XDR's system-call monitoring, or update tedrdrv.sys");
        Assert.AreEqual(truth.Rows.Min(r => r.FirstNs), row.StartNs);
        Assert.IsNotNull(row.SharePercent, "the trace has CPU samples");
    }

    [TestMethod]
    public void Spin_sample_names_each_wasteful_lock_with_its_lock_id_and_the_openmp_spinner()
    {
        var result = Sample("spin-contention.etl", out var t);
        var truth = (SpinContentionTruth)t;
        var found = Found(result);
        CollectionAssert.AreEqual(
            new[] { "libiomp5md.dll in render.exe", "Contoso.Inventory.StockCache.TryGet in InventoryService.exe (Lock ID 0x1C48F2A3D40)",
                    "Contoso.Inventory.OrderQueue.Enqueue in InventoryService.exe (Lock ID 0x1C48F2A3DA0)" },
            found.Select(r => r.Culprit).ToArray());
        CollectionAssert.AreEqual(new[] { "high", "medium", "low" }, found.Select(r => r.Severity).ToArray());
        var openMp = truth.Processes.Single(p => p.Process == "render.exe");
        Assert.AreEqual(openMp.OpenMpRuntimeCpuMs, found[0].CostMs!.Value, 1e-9);
        StringAssert.Contains(found[0].Recommendation, "KMP_BLOCKTIME=0");
        foreach (var (row, site) in found.Skip(1).Zip(new[] { "Contoso.Inventory.StockCache.TryGet", "Contoso.Inventory.OrderQueue.Enqueue" }))
        {
            var l = truth.Locks.Single(x => x.CallSite == site);
            Assert.AreEqual(l.WastedSpinMs, row.CostMs!.Value, 1e-9, site);
            StringAssert.Contains(row.Recommendation, $"{N1(l.WastedSpinMs)} ms of its {N1(l.SpinMs)} ms spinning ended in a block anyway over {l.Contentions} contentions");
            Assert.AreEqual("InventoryService.exe (1200): 4 threads", row.Victims);
        }
        // PriceTable.Lookup's spin always acquired, AuditLog.Append's mostly: spin that paid is no finding.
        Assert.IsFalse(found.Any(r => r.Culprit.Contains("PriceTable", StringComparison.Ordinal) || r.Culprit.Contains("AuditLog", StringComparison.Ordinal)));
    }

    [TestMethod]
    public void Event_log_sample_names_each_reading_client_and_log_and_the_api_to_use_instead()
    {
        var result = Sample("event-log-render.etl", out var t);
        var truth = (EventLogRenderTruth)t;
        var found = Found(result);
        CollectionAssert.AreEqual(new[] { "InventoryAgent.exe through WmiPrvSE.exe reading Application", "mmc.exe reading System" },
            found.Select(r => r.Culprit).ToArray());
        CollectionAssert.AreEqual(new[] { "high", "high" }, found.Select(r => r.Severity).ToArray(), "0.54 ms per message is above 0.5");
        foreach (var (row, client) in found.Zip(truth.Clients))
            Assert.AreEqual(client.ServiceCpuMs, row.CostMs!.Value, 1e-9, client.Process);
        StringAssert.StartsWith(found[0].Recommendation,
            "Replace InventoryAgent.exe's WMI query \"SELECT * FROM Win32_NTLogEvent WHERE Logfile='Application'\" (served by WmiPrvSE.exe) with EvtQuery/EvtNext on the Application log");
        StringAssert.Contains(found[0].Recommendation, $"spent {N1(truth.Clients[0].ServiceCpuMs)} ms rendering 240 messages");
        StringAssert.StartsWith(found[1].Recommendation, "Have mmc.exe query only the events it needs from the System log");
    }

    [TestMethod]
    public void A_problem_the_trace_has_no_events_for_is_not_checked_with_the_missing_events_and_the_wpr_line()
    {
        var result = Sample("notify-buffer-storm.etl", out _);
        var notChecked = Rows(result).Where(r => r.Severity == SeverityNames.NotChecked).ToArray();
        CollectionAssert.AreEquivalent(new[] { "Syscall hook", "Spin-wait", "Event-log render" }, notChecked.Select(r => r.Problem).ToArray());
        var syscall = notChecked.Single(r => r.Problem == "Syscall hook");
        Assert.AreEqual("the trace lacks SysClEnter/SysClExit (kernel keyword SystemCall)", syscall.Evidence);
        Assert.AreEqual("Syscall Hook Overhead could not be checked: Record with `wpr -start MultiProfile.wprp!SysCall` to check it.", syscall.Recommendation);
        Assert.IsNull(syscall.CostMs);
        Assert.AreEqual("Trace Readiness", syscall.SeeTable);
        Assert.IsTrue(Rows(result).Take(1).All(r => r.Severity == "high"), "findings come before what was not checked");
    }

    [TestMethod]
    public void A_clean_trace_with_every_problem_checked_has_no_findings()
    {
        var clean = CombinedSample.Generate(new CombinedSampleOptions { Syscall = NoHook, Spin = NoSpin, Notify = SmallBuffer, EventLog = CheapRenders },
            SampleSettings("clean.etl"));
        var result = Analyze(clean.Trace, "findings-clean");
        var readiness = ((Table<TraceReadinessRow>)result["Trace Readiness"]).Rows;
        Assert.IsTrue(readiness.All(r => r.Ready),
            "every problem table is ready, so every problem is checked: " + string.Join("; ", readiness.Select(r => $"{r.Table}: {r.Missing}")));
        Assert.AreEqual(0, result[FindingsTable.Name].RowCount, string.Join("\n", Rows(result).Select(FindingSentence.For)));
        Assert.IsTrue(Assess(result).Any(f => f.Problem == "Notify buffer" && f.Severity == Severity.None), "the watchers were assessed, below every threshold");
    }

    [TestMethod]
    public void Every_recommendation_names_its_own_culprit_and_its_first_figures()
    {
        var sample = SampleCatalog.All.Single(d => d.FileName == SampleCatalog.CombinedFileName).Generate();
        var rows = Found(Analyze(sample.Trace, "findings-combined"));
        Assert.AreEqual(7, rows.Length);
        foreach (var row in rows)
        {
            // The culprit's own name: the module, the call site or the process before " in ", " watching ", " through ", " reading ", " (".
            var name = row.Culprit.Split([" in ", " watching ", " through ", " reading ", " ("], StringSplitOptions.None)[0];
            StringAssert.Contains(row.Recommendation, name, row.Culprit);
            // The first two figures of the evidence, as written there.
            var numbers = System.Text.RegularExpressions.Regex.Matches(row.Evidence, @"(?<![\w.])\d[\d,]*(\.\d+)?").Select(m => m.Value).Take(2).ToArray();
            Assert.AreEqual(2, numbers.Length, row.Evidence);
            foreach (var n in numbers) StringAssert.Contains(row.Recommendation, n, $"{row.Culprit}: {row.Evidence}");
            StringAssert.Contains(FindingSentence.For(row), row.Recommendation);
        }
        // No recommendation names another row's culprit: each is about its own.
        static string NameOf(string culprit) => culprit.Split([" in ", " watching ", " through ", " reading ", " ("], StringSplitOptions.None)[0];
        foreach (var row in rows)
            foreach (var other in rows.Select(o => NameOf(o.Culprit)).Where(o => o != NameOf(row.Culprit)))
                Assert.IsFalse(row.Recommendation.Contains(other, StringComparison.Ordinal), $"{row.Culprit} names {other}");
    }
}
