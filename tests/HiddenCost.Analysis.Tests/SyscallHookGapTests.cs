using HiddenCost.Analysis.Tables.SpinWait;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.SyscallHook;

namespace HiddenCost.Analysis.Tests;

/// <summary>Profiling gaps: samples that stop or pause while other kernel events go on.</summary>
[TestClass]
public sealed class SyscallHookGapTests
{
    private const long Ms = 1_000_000;

    private static SyscallHookTracker Tracker(long? intervalNs = Ms)
    {
        var t = new SyscallHookTracker(_ => null, (_, _) => null);
        if (intervalNs is { } i) t.SampleInterval(0, i);
        return t;
    }

    /// <summary>Samples on two CPUs every interval from <paramref name="from"/> to <paramref name="to"/>, with one other event between samples.</summary>
    private static void Sampling(SyscallHookTracker t, long from, long to, long interval = Ms)
    {
        for (long now = from; now <= to; now += interval)
        {
            t.Sample(now, 0, 10);
            t.Sample(now, 1, 11);
            t.OtherEvent(now + interval / 2);
        }
    }

    [TestMethod]
    public void Pause_while_other_events_go_on_is_a_gap_from_the_last_sample_to_the_next()
    {
        var t = Tracker();
        Sampling(t, 0, 100 * Ms);
        for (long now = 101 * Ms; now < 350 * Ms; now += 10 * Ms) t.SyscallEnter(now, 0, 0xFFFF_F800_0000_1000);
        Sampling(t, 350 * Ms, 400 * Ms);
        var (_, gaps) = t.Build();
        Assert.AreEqual(1, gaps.Rows.Count);
        Assert.AreEqual(100 * Ms, gaps.Rows[0].Start);
        Assert.AreEqual(350 * Ms, gaps.Rows[0].End);
        Assert.AreEqual(250.0, (double)gaps.Rows[0].DurationMs!, 1e-12);
        Assert.AreEqual(26L, gaps.Rows[0].EventsDuringGap, "the OtherEvent half an interval after the last sample and 25 syscall enters");
        StringAssert.StartsWith(gaps.Rows[0].LikelyCause, "Sampling paused while other kernel events went on");
    }

    [TestMethod]
    public void A_gap_during_which_the_interval_was_raised_is_judged_by_the_interval_at_its_start()
    {
        // Sampling at 1 ms pauses for 50 ms while other events go on, and resumes at 10 ms: 50 ms is over 10 × the
        // 1 ms at the gap's start, though under 10 × the 10 ms at its end.
        var t = Tracker();
        Sampling(t, 0, 100 * Ms);
        for (long now = 105 * Ms; now < 150 * Ms; now += 10 * Ms) t.OtherEvent(now);
        t.SampleInterval(145 * Ms, 10 * Ms);
        Sampling(t, 150 * Ms, 250 * Ms, 10 * Ms);
        var (_, gaps) = t.Build();
        Assert.AreEqual(1, gaps.Rows.Count);
        Assert.AreEqual(100 * Ms, gaps.Rows[0].Start);
        Assert.AreEqual(150 * Ms, gaps.Rows[0].End);
        StringAssert.StartsWith(gaps.Rows[0].LikelyCause, "The sample interval was changed to 10 ms during the gap");
    }

    [TestMethod]
    public void Sampling_that_stops_for_the_rest_of_the_trace_is_a_gap_to_the_last_event()
    {
        var t = Tracker();
        Sampling(t, 0, 50 * Ms);
        for (long now = 60 * Ms; now <= 500 * Ms; now += 20 * Ms) t.OtherEvent(now);
        var (_, gaps) = t.Build();
        Assert.AreEqual(1, gaps.Rows.Count);
        Assert.AreEqual(50 * Ms, gaps.Rows[0].Start);
        Assert.AreEqual(500 * Ms, gaps.Rows[0].End);
        Assert.AreEqual(24L, gaps.Rows[0].EventsDuringGap);
        StringAssert.StartsWith(gaps.Rows[0].LikelyCause, "Sampling stopped for the rest of the trace");
    }

