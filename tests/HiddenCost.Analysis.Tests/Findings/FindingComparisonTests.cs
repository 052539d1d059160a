using HiddenCost.Analysis.Tables.Findings;
using HiddenCost.Analysis.Tables.Findings.Comparison;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;
using static HiddenCost.Analysis.Tests.Findings.FindingsFixtures;

namespace HiddenCost.Analysis.Tests.Findings;

/// <summary>
/// compare on before/after pairs of synthetic traces: each scenario as sampled, then with its problem fixed (a smaller
/// buffer, no hooking driver, no spinning).
/// </summary>
[TestClass]
public sealed class FindingComparisonTests
{
    private static IReadOnlyList<Finding> Findings(BuiltTrace trace, string name) => Assess(Analyze(trace, name));

    private static FigureChange Figure(FindingChange f, string name) => f.Figures.Single(x => x.Name == name);

    [TestMethod]
    public void A_smaller_notify_buffer_is_better_with_the_bytes_zeroed_before_and_after()
    {
        var before = Findings(NotifyBufferStorm.Generate(null, SampleSettings("before.etl")).Trace, "notify-before");
        var after = Findings(NotifyBufferStorm.Generate(SmallBuffer, SampleSettings("after.etl")).Trace, "notify-after");
        var c = FindingComparison.Compare(before, after);
        Assert.AreEqual(Verdict.Better, c.Verdict);
        Assert.AreEqual("better: 1 gone, 0 new, 0 worse, 0 better, 0 unchanged within noise, 0 not checked after", c.VerdictLine);
        var sync = c.Findings.Single();
        Assert.AreEqual(Change.Gone, sync.Change);
        Assert.AreEqual(@"SyncAgent.exe watching \Device\HarddiskVolume3\Data\Inbox", sync.Culprit);
        Assert.AreEqual((Severity.High, Severity.None), (sync.Before, sync.After));
        Assert.AreEqual((2_097_152.0, 65_536.0), (Figure(sync, "Buffer").Before, Figure(sync, "Buffer").After));
        Assert.AreEqual((838_860_800.0, 26_214_400.0), (Figure(sync, "Bytes Zeroed").Before, Figure(sync, "Bytes Zeroed").After), "400 × 2 MiB → 400 × 64 KiB");
        var cost = Figure(sync, "Cost");
        Assert.AreEqual(78.125, cost.Before!.Value, 1e-9);
        Assert.AreEqual(2.44140625, cost.After!.Value, 1e-9);
        Assert.IsTrue(cost.Moved);
        Assert.AreEqual(-96.875, cost.DifferencePercent!.Value, 1e-9);
        Assert.IsFalse(c.Trips(Severity.Low), "nothing new or worse");
        // The other way round, the fix undone: worse, and a gate on high trips.
        var undone = FindingComparison.Compare(after, before);
        Assert.AreEqual(Verdict.Worse, undone.Verdict);
        Assert.AreEqual(Change.New, undone.Findings.Single().Change);
        Assert.IsTrue(undone.Trips(Severity.High));
    }

    [TestMethod]
    public void Removing_the_hooking_driver_is_better_and_the_driver_is_gone()
    {
        var before = Findings(SyscallHookStorm.Generate(null, SampleSettings("before.etl")).Trace, "syscall-before");
        var after = Findings(SyscallHookStorm.Generate(NoHook, SampleSettings("after.etl")).Trace, "syscall-after");
        var c = FindingComparison.Compare(before, after);
        Assert.AreEqual(Verdict.Better, c.Verdict);
        var hook = c.Findings.Single();
        Assert.AreEqual((Change.Gone, "tedrdrv.sys (Palo Alto Networks Cortex XDR, EDR)"), (hook.Change, hook.Culprit));
        Assert.AreEqual(510.0, Figure(hook, "Cost").Before!.Value, 1e-9);
        Assert.IsNull(Figure(hook, "Cost").After, "no driver in any syscall after");
        Assert.AreEqual(18_655.0, Figure(hook, "Syscalls").Before);
    }

