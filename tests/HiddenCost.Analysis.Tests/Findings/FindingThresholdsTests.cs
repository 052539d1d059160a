using HiddenCost.Analysis.Tables.Findings;

namespace HiddenCost.Analysis.Tests.Findings;

/// <summary>Thresholds at their edges, through the rules, and the thresholds file.</summary>
[TestClass]
public sealed class FindingThresholdsTests
{
    private static readonly FindingThresholds Defaults = FindingThresholds.Default;

    private static ProblemFigureSet Only(
        IReadOnlyList<SyscallHookFigures>? hooks = null, IReadOnlyList<SpinLockFigures>? locks = null,
        IReadOnlyList<NotifyWatcherFigures>? watchers = null, IReadOnlyList<EventLogClientFigures>? clients = null) =>
        new([], hooks ?? [], locks ?? [], [], watchers ?? [], clients ?? []);

    private static Severity One(ProblemFigureSet figures, FindingThresholds? t = null) =>
        FindingsEvaluator.Assess(figures, t ?? Defaults).Single().Severity;

    [TestMethod]
    public void A_level_starts_at_its_threshold_and_nothing_is_a_finding_below_the_cost_floor()
    {
        var l = new Levels("m", "µs", Low: 1, Medium: 5, High: 20, MinimumCostMs: 5);
        Assert.AreEqual(Severity.None, l.Of(0.999, 100));
        Assert.AreEqual(Severity.Low, l.Of(1, 100));
        Assert.AreEqual(Severity.Low, l.Of(4.999, 100));
        Assert.AreEqual(Severity.Medium, l.Of(5, 100));
        Assert.AreEqual(Severity.Medium, l.Of(19.999, 100));
        Assert.AreEqual(Severity.High, l.Of(20, 100));
        Assert.AreEqual(Severity.High, l.Of(20, 5), "the cost floor is inclusive");
        Assert.AreEqual(Severity.None, l.Of(1000, 4.999));
        Assert.AreEqual(Severity.None, l.Of(double.NaN, 100), "no measure, no finding");
    }

    [TestMethod]
    public void A_hook_adding_20_us_per_syscall_is_high_and_just_below_is_medium()
    {
        // Hook CPU 200 ms over 10,000 sampled syscalls is 20 µs each.
        SyscallHookFigures Row(double overheadUs) => new("edr.sys", "Vendor", "Product", "EDR", "app.exe", 10, "NtX", 10_000, 500, 200, overheadUs, 2.0, 0, 1_000_000);
        Assert.AreEqual(Severity.High, One(Only(hooks: [Row(20)])));
        Assert.AreEqual(Severity.Medium, One(Only(hooks: [Row(19.99)])));
        Assert.AreEqual(0, FindingsEvaluator.Assess(Only(hooks: [Row(20) with { CulpritModule = "" }]), Defaults).Count, "no culprit module, no finding");
    }

    [TestMethod]
    public void A_notify_buffer_of_64_KiB_is_never_a_finding_and_one_byte_more_is_judged_by_its_zeroing_rate()
    {
        // Completions over one second: bytes zeroed per second = completions × buffer.
        NotifyWatcherFigures Row(long buffer, long completions = 1000) =>
            new("w.exe", 1, @"\d", buffer, completions, 0, 100, completions * buffer, "v.exe (2)", null, 0, 1_000_000_000);
        Assert.AreEqual(Severity.None, One(Only(watchers: [Row(65_536)])));
        Assert.AreEqual(Severity.Low, One(Only(watchers: [Row(65_537)])), "65.5 MB/s: above 16 MiB/s, below 128 MiB/s");
        Assert.AreEqual(Severity.High, One(Only(watchers: [Row(1 << 20, 1024)])), "exactly 1 GiB/s");
        Assert.AreEqual(Severity.Medium, One(Only(watchers: [Row(1 << 20, 1023)])));
        var finding = FindingsEvaluator.Assess(Only(watchers: [Row(1 << 20, 1024)]), Defaults).Single();
        Assert.AreEqual(100.0, finding.CostMs!.Value, 1e-9, "1 GiB zeroed at 10 GiB/s is 100 ms");
        Assert.IsTrue(finding.CostEstimated);
        StringAssert.Contains(finding.Recommendation, "65,536 bytes (64 KiB)", "with no table recommendation, the cap");
    }

    [TestMethod]
    public void Spin_that_mostly_paid_is_no_finding_and_wasted_spin_is_judged_by_its_share()
    {
        SpinLockFigures Row(double wasted, double spin) => new("svc.exe", 4, 0x10, "A.B.C", 5, 2, 10, wasted, spin, 0, 100);
        Assert.AreEqual(Severity.None, One(Only(locks: [Row(24.99, 100)])));
        Assert.AreEqual(Severity.Low, One(Only(locks: [Row(25, 100)])));
        Assert.AreEqual(Severity.Medium, One(Only(locks: [Row(50, 100)])));
        Assert.AreEqual(Severity.High, One(Only(locks: [Row(75, 100)])));
        Assert.AreEqual(Severity.None, One(Only(locks: [Row(9.99, 10)])), "under 10 ms wasted: too small to act on");
    }