    [TestMethod]
    public void Stacks_and_rundowns_count_during_a_gap_but_alone_make_none()
    {
        var t = Tracker();
        Sampling(t, 0, 10 * Ms);
        t.OtherEvent(20 * Ms, isActivity: false);
        t.Sample(100 * Ms, 0, 10);
        t.OtherEvent(120 * Ms, isActivity: false);
        t.SyscallEnter(130 * Ms, 0, 0xFFFF_F800_0000_1000);
        t.OtherEvent(140 * Ms, isActivity: false);
        t.Sample(200 * Ms, 0, 10);
        for (long now = 300 * Ms; now < 400 * Ms; now += Ms) t.OtherEvent(now, isActivity: false);
        var (_, gaps) = t.Build();
        Assert.AreEqual(2, gaps.Rows.Count, "0–100 ms and 100–200 ms; the rundown after the last sample is no gap");
        Assert.AreEqual(2L, gaps.Rows[0].EventsDuringGap, "the activity event half an interval after the last sample and the rundown at 20 ms");
        Assert.AreEqual(100 * Ms, gaps.Rows[1].Start);
        Assert.AreEqual(3L, gaps.Rows[1].EventsDuringGap);
    }

    [TestMethod]
    public void Silence_without_other_events_is_no_gap()
    {
        var t = Tracker();
        for (long now = 0; now <= 10 * Ms; now += Ms) t.Sample(now, 0, 10);
        for (long now = 500 * Ms; now <= 510 * Ms; now += Ms) t.Sample(now, 0, 10);
        var (_, gaps) = t.Build();
        Assert.AreEqual(0, gaps.Rows.Count);
    }

    [TestMethod]
    public void Pause_of_exactly_ten_intervals_is_no_gap_and_longer_is()
    {
        var t = Tracker();
        t.Sample(0, 0, 10);
        t.OtherEvent(1 * Ms);
        t.Sample(10 * Ms, 0, 10);
        t.OtherEvent(11 * Ms);
        t.Sample(20 * Ms + 1, 0, 10);
        var (_, gaps) = t.Build();
        Assert.AreEqual(1, gaps.Rows.Count);
        Assert.AreEqual(10 * Ms, gaps.Rows[0].Start);
    }

    [TestMethod]
    public void Threshold_follows_an_interval_named_only_at_the_end_of_the_trace()
    {
        // 10 ms interval named only by the end rundown: 50 ms pauses are normal, 150 ms is a gap.
        var t = Tracker(intervalNs: null);
        long now = 0;
        for (int i = 0; i < 5; i++, now += 50 * Ms) { t.Sample(now, 0, 10); t.OtherEvent(now + Ms); }
        now += 100 * Ms;
        t.Sample(now, 0, 10);
        t.SampleInterval(now + 1, 10 * Ms);
        var (_, gaps) = t.Build();
        Assert.AreEqual(1, gaps.Rows.Count);
        Assert.AreEqual(200 * Ms, gaps.Rows[0].Start);
        Assert.AreEqual(350 * Ms, gaps.Rows[0].End);
    }

    [TestMethod]
    public void Interval_change_inside_a_gap_is_named_as_the_cause()
    {
        var t = Tracker();
        Sampling(t, 0, 20 * Ms);
        t.SampleInterval(30 * Ms, 10 * Ms);
        t.OtherEvent(40 * Ms);
        t.Sample(200 * Ms, 0, 10);
        var (_, gaps) = t.Build();
        Assert.AreEqual(1, gaps.Rows.Count);
        Assert.AreEqual("The sample interval was changed to 10 ms during the gap: another session reconfigured the kernel logger's profiling.",
            gaps.Rows[0].LikelyCause);
    }

    [TestMethod]
    public void Trace_without_samples_has_no_gaps_and_says_why()
    {
        var t = Tracker();
        t.OtherEvent(Ms);
        var (_, gaps) = t.Build();
        Assert.AreEqual(0, gaps.Rows.Count);
        StringAssert.Contains(gaps.Notes.Texts().Single(), "MultiProfile.wprp!SysCall");
    }