    [TestMethod]
    public void No_spinning_is_better_for_every_wasteful_lock_and_the_openmp_spinner()
    {
        var before = Findings(SpinContention.Generate(null, SampleSettings("before.etl")).Trace, "spin-before");
        var after = Findings(SpinContention.Generate(NoSpin, SampleSettings("after.etl")).Trace, "spin-after");
        var c = FindingComparison.Compare(before, after);
        Assert.AreEqual(Verdict.Better, c.Verdict, c.VerdictLine);
        CollectionAssert.AreEquivalent(
            new[] { "libiomp5md.dll in render.exe", "Contoso.Inventory.StockCache.TryGet in InventoryService.exe (Lock ID 0x1C48F2A3D40)",
                    "Contoso.Inventory.OrderQueue.Enqueue in InventoryService.exe (Lock ID 0x1C48F2A3DA0)" },
            c.Findings.Where(f => f.Change == Change.Gone).Select(f => f.Culprit).ToArray());
        Assert.IsFalse(c.Findings.Any(f => f.Change is Change.New or Change.Worse));
        var stock = c.Findings.Single(f => f.Culprit.StartsWith("Contoso.Inventory.StockCache.TryGet", StringComparison.Ordinal));
        Assert.AreEqual(124.0, Figure(stock, "Wasted Spin CPU").Before);
        Assert.IsTrue(Figure(stock, "Wasted Spin CPU").After < 10, "matched by call site: the lock's after figures are shown");
    }

    [TestMethod]
    public void Cheaper_renders_are_better_with_the_cpu_per_message_before_and_after()
    {
        var before = Findings(EventLogRender.Generate(null, SampleSettings("before.etl")).Trace, "eventlog-before");
        var after = Findings(EventLogRender.Generate(CheapRenders, SampleSettings("after.etl")).Trace, "eventlog-after");
        var c = FindingComparison.Compare(before, after);
        Assert.AreEqual(Verdict.Better, c.Verdict, c.VerdictLine);
        CollectionAssert.AreEquivalent(new[] { "InventoryAgent.exe through WmiPrvSE.exe reading Application", "mmc.exe reading System" },
            c.Findings.Select(f => f.Culprit).ToArray());
        foreach (var f in c.Findings)
        {
            Assert.AreEqual((Change.Gone, Severity.High, Severity.None), (f.Change, f.Before, f.After), f.Culprit);
            var perMessage = Figure(f, "CPU per Message");
            Assert.IsTrue(perMessage.Before > 0.5 && perMessage.After < 0.05, $"{f.Culprit}: {perMessage.Before} → {perMessage.After}");
            Assert.AreEqual(Figure(f, "Renders").Before, Figure(f, "Renders").After, "the same messages, rendered for less");
        }
    }

    [TestMethod]
    public void The_same_trace_twice_is_unchanged_and_a_problem_not_checked_before_is_new()
    {
        var notify = Findings(NotifyBufferStorm.Generate(null, SampleSettings("n.etl")).Trace, "notify-same");
        var same = FindingComparison.Compare(notify, notify);
        Assert.AreEqual(Verdict.Unchanged, same.Verdict);
        Assert.AreEqual(Change.Unchanged, same.Findings.Single().Change);
        Assert.IsTrue(same.Findings.Single().Figures.All(f => !f.Moved));

        var syscall = Findings(SyscallHookStorm.Generate(null, SampleSettings("s.etl")).Trace, "syscall-other");
        var c = FindingComparison.Compare(notify, syscall);
        Assert.AreEqual(Verdict.Worse, c.Verdict);
        var hook = c.Findings.Single(f => f.Problem == Problems.SyscallHook);
        Assert.AreEqual((Change.New, Severity.NotChecked, Severity.High), (hook.Change, hook.Before, hook.After));
        Assert.AreEqual(Change.NotChecked, c.Findings.Single(f => f.Problem == Problems.NotifyBuffer).Change, "a finding the after-trace cannot check is not gone");
    }

    [TestMethod]
    public void Noise_is_ten_percent_or_the_units_floor_whichever_is_larger()
    {
        Assert.IsFalse(FigureNoise.Moved("ms", 100, 110));
        Assert.IsTrue(FigureNoise.Moved("ms", 100, 110.01));
        Assert.IsFalse(FigureNoise.Moved("ms", 5, 7), "2 ms: two samples at 1 ms");
        Assert.IsTrue(FigureNoise.Moved("ms", 5, 7.01));
        Assert.IsFalse(FigureNoise.Moved("bytes", 0, 4096));
        Assert.IsFalse(FigureNoise.Moved("%", 50, 52));
        Assert.IsTrue(FigureNoise.Moved("%", 50, 55.01));
        Assert.IsFalse(FigureNoise.Moved("µs", 1, 1.5));
        Assert.IsTrue(FigureNoise.Moved("", 10, 12), "counts: 10% with a floor of 1");
    }
}