    [TestMethod]
    public void Event_log_render_is_judged_by_cpu_per_message()
    {
        EventLogClientFigures Row(double perMessage) => new("c.exe", 3, null, "System", 1000, perMessage * 1000, perMessage, 13, null, 0, 100);
        Assert.AreEqual(Severity.None, One(Only(clients: [Row(0.0499)])));
        Assert.AreEqual(Severity.Low, One(Only(clients: [Row(0.05)])));
        Assert.AreEqual(Severity.Medium, One(Only(clients: [Row(0.2)])));
        Assert.AreEqual(Severity.High, One(Only(clients: [Row(0.5)])));
    }

    [TestMethod]
    public void A_problem_the_trace_is_not_ready_for_is_not_checked_and_what_its_table_still_shows_is_assessed()
    {
        var readiness = new ReadinessFigures("Event Log Render Cost", false, ["Registry operations (kernel keyword Registry)"], "wpr -start MultiProfile.wprp!EventLog");
        var client = new EventLogClientFigures("c.exe", 3, null, "System", 1000, 600, 0.6, null, null, 0, 100);
        var all = FindingsEvaluator.Assess(new([readiness], [], [], [], [], [client]), Defaults);
        Assert.AreEqual(2, all.Count);
        Assert.AreEqual((Severity.NotChecked, "the trace lacks Registry operations (kernel keyword Registry)"), (all[0].Severity, all[0].Evidence));
        Assert.AreEqual("Event Log Render Cost could not be checked: Record with `wpr -start MultiProfile.wprp!EventLog` to check it.", all[0].Recommendation);
        Assert.AreEqual((Severity.High, "c.exe reading System"), (all[1].Severity, all[1].Culprit));
        CollectionAssert.AreEqual(new[] { Severity.High, Severity.NotChecked }, FindingsEvaluator.Rows(all).Select(f => f.Severity).ToArray(), "findings first");
    }

    [TestMethod]
    public void A_thresholds_file_replaces_only_what_it_names()
    {
        var t = ThresholdsFile.Parse("""
            // stricter notify buffers, a slower machine
            { "notifyBuffer": { "high": 536870912, "minimumCostMs": 0 }, "zeroingBytesPerSecond": 5368709120, }
            """, "t.json");
        Assert.AreEqual(512 * FindingThresholds.MiB, t.NotifyBuffer.High);
        Assert.AreEqual(0, t.NotifyBuffer.MinimumCostMs);
        Assert.AreEqual(Defaults.NotifyBuffer.Medium, t.NotifyBuffer.Medium);
        Assert.AreEqual(5 * FindingThresholds.GiB, t.ZeroingBytesPerSecond);
        Assert.AreEqual(Defaults.SyscallHook, t.SyscallHook);
    }

    [TestMethod]
    [DataRow("[1]", "t.json: expected a JSON object of thresholds")]
    [DataRow("{ \"spinwait\": {} }", "t.json: unknown member 'spinwait' (syscallHook, spinWait, openMp, notifyBuffer, eventLogRender, zeroingBytesPerSecond, rightSizedBufferBytes)")]
    [DataRow("{ \"spinWait\": { \"hi\": 1 } }", "t.json: unknown member 'spinWait.hi' (low, medium, high, minimumCostMs)")]
    [DataRow("{ \"spinWait\": { \"low\": -1 } }", "t.json: spinWait.low: expected a number ≥ 0, found -1")]
    [DataRow("{ \"spinWait\": { \"low\": \"5\" } }", "t.json: spinWait.low: expected a number ≥ 0, found \"5\"")]
    [DataRow("{ \"spinWait\": { \"low\": 80 } }", "t.json: spinWait: levels must rise: low 80 ≤ medium 50 ≤ high 75")]
    [DataRow("{ \"zeroingBytesPerSecond\": 0 }", "t.json: zeroingBytesPerSecond: must be above 0")]
    [DataRow("{ \"spinWait\": 5 }", "t.json: spinWait: expected an object of low, medium, high, minimumCostMs")]
    [DataRow("{\n  \"spinWait\": { \"low\": 1 \n", "t.json: line 3, byte 1: not valid JSON")]
    public void A_bad_thresholds_file_is_refused_naming_the_file_and_the_member(string json, string message)
    {
        var e = Assert.ThrowsExactly<ThresholdsFileException>(() => ThresholdsFile.Parse(json, "t.json"));
        Assert.AreEqual(message, e.Message);
    }

    [TestMethod]
    public void A_missing_thresholds_file_is_refused_with_its_path()
    {
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-no-such-{Guid.NewGuid():N}.json");
        Assert.AreEqual($"{path}: no such file", Assert.ThrowsExactly<ThresholdsFileException>(() => ThresholdsFile.Load(path)).Message);
    }
}