    [TestMethod]
    public void Table_specs_keep_the_issue_column_names_types_and_roles()
    {
        var overhead = SyscallHookTables.Overhead.Spec;
        CollectionAssert.AreEqual(new[]
        {
            "Culprit Module", "Vendor", "Product", "Category", "Process", "PID", "Syscall", "Syscalls", "Syscalls per Second",
            "Total Syscall Time (ms)", "Mean Syscall Time (µs)", "Samples in Syscalls", "Hook CPU (ms)",
            "Hook Overhead per Syscall (µs)", "Inflation (×)", "First", "Last", "Top Stack",
        }, overhead.Columns.Select(c => c.Name).ToArray());
        Assert.AreEqual(new Guid("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0020"), overhead.Id);
        Assert.AreEqual("Syscall Hook Overhead", overhead.Name);
        AssertColumn(overhead, "First", ColumnType.Timestamp, ColumnUnit.Nanoseconds, ColumnRole.StartTime);
        AssertColumn(overhead, "Last", ColumnType.Timestamp, ColumnUnit.Nanoseconds, ColumnRole.EndTime);
        AssertColumn(overhead, "Hook CPU (ms)", ColumnType.Decimal, ColumnUnit.Milliseconds, ColumnRole.GraphValue);
        AssertColumn(overhead, "Mean Syscall Time (µs)", ColumnType.Decimal, ColumnUnit.Microseconds, ColumnRole.None);
        AssertColumn(overhead, "Syscalls per Second", ColumnType.Decimal, ColumnUnit.PerSecond, ColumnRole.None);
        AssertColumn(overhead, "Inflation (×)", ColumnType.Decimal, ColumnUnit.Ratio, ColumnRole.None);
        AssertColumn(overhead, "PID", ColumnType.Integer, ColumnUnit.None, ColumnRole.ProcessId);
        AssertColumn(overhead, "Top Stack", ColumnType.Text, ColumnUnit.None, ColumnRole.None);
        CollectionAssert.AreEqual(new[] { "Culprit Module", "Process", "Syscall" }, overhead.DefaultView.PivotColumns.ToArray());

        var gaps = SyscallHookTables.Gaps.Spec;
        CollectionAssert.AreEqual(new[] { "Start", "End", "Duration (ms)", "Events During Gap", "Likely Cause" },
            gaps.Columns.Select(c => c.Name).ToArray());
        Assert.AreEqual(new Guid("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0021"), gaps.Id);
        Assert.AreEqual("Profiling Gaps", gaps.Name);
        AssertColumn(gaps, "Start", ColumnType.Timestamp, ColumnUnit.Nanoseconds, ColumnRole.StartTime);
        AssertColumn(gaps, "End", ColumnType.Timestamp, ColumnUnit.Nanoseconds, ColumnRole.EndTime);
        AssertColumn(gaps, "Duration (ms)", ColumnType.Decimal, ColumnUnit.Milliseconds, ColumnRole.GraphValue);
    }

    [TestMethod]
    public void Inbox_list_holds_kernel_hal_and_windows_drivers_but_not_security_products()
    {
        Assert.IsTrue(InboxKernelModules.Contains("ntoskrnl.exe"));
        Assert.IsTrue(InboxKernelModules.Contains("NTKRNLPA.EXE"));
        Assert.IsTrue(InboxKernelModules.Contains("hal.dll"));
        Assert.IsTrue(InboxKernelModules.Contains("fltmgr.sys"));
        Assert.IsTrue(InboxKernelModules.Contains("dump_stornvme.sys"), "crash-dump copies count as their driver");
        foreach (var driver in new[] { "refs.sys", "netvsc.sys", "vhdmp.sys", "exfat.sys", "amdppm.sys" })
            Assert.IsTrue(InboxKernelModules.Contains(driver), $"{driver} is a Microsoft inbox driver, not a culprit");
        Assert.IsFalse(InboxKernelModules.Contains("dump_tedrdrv.sys"));
        Assert.IsFalse(InboxKernelModules.Contains("tedrdrv.sys"));
        Assert.IsFalse(InboxKernelModules.Contains("WdFilter.sys"));
        Assert.IsFalse(InboxKernelModules.Contains("SysmonDrv.sys"));
        Assert.IsFalse(InboxKernelModules.Contains("nvlddmkm.sys"));
    }

    private static void AssertColumn(TableSpec spec, string name, ColumnType type, ColumnUnit unit, ColumnRole role)
    {
        var c = spec.Columns[spec.IndexOf(name)];
        Assert.AreEqual(type, c.Type, name);
        Assert.AreEqual(unit, c.Unit, name);
        Assert.AreEqual(role, c.Role, name);
    }
}
