using HiddenCost.Analysis.Tables.SyscallHook;
using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.SpinWait;

namespace HiddenCost.Analysis.Tests;

/// <summary>The Spin-Wait analysis fed classified samples, contention events and context switches directly (no ETW bytes).</summary>
[TestClass]
public sealed class SpinWaitTrackerTests
{
    private const long Ms = 1_000_000;
    private const string Reserve = "Shop.Inventory.Reserve";
    private static readonly ProcessRef Shop = new(4200, 0, "Shop.exe");
    private static readonly SampleClass Own = SampleClass.NotSpin;

    private static SampleClass Spin(string? site) => new(SpinEvidence.Spin, site);
    private static SampleClass Possible(string? site, ulong runtimePath = 0) => new(SpinEvidence.PossibleSpin, site, RuntimePath: runtimePath);

    /// <summary>Return addresses inside coreclr.dll: the spin loop's path, and the path of some other runtime call.</summary>
    private const ulong SpinPath = 0x5A1, OtherPath = 0x0C1;

    /// <summary>One sample per millisecond from <paramref name="fromMs"/>; returns the time after the last.</summary>
    private static long Samples(SpinWaitTracker t, int tid, long fromMs, int count, SampleClass c, ProcessRef? process = null)
    {
        for (int i = 0; i < count; i++) t.Sample((fromMs + i) * Ms, process ?? Shop, tid, c);
        return fromMs + count;
    }


    private static int RowWhere<TRow>(Table<TRow> t, Func<TRow, bool> match, string what)
    {
        for (int i = 0; i < t.Rows.Count; i++)
            if (match(t.Rows[i])) return i;
        Assert.Fail($"no row with {what}");
        return -1;
    }

    [TestMethod]
    public void Spin_inside_a_contention_pays_off_at_its_stop_and_the_next_contention_keeps_the_call_site()
    {
        // A hot lock in a loop: contend, spin after the wake-up (20, 21 ms), acquire (21.5), a short unsampled critical
        // section, spin again (22, 23) and contend again (23.5). The first two samples paid off; the last two did not.
        var t = new SpinWaitTracker();
        t.ProfileInterval(Ms);
        Samples(t, 101, 8, 2, Spin(Reserve));                       // 8, 9 ms: before the first contention
        t.ContentionStart(10 * Ms, Shop, 101, lockId: 0xA);
        Samples(t, 101, 20, 2, Spin(Reserve));
        t.ContentionStop(21 * Ms + Ms / 2, Shop, 101);
        Samples(t, 101, 22, 2, Spin(Reserve));
        t.ContentionStart(23 * Ms + Ms / 2, Shop, 101, lockId: 0xA);
        t.ContentionStop(30 * Ms, Shop, 101);
        t.Sample(31 * Ms, Shop, 101, Own);

        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(1, locks.Rows.Count);
        Assert.AreEqual(Reserve, locks.Rows[0].CallSite);
        Assert.AreEqual(4.0, (double)locks.Rows[0].WastedSpinCpuMs!, 1e-12, "8, 9 and 22, 23 ms");
        Assert.AreEqual(2.0, (double)locks.Rows[0].SuccessfulSpinCpuMs!, 1e-12, "20, 21 ms");
        Assert.AreEqual(2.0, (double)locks.Rows[0].LongestSpinMs!, 1e-12);
    }

    [TestMethod]
    public void A_contention_right_after_an_acquisition_takes_its_call_site_from_the_spin_that_acquired()
    {
        var t = new SpinWaitTracker();
        t.ProfileInterval(Ms);
        t.ContentionStart(10 * Ms, Shop, 101);                      // no lock id and no spin before: no call site
        Samples(t, 101, 20, 2, Spin(Reserve));
        t.ContentionStop(21 * Ms + Ms / 2, Shop, 101);
        t.ContentionStart(21 * Ms + Ms / 2 + 8_000, Shop, 101);     // 8 µs later, nothing sampled between
        t.ContentionStop(25 * Ms, Shop, 101);
        t.Sample(26 * Ms, Shop, 101, Own);
        var (locks, _) = t.Build(100 * Ms);
        int named = RowWhere(locks, r => Equals(r.CallSite, Reserve), $"Call Site = {Reserve}");
        Assert.AreEqual(1L, locks.Rows[named].Contentions);
        Assert.AreEqual(0.0, (double)locks.Rows[named].WastedSpinCpuMs!, 1e-12);
    }

    [TestMethod]
    public void A_new_spin_after_an_acquisition_forgets_the_acquisitions_call_site()
    {
        // Acquired in Cache.Get's contention, then spun in Log.Write and blocked: the next contention is not Cache.Get's.
        var t = new SpinWaitTracker();
        t.ProfileInterval(Ms);
        t.ContentionStart(10 * Ms, Shop, 101);
        Samples(t, 101, 20, 2, Spin("App.Cache.Get"));
        t.ContentionStop(21 * Ms + Ms / 2, Shop, 101);
        t.Sample(22 * Ms, Shop, 101, Spin("App.Log.Write"));
        t.ContextSwitch(22 * Ms + Ms / 5, Shop, 101, waitReason: 6, oldState: 5); // UserRequest, Waiting: a lock wait
        t.ContentionStart(22 * Ms + 4 * Ms / 5, Shop, 101);
        t.ContentionStop(30 * Ms, Shop, 101);
        t.Sample(31 * Ms, Shop, 101, Own);
        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(2L, Enumerable.Range(0, locks.Rows.Count).Sum(r => (long)locks.Rows[r].Contentions!));
        Assert.IsFalse(Enumerable.Range(0, locks.Rows.Count).Any(r => locks.Rows[r].CallSite == "App.Cache.Get"),
            "neither contention is Cache.Get's: the first has no spin before it, the second followed Log.Write's");
        Assert.AreEqual(1.0, (double)locks.Rows[RowWhere(locks, r => Equals(r.CallSite, "App.Log.Write"), $"Call Site = {"App.Log.Write"}")].WastedSpinCpuMs!, 1e-12);
    }

    [TestMethod]
    public void A_duration_longer_than_the_wait_between_the_events_is_replaced_by_it_and_noted()
    {
        var t = new SpinWaitTracker();
        t.ProfileInterval(Ms);
        Samples(t, 101, 8, 2, Spin(Reserve));
        t.ContentionStart(10 * Ms, Shop, 101, lockId: 0xA);
        t.ContentionStop(12 * Ms, Shop, 101, durationNs: 1e19);
        Samples(t, 101, 13, 1, Spin(Reserve));
        t.ContentionStart(14 * Ms, Shop, 101, lockId: 0xA);
        t.ContentionStop(15 * Ms, Shop, 101, durationNs: 9e18);
        Samples(t, 101, 16, 1, Spin(Reserve));
        t.ContentionStart(17 * Ms, Shop, 101, lockId: 0xA);
        t.ContentionStop(18 * Ms, Shop, 101, durationNs: 900_000.0);
        t.Sample(19 * Ms, Shop, 101, Own);
        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(2.0 + 1.0 + 0.9, (double)locks.Rows[0].WaitMs!, 1e-9);
        Assert.IsTrue(locks.Notes.Texts().Any(n => n.StartsWith("2 ContentionStop events gave a DurationNs longer than the time since their ContentionStart")),
            string.Join(" | ", locks.Notes.Texts()));
    }

    [TestMethod]
    public void Spins_noted_out_of_time_order_still_go_to_the_nearest_contention_of_their_call_site()
    {
        // Thread 102 contends on B at 6 ms and spins inside it to the end of the trace, so that spin is noted (at 12 ms)
        // only when the table is built, after thread 101's contentions on A every 2 ms at the same call site. Thread
        // 103's spin at 12.2 ms, in no contention, goes to the nearest in time: B's at 12 ms, not A's at 12.5.
        var t = new SpinWaitTracker();
        t.ProfileInterval(Ms);
        var events = new List<(long Time, Action Feed)>();
        for (int i = 0; i < 30; i++)
        {
            long at = (2 + 2 * i) * Ms;
            events.Add((at, () => t.Sample(at, Shop, 101, Spin(Reserve))));
            events.Add((at + Ms / 2, () => t.ContentionStart(at + Ms / 2, Shop, 101, lockId: 0xA)));
            events.Add((at + Ms, () => t.ContentionStop(at + Ms, Shop, 101)));
        }
        events.Add((5 * Ms, () => t.Sample(5 * Ms, Shop, 102, Spin(Reserve))));
        events.Add((6 * Ms, () => t.ContentionStart(6 * Ms, Shop, 102, lockId: 0xB)));
        for (int ms = 7; ms <= 12; ms++)
        {
            long at = ms * Ms;
            events.Add((at, () => t.Sample(at, Shop, 102, Spin(Reserve))));
        }
        events.Add((12_200_000, () => t.Sample(12_200_000, Shop, 103, Spin(Reserve))));
        events.Add((13 * Ms, () => t.Sample(13 * Ms, Shop, 103, Own)));
        foreach (var (_, feed) in events.OrderBy(e => e.Time)) feed();

        var (locks, _) = t.Build(200 * Ms);
        int b = RowWhere(locks, r => Equals(r.LockId, 0xBL), $"Lock ID = {0xBL}");
        Assert.AreEqual(6.0 + 1.0, (double)locks.Rows[b].SuccessfulSpinCpuMs!, 1e-12, "102's 7–12 ms at the end of the trace, and 103's");
        Assert.AreEqual(1.0, (double)locks.Rows[b].WastedSpinCpuMs!, 1e-12, "102's 5 ms");
        int a = RowWhere(locks, r => Equals(r.LockId, 0xAL), $"Lock ID = {0xAL}");
        Assert.AreEqual(0.0, (double)locks.Rows[a].SuccessfulSpinCpuMs!, 1e-12);
    }

    [TestMethod]
    public void Spin_before_a_v2_contention_is_wasted_and_spin_that_acquires_at_the_same_site_is_successful()
    {
        var t = new SpinWaitTracker();
        t.ProfileInterval(Ms);
        Samples(t, 101, 10, 3, Spin(Reserve));                       // 10, 11, 12 ms
        t.ContentionStart(12 * Ms + Ms / 2, Shop, 101, lockId: 0xABC0, objectId: 0x7FF0_1000);
        t.ContentionStop(20 * Ms, Shop, 101, durationNs: 7_400_000.0);
        t.Sample(21 * Ms, Shop, 101, Own);
        Samples(t, 102, 30, 2, Spin(Reserve));                       // 30, 31 ms: spun and got the lock
        t.Sample(32 * Ms, Shop, 102, Own);

        var (locks, processes) = t.Build(100 * Ms);
        Assert.AreEqual(1, locks.Rows.Count);
        Assert.AreEqual("Shop.exe", locks.Rows[0].Process);
        Assert.AreEqual(4200L, locks.Rows[0].Pid);
        Assert.AreEqual(0xABC0L, locks.Rows[0].LockId);
        Assert.AreEqual(0x7FF0_1000L, locks.Rows[0].Object);
        Assert.AreEqual(Reserve, locks.Rows[0].CallSite);
        Assert.AreEqual(1L, locks.Rows[0].Contentions);
        Assert.AreEqual(2L, locks.Rows[0].Threads);
        Assert.AreEqual(7.4, locks.Rows[0].WaitMs);
        Assert.AreEqual(3.0, locks.Rows[0].WastedSpinCpuMs);
        Assert.AreEqual(2.0, locks.Rows[0].SuccessfulSpinCpuMs);
        Assert.AreEqual(5.0, locks.Rows[0].SpinCpuMs);
        Assert.AreEqual(5.0 / 12.4 * 100, (double)locks.Rows[0].SpinSharePercent!, 1e-9);
        Assert.AreEqual(3.0, locks.Rows[0].LongestSpinMs);
        Assert.AreEqual(10 * Ms, locks.Rows[0].First);
        Assert.AreEqual(31 * Ms, locks.Rows[0].Last);

        Assert.AreEqual(1, processes.Rows.Count);
        Assert.AreEqual(2L, processes.Rows[0].Threads);
        Assert.AreEqual(5.0, processes.Rows[0].LockSpinCpuMs);
        Assert.AreEqual(0L, processes.Rows[0].Yields);
        Assert.IsNull(processes.Rows[0].YieldsPerSecond);
        Assert.AreEqual(0.0, processes.Rows[0].OpenMPRuntimeCpuMs);
        Assert.IsNull(processes.Rows[0].Hint);
        Assert.AreEqual(0, locks.Notes.Texts().Count, string.Join(" | ", locks.Notes.Texts()));
    }

    [TestMethod]
    public void Successful_spin_goes_to_the_lock_contending_at_its_site_nearest_in_time()
    {
        var t = new SpinWaitTracker();
        Samples(t, 101, 10, 1, Spin(Reserve));
        t.ContentionStart(11 * Ms, Shop, 101, lockId: 1);
        t.ContentionStop(12 * Ms, Shop, 101, 1e6);
        Samples(t, 101, 100, 1, Spin(Reserve));
        t.ContentionStart(101 * Ms, Shop, 101, lockId: 2);
        t.ContentionStop(102 * Ms, Shop, 101, 1e6);
        Samples(t, 102, 20, 4, Spin(Reserve));                       // ends at 23 ms: nearest is lock 1 (11 ms)
        t.Sample(24 * Ms, Shop, 102, Own);
        Samples(t, 103, 90, 7, Spin(Reserve));                       // ends at 96 ms: nearest is lock 2 (101 ms)
        t.Sample(97 * Ms, Shop, 103, Own);

        var (locks, _) = t.Build(200 * Ms);
        Assert.AreEqual(4.0, locks.Rows[RowWhere(locks, r => Equals(r.LockId, 1L), $"Lock ID = {1L}")].SuccessfulSpinCpuMs);
        Assert.AreEqual(7.0, locks.Rows[RowWhere(locks, r => Equals(r.LockId, 2L), $"Lock ID = {2L}")].SuccessfulSpinCpuMs);
        Assert.AreEqual(7.0, locks.Rows[RowWhere(locks, r => Equals(r.LockId, 2L), $"Lock ID = {2L}")].LongestSpinMs);
    }

    [TestMethod]
    public void Named_spin_at_a_site_that_never_contends_is_keyed_by_the_site_alone()
    {
        var t = new SpinWaitTracker();
        Samples(t, 101, 10, 6, Spin("Shop.Cache.Refresh"));
        t.Sample(16 * Ms, Shop, 101, Own);
        var (locks, processes) = t.Build(100 * Ms);
        Assert.AreEqual(1, locks.Rows.Count);
        Assert.IsNull(locks.Rows[0].LockId);
        Assert.IsNull(locks.Rows[0].Object);
        Assert.AreEqual("Shop.Cache.Refresh", locks.Rows[0].CallSite);
        Assert.AreEqual(0L, locks.Rows[0].Contentions);
        Assert.AreEqual(6.0, locks.Rows[0].SuccessfulSpinCpuMs);
        Assert.AreEqual(0.0, locks.Rows[0].WaitMs);
        Assert.AreEqual(100.0, locks.Rows[0].SpinSharePercent);
        Assert.AreEqual(6.0, processes.Rows[0].LockSpinCpuMs);
    }

    [TestMethod]
    public void Unnamed_runtime_code_on_the_path_seen_spinning_before_a_contention_counts_at_a_site_that_never_contends()
    {
        var t = new SpinWaitTracker();
        t.ProfileInterval(Ms);
        Samples(t, 101, 10, 3, Possible(Reserve, SpinPath));
        t.ContentionStart(13 * Ms, Shop, 101, lockId: 9);             // proves SpinPath is the runtime's spin loop
        t.ContentionStop(15 * Ms, Shop, 101, 2e6);
        Samples(t, 102, 20, 5, Possible("Shop.PriceTable.Lookup", SpinPath));
        t.Sample(25 * Ms, Shop, 102, Own);
        var (locks, processes) = t.Build(100 * Ms);
        int site = RowWhere(locks, r => Equals(r.CallSite, "Shop.PriceTable.Lookup"), $"Call Site = {"Shop.PriceTable.Lookup"}");
        Assert.IsNull(locks.Rows[site].LockId);
        Assert.AreEqual(0L, locks.Rows[site].Contentions);
        Assert.AreEqual(5.0, locks.Rows[site].SuccessfulSpinCpuMs);
        Assert.AreEqual(100.0, locks.Rows[site].SpinSharePercent);
        Assert.AreEqual(8.0, processes.Rows[0].LockSpinCpuMs);
        Assert.AreEqual(0, locks.Notes.Texts().Count, string.Join(" | ", locks.Notes.Texts()));
    }

    [TestMethod]
    public void Unnamed_runtime_code_on_other_paths_is_not_spin_even_at_a_contending_site()
    {
        var t = new SpinWaitTracker();
        t.ProfileInterval(Ms);
        Samples(t, 101, 10, 3, Possible(Reserve, SpinPath));
        t.ContentionStart(13 * Ms, Shop, 101, lockId: 9);
        t.ContentionStop(15 * Ms, Shop, 101, 2e6);
        Samples(t, 102, 20, 2, Possible(Reserve, SpinPath));          // spun at the same site and acquired
        t.Sample(22 * Ms, Shop, 102, Own);
        Samples(t, 102, 30, 4, Possible(Reserve, OtherPath));         // DateTime.Now, a GC, ... called from the same method
        t.Sample(34 * Ms, Shop, 102, Own);
        Samples(t, 103, 40, 6, Possible("Shop.Clock.Now", OtherPath));
        t.Sample(46 * Ms, Shop, 103, Own);
        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(1, locks.Rows.Count);
        Assert.AreEqual(3.0, locks.Rows[0].WastedSpinCpuMs);
        Assert.AreEqual(2.0, locks.Rows[0].SuccessfulSpinCpuMs);
        Assert.AreEqual(2L, locks.Rows[0].Threads);
        Assert.IsTrue(locks.Notes.Texts().Single().StartsWith("10.0 ms of runtime code (coreclr.dll/clr.dll) called from managed code is not counted as spin", StringComparison.Ordinal),
            string.Join(" | ", locks.Notes.Texts()));
    }

    [TestMethod]
    public void Unnamed_runtime_code_in_a_process_that_never_contends_is_not_spin()
    {
        var t = new SpinWaitTracker();
        t.ProfileInterval(Ms);
        Samples(t, 101, 10, 5, Possible("Shop.Clock.Now", SpinPath));
        t.Sample(15 * Ms, Shop, 101, Own);
        Samples(t, 102, 10, 5, Possible(null));                      // no stack: a server GC thread looks like this
        t.Sample(15 * Ms, Shop, 102, Own);
        var (locks, processes) = t.Build(100 * Ms);
        Assert.AreEqual(0, locks.Rows.Count);
        Assert.AreEqual(0, processes.Rows.Count);
        StringAssert.StartsWith(locks.Notes.Texts().Single(), "10.0 ms of runtime code");
    }

    [TestMethod]
    public void Net_Framework_v1_start_and_v0_stop_key_the_lock_by_call_site_and_time_the_wait_from_the_pair()
    {
        const string site = "Legacy.Queue.Take";
        var t = new SpinWaitTracker();
        Samples(t, 201, 10, 3, Possible(site));
        t.ContentionStart(13 * Ms, Shop, 201);                       // v1: flags and ClrInstanceID only
        t.ContentionStop(18 * Ms, Shop, 201);                        // v0: no DurationNs
        t.Sample(19 * Ms, Shop, 201, Own);
        Samples(t, 202, 30, 2, Possible(site));
        t.ContentionStart(32 * Ms, Shop, 202);
        t.ContentionStop(44 * Ms, Shop, 202);
        t.Sample(45 * Ms, Shop, 202, Own);

        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(1, locks.Rows.Count);
        Assert.IsNull(locks.Rows[0].LockId);
        Assert.IsNull(locks.Rows[0].Object);
        Assert.AreEqual(site, locks.Rows[0].CallSite);
        Assert.AreEqual(2L, locks.Rows[0].Contentions);
        Assert.AreEqual(2L, locks.Rows[0].Threads);
        Assert.AreEqual(17.0, locks.Rows[0].WaitMs);
        Assert.AreEqual(5.0, locks.Rows[0].WastedSpinCpuMs);
        Assert.AreEqual(0.0, locks.Rows[0].SuccessfulSpinCpuMs);
    }

    [TestMethod]
    public void Spin_run_before_a_gap_in_sampling_is_wasted_but_does_not_name_the_contentions_call_site()
    {
        var t = new SpinWaitTracker();
        t.ProfileInterval(Ms);
        Samples(t, 101, 10, 2, Spin(Reserve));
        t.ContentionStart(12 * Ms, Shop, 101, lockId: 1);            // right after the run: its site is the lock's
        t.ContentionStop(13 * Ms, Shop, 101, 1e6);
        Samples(t, 101, 14, 3, Spin("Shop.Audit.Append"));            // the last samples before sampling stops
        t.ContentionStart(60 * Ms, Shop, 101, lockId: 1);            // 44 ms later, nothing sampled in between
        t.ContentionStop(61 * Ms, Shop, 101, 1e6);
        t.Sample(62 * Ms, Shop, 101, Own);
        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(1, locks.Rows.Count);
        Assert.AreEqual(Reserve, locks.Rows[0].CallSite);
        Assert.AreEqual(5.0, locks.Rows[0].WastedSpinCpuMs, "the run still ended in the contention, as issue 10 defines wasted spin");
    }

    [TestMethod]
    public void Contention_without_a_stop_before_the_trace_ends_waits_until_the_end_and_says_so()
    {
        var t = new SpinWaitTracker();
        Samples(t, 101, 10, 2, Spin(Reserve));
        t.ContentionStart(50 * Ms, Shop, 101, lockId: 0x10);
        var (locks, _) = t.Build(80 * Ms);
        Assert.AreEqual(1L, locks.Rows[0].Contentions);
        Assert.AreEqual(30.0, locks.Rows[0].WaitMs);
        Assert.AreEqual(80 * Ms, locks.Rows[0].Last);
        Assert.IsTrue(locks.Notes.Texts().Any(n => n.StartsWith("1 contentions had no ContentionStop", StringComparison.Ordinal)), string.Join(" | ", locks.Notes.Texts()));
    }

    [TestMethod]
    public void Timed_out_wait_without_a_stop_ends_when_the_thread_runs_its_own_code()
    {
        var t = new SpinWaitTracker();
        t.ContentionStart(10 * Ms, Shop, 101, lockId: 0x10);
        t.Sample(40 * Ms, Shop, 101, Own);                           // Lock.TryEnter(timeout) gave up: no ContentionStop
        t.ContentionStart(60 * Ms, Shop, 101, lockId: 0x10);
        t.ContentionStop(65 * Ms, Shop, 101, 5e6);
        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(2L, locks.Rows[0].Contentions);
        Assert.AreEqual(35.0, locks.Rows[0].WaitMs, "30 ms until the thread ran on, then 5 ms");
    }

    [TestMethod]
    public void Spinning_thread_without_stacks_is_counted_as_unattributed_spin_and_shown()
    {
        var t = new SpinWaitTracker();
        Samples(t, 301, 10, 4, Possible(null));                      // instruction pointer in coreclr.dll, no stack
        t.ContentionStart(14 * Ms, Shop, 301, lockId: 7);
        t.ContentionStop(16 * Ms, Shop, 301, 2e6);
        t.Sample(17 * Ms, Shop, 301, Own);
        Samples(t, 301, 20, 6, Possible(null));                      // spins again and acquires: no site to match by
        t.Sample(26 * Ms, Shop, 301, Own);

        var (locks, processes) = t.Build(100 * Ms);
        int locked = RowWhere(locks, r => Equals(r.LockId, 7L), $"Lock ID = {7L}"), unattributed = RowWhere(locks, r => Equals(r.CallSite, SpinWaitTracker.UnattributedSite), $"Call Site = {SpinWaitTracker.UnattributedSite}");
        Assert.AreEqual(4.0, locks.Rows[locked].WastedSpinCpuMs, "a run ending in a contention still belongs to its lock");
        Assert.IsNull(locks.Rows[locked].CallSite);
        Assert.AreEqual(6.0, locks.Rows[unattributed].SuccessfulSpinCpuMs);
        Assert.IsNull(locks.Rows[unattributed].LockId);
        Assert.AreEqual(1L, locks.Rows[unattributed].Threads);
        Assert.AreEqual(10.0, processes.Rows[0].LockSpinCpuMs);
        Assert.IsTrue(locks.Notes.Texts().Any(n => n.StartsWith("6.0 ms of spin had no stack", StringComparison.Ordinal)), string.Join(" | ", locks.Notes.Texts()));
    }

    [TestMethod]
    public void Named_spin_without_a_stack_on_a_thread_that_never_contends_is_unattributed()
    {
        var t = new SpinWaitTracker();
        Samples(t, 301, 10, 3, Spin(null));                          // IP resolves to AwareLock::Contention, no stack
        t.Sample(13 * Ms, Shop, 301, Own);
        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(1, locks.Rows.Count);
        Assert.AreEqual(SpinWaitTracker.UnattributedSite, locks.Rows[0].CallSite);
        Assert.AreEqual(3.0, locks.Rows[0].SpinCpuMs);
    }

    [TestMethod]
    public void Nested_contentions_pair_each_stop_with_the_innermost_start()
    {
        var t = new SpinWaitTracker();
        t.ContentionStart(10 * Ms, Shop, 101, lockId: 0xA);          // a managed lock
        t.ContentionStart(12 * Ms, Shop, 101, lockId: 0xB);          // a runtime-internal lock taken while waiting
        t.ContentionStop(15 * Ms, Shop, 101);
        t.ContentionStop(30 * Ms, Shop, 101);
        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(20.0, locks.Rows[RowWhere(locks, r => Equals(r.LockId, 0xAL), $"Lock ID = {0xAL}")].WaitMs);
        Assert.AreEqual(3.0, locks.Rows[RowWhere(locks, r => Equals(r.LockId, 0xBL), $"Lock ID = {0xBL}")].WaitMs);
    }

    [TestMethod]
    public void Nested_locks_taken_one_inside_the_other_get_their_own_call_sites()
    {
        var t = new SpinWaitTracker();
        Samples(t, 101, 10, 2, Spin("Shop.Ledger.Post"));            // lock (ledger)
        t.ContentionStart(12 * Ms, Shop, 101, lockId: 0xA);
        t.ContentionStop(14 * Ms, Shop, 101, 2e6);
        Samples(t, 101, 15, 3, Spin("Shop.Ledger.PostLine"));        //   lock (line) inside it, no ordinary code between
        t.ContentionStart(18 * Ms, Shop, 101, lockId: 0xB);
        t.ContentionStop(19 * Ms, Shop, 101, 1e6);
        t.Sample(20 * Ms, Shop, 101, Own);
        var (locks, _) = t.Build(100 * Ms);
        int a = RowWhere(locks, r => Equals(r.LockId, 0xAL), $"Lock ID = {0xAL}"), b = RowWhere(locks, r => Equals(r.LockId, 0xBL), $"Lock ID = {0xBL}");
        Assert.AreEqual("Shop.Ledger.Post", locks.Rows[a].CallSite);
        Assert.AreEqual("Shop.Ledger.PostLine", locks.Rows[b].CallSite);
        Assert.AreEqual(2.0, locks.Rows[a].WastedSpinCpuMs);
        Assert.AreEqual(3.0, locks.Rows[b].WastedSpinCpuMs);
    }

    [TestMethod]
    public void Spin_after_a_wake_up_belongs_to_the_contention_wasted_if_it_blocks_again()
    {
        var t = new SpinWaitTracker();
        t.ContentionStart(10 * Ms, Shop, 101, lockId: 0xA);
        Samples(t, 101, 20, 2, Spin(Reserve));                       // woken, spins, blocks again
        t.ContextSwitch(21 * Ms + Ms / 2, Shop, 101, KernelWait.UserRequest, KernelWait.StateWaiting);
        Samples(t, 101, 30, 3, Spin(Reserve));                       // woken, spins, acquires
        t.ContentionStop(33 * Ms, Shop, 101, 23e6);
        t.Sample(34 * Ms, Shop, 101, Own);
        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(1, locks.Rows.Count);
        Assert.AreEqual(2.0, locks.Rows[0].WastedSpinCpuMs);
        Assert.AreEqual(3.0, locks.Rows[0].SuccessfulSpinCpuMs);
        Assert.AreEqual(Reserve, locks.Rows[0].CallSite);
    }

    [TestMethod]
    public void A_spin_ended_by_a_wait_no_lock_blocks_in_paid_off_and_a_sleep_does_not_end_it()
    {
        // A pool thread spins (10, 11 ms), gets the lock, runs its short section unsampled and waits for work
        // (WrQueue): that spin paid off. Later it spins again, sleeps a millisecond inside the spin loop, spins on
        // and contends: those three samples are one wasted run.
        const byte WrQueue = 15;
        var t = new SpinWaitTracker();
        t.ProfileInterval(Ms);
        Samples(t, 101, 10, 2, Spin(Reserve));
        t.ContextSwitch(12 * Ms, Shop, 101, WrQueue, KernelWait.StateWaiting);
        Samples(t, 101, 600, 2, Spin(Reserve));
        t.ContextSwitch(601 * Ms + Ms / 2, Shop, 101, 5 /* Suspended: for a GC */, KernelWait.StateWaiting);
        t.ContextSwitch(602 * Ms, Shop, 101, KernelWait.DelayExecution, KernelWait.StateWaiting);
        Samples(t, 101, 603, 1, Spin(Reserve));
        t.ContentionStart(603 * Ms + Ms / 2, Shop, 101, lockId: 0xA);
        t.ContentionStop(610 * Ms, Shop, 101, 6.5e6);
        t.Sample(611 * Ms, Shop, 101, Own);
        var (locks, _) = t.Build(1_000 * Ms);
        Assert.AreEqual(1, locks.Rows.Count);
        Assert.AreEqual(2.0, (double)locks.Rows[0].SuccessfulSpinCpuMs!, 1e-12);
        Assert.AreEqual(3.0, (double)locks.Rows[0].WastedSpinCpuMs!, 1e-12);
        Assert.AreEqual(3.0, (double)locks.Rows[0].LongestSpinMs!, 1e-12);
    }

    [TestMethod]
    public void A_sample_in_a_locks_blocking_wait_does_not_end_its_contention()
    {
        var waitPath = SpinClassifier.Classify(new[] { StackFrame.Managed("System.Threading.WaitHandle.WaitOneNoCheck"),
            StackFrame.Managed("System.Threading.Lock.TryEnterSlow"), StackFrame.Managed("System.Threading.Lock.Enter"), StackFrame.Managed(Reserve) }, hasStack: true);
        var t = new SpinWaitTracker();
        t.ProfileInterval(Ms);
        t.ContentionStart(10 * Ms, Shop, 101, lockId: 0xA);
        t.Sample(15 * Ms, Shop, 101, waitPath);
        t.ContentionStop(20 * Ms, Shop, 101, 10e6);
        t.Sample(21 * Ms, Shop, 101, Own);
        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(10.0, (double)locks.Rows[0].WaitMs!, 1e-9);
        Assert.IsFalse(locks.Notes.Texts().Any(n => n.Contains("had no ContentionStop") || n.Contains("had no ContentionStart")), string.Join(" | ", locks.Notes.Texts()));
    }

    [TestMethod]
    public void Runtime_work_before_a_spin_does_not_teach_its_path_as_spin()
    {
        // Thread 101 allocates (a GC in the runtime, 10 ms) at Reserve, then spins (11 ms) and contends. Only the spin's
        // path is learned: thread 102's 50 ms of the same GC path at Report.Build is set aside, not counted as spin.
        var t = new SpinWaitTracker();
        t.ProfileInterval(Ms);
        t.Sample(10 * Ms, Shop, 101, Possible(Reserve, OtherPath));
        t.Sample(11 * Ms, Shop, 101, Possible(Reserve, SpinPath));
        t.ContentionStart(11 * Ms + Ms / 2, Shop, 101, lockId: 0xA);
        t.ContentionStop(20 * Ms, Shop, 101, 8.5e6);
        t.Sample(21 * Ms, Shop, 101, Own);
        Samples(t, 102, 100, 50, Possible("Shop.Report.Build", OtherPath));
        t.Sample(150 * Ms, Shop, 102, Own);
        Samples(t, 103, 200, 3, Possible("Shop.Report.Build", SpinPath));
        t.Sample(203 * Ms, Shop, 103, Own);
        var (locks, _) = t.Build(1_000 * Ms);
        Assert.AreEqual(2, locks.Rows.Count, "Reserve's lock, and Report.Build's proven spin");
        Assert.AreEqual(2.0, (double)locks.Rows[RowWhere(locks, r => Equals(r.CallSite, Reserve), $"Call Site = {Reserve}")].WastedSpinCpuMs!, 1e-12, "the run's two samples");
        Assert.AreEqual(3.0, (double)locks.Rows[RowWhere(locks, r => Equals(r.CallSite, "Shop.Report.Build"), $"Call Site = {"Shop.Report.Build"}")].SuccessfulSpinCpuMs!, 1e-12);
        Assert.IsTrue(locks.Notes.Texts().Any(n => n.StartsWith("50.0 ms of runtime code")), string.Join(" | ", locks.Notes.Texts()));
    }

    [TestMethod]
    public void A_run_whose_last_sample_is_spin_named_by_symbols_teaches_no_earlier_path()
    {
        // The GC sample comes first, then a spin the symbols name (no runtime path), then the contention.
        var t = new SpinWaitTracker();
        t.ProfileInterval(Ms);
        t.Sample(10 * Ms, Shop, 101, Possible(Reserve, OtherPath));
        t.Sample(11 * Ms, Shop, 101, Spin(Reserve));
        t.ContentionStart(11 * Ms + Ms / 2, Shop, 101, lockId: 0xA);
        t.ContentionStop(20 * Ms, Shop, 101, 8.5e6);
        t.Sample(21 * Ms, Shop, 101, Own);
        Samples(t, 102, 100, 50, Possible("Shop.Report.Build", OtherPath));
        t.Sample(150 * Ms, Shop, 102, Own);
        var (locks, _) = t.Build(1_000 * Ms);
        Assert.AreEqual(1, locks.Rows.Count);
        Assert.AreEqual(Reserve, locks.Rows[0].CallSite);
    }

    [TestMethod]
    public void Spin_that_blocks_in_a_lock_wait_without_an_event_is_wasted()
    {
        var t = new SpinWaitTracker();
        const string site = "render.dll!TileCache::Lookup";        // a contended critical section: no CLR events
        Samples(t, 101, 10, 4, Spin(site));
        t.ContextSwitch(14 * Ms, Shop, 101, KernelWait.WrKeyedEvent, KernelWait.StateWaiting);
        Samples(t, 102, 10, 2, Spin(site));
        t.Sample(12 * Ms, Shop, 102, Own);
        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(site, locks.Rows[0].CallSite);
        Assert.AreEqual(4.0, locks.Rows[0].WastedSpinCpuMs);
        Assert.AreEqual(2.0, locks.Rows[0].SuccessfulSpinCpuMs);
        Assert.AreEqual(2L, locks.Rows[0].Threads);
    }

    [TestMethod]
    public void Yields_count_whatever_the_old_state_and_their_rate_spans_first_to_last()
    {
        var storm = new ProcessRef(5100, 0, "Poller.exe");
        var t = new SpinWaitTracker();
        for (int i = 0; i < 1000; i++)
            t.ContextSwitch(100 * Ms + i * Ms / 4, storm, 501 + i % 2, KernelWait.WrYieldExecution, oldState: i % 3 == 0 ? KernelWait.StateWaiting : (byte)1);
        for (int i = 0; i < 10; i++)
            t.ContextSwitch(100 * Ms + i * Ms, storm, 501, KernelWait.DelayExecution, oldState: 1);
        var (_, processes) = t.Build(1000 * Ms);
        Assert.AreEqual(1, processes.Rows.Count);
        Assert.AreEqual("Poller.exe", processes.Rows[0].Process);
        Assert.AreEqual(2L, processes.Rows[0].Threads);
        Assert.AreEqual(1000L, processes.Rows[0].Yields);
        Assert.AreEqual(4000.0, (double)processes.Rows[0].YieldsPerSecond!, 1e-6);
        Assert.AreEqual(10L, processes.Rows[0].DelaySwitches);
        Assert.AreEqual(0.0, processes.Rows[0].LockSpinCpuMs);
    }

    [TestMethod]
    public void Only_Sleep_0_style_delay_switches_count_and_a_Sleep_that_really_waits_is_not_spin()
    {
        var sleeper = new ProcessRef(600, 0, "ingest.exe");
        var spinner = new ProcessRef(700, 0, "busy.exe");
        var t = new SpinWaitTracker();
        for (int i = 0; i < 500; i++) t.ContextSwitch(i * Ms, sleeper, 601, KernelWait.DelayExecution, KernelWait.StateWaiting); // Sleep(1)
        for (int i = 0; i < 300; i++) t.ContextSwitch(i * Ms, spinner, 701, KernelWait.DelayExecution, 1);                       // Sleep(0), left Ready
        for (int i = 0; i < 200; i++) t.ContextSwitch(i * Ms, spinner, 702, KernelWait.WrDelayExecution, 7);                     // DeferredReady
        var (_, processes) = t.Build(10_000 * Ms);
        Assert.AreEqual(1, processes.Rows.Count);
        Assert.AreEqual("busy.exe", processes.Rows[0].Process);
        Assert.AreEqual(500L, processes.Rows[0].DelaySwitches);
        Assert.AreEqual(2L, processes.Rows[0].Threads);
    }

    [TestMethod]
    public void OpenMP_runtime_CPU_gets_the_blocktime_hint_when_it_is_a_large_share()
    {
        var solver = new ProcessRef(800, 0, "solver.exe");
        var light = new ProcessRef(900, 0, "viewer.exe");
        var t = new SpinWaitTracker();
        var omp = new SampleClass(SpinEvidence.OpenMp, null, @"C:\Program Files\Solver\libiomp5md.dll");
        for (int i = 0; i < 800; i++) t.Sample(i * Ms, solver, 801 + i % 4, omp);
        for (int i = 0; i < 200; i++) t.Sample(i * Ms, solver, 801, Own);
        for (int i = 0; i < 10; i++) t.Sample(i * Ms, light, 901, new SampleClass(SpinEvidence.OpenMp, null, "vcomp140.dll"));
        for (int i = 0; i < 990; i++) t.Sample(i * Ms, light, 901, Own);
        var (locks, processes) = t.Build(1000 * Ms);
        Assert.AreEqual(0, locks.Rows.Count);
        int s = RowWhere(processes, r => Equals(r.Process, "solver.exe"), $"Process = {"solver.exe"}"), v = RowWhere(processes, r => Equals(r.Process, "viewer.exe"), $"Process = {"viewer.exe"}");
        Assert.AreEqual(800.0, processes.Rows[s].OpenMPRuntimeCpuMs);
        Assert.AreEqual(4L, processes.Rows[s].Threads);
        Assert.AreEqual("80% of the process's CPU is OpenMP threads spin-waiting in libiomp5md.dll: set KMP_BLOCKTIME=0 " +
                        "(or OMP_WAIT_POLICY=PASSIVE) so idle workers sleep instead of spinning for the default 200 ms", processes.Rows[s].Hint);
        Assert.AreEqual(10.0, processes.Rows[v].OpenMPRuntimeCpuMs);
        Assert.IsNull(processes.Rows[v].Hint, "1% is ordinary overhead");
    }

    [TestMethod]
    public void MSVC_OpenMP_hint_names_the_wait_policy()
    {
        var hint = OpenMpHint.For("vcomp140.dll", 600 * Ms, 1000 * Ms);
        StringAssert.StartsWith(hint, "60% of the process's CPU is OpenMP threads spin-waiting in vcomp140.dll: set OMP_WAIT_POLICY=PASSIVE");
        Assert.IsNull(OpenMpHint.For("vcomp140.dll", 40 * Ms, 50 * Ms), "too little CPU to act on");
    }

    [TestMethod]
    public void Samples_weigh_the_trace_profile_interval_and_one_ms_when_it_is_not_stated()
    {
        var t = new SpinWaitTracker();
        t.ProfileInterval(500_000);
        t.ProfileInterval(125_000);                                  // the first stated interval wins
        Samples(t, 101, 10, 4, Spin(Reserve));
        t.Sample(14 * Ms, Shop, 101, Own);
        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(2.0, locks.Rows[0].SpinCpuMs);
        Assert.AreEqual(0, locks.Notes.Texts().Count);

        var unstated = new SpinWaitTracker();
        Samples(unstated, 101, 10, 4, Spin(Reserve));
        unstated.Sample(14 * Ms, Shop, 101, Own);
        var (locks2, _) = unstated.Build(100 * Ms);
        Assert.AreEqual(4.0, locks2.Rows[0].SpinCpuMs);
        CollectionAssert.Contains(locks2.Notes.Texts().ToArray(), "The trace does not state its profile interval: each CPU sample counts as 1 ms.");
    }

    [TestMethod]
    public void Each_sample_weighs_the_interval_in_effect_when_it_was_taken()
    {
        // Another tool may change the interval mid-trace (the Syscall Hook table weighs samples the same way).
        var t = new SpinWaitTracker();
        t.ProfileInterval(0, 1_000_000);
        t.ProfileInterval(12 * Ms, 125_000);
        Samples(t, 101, 10, 4, Spin(Reserve));                      // 10, 11 ms at 1 ms; 12, 13 ms at 0.125 ms
        t.Sample(14 * Ms, Shop, 101, Own);
        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(2.25, locks.Rows[0].SpinCpuMs);
    }

    [TestMethod]
    public void Spin_before_a_sampling_gap_that_ends_in_an_unnamed_contention_is_in_the_unattributed_note()
    {
        var t = new SpinWaitTracker();
        t.ProfileInterval(Ms);
        Samples(t, 101, 10, 3, Spin(Reserve));                       // 10–12 ms, then sampling stops
        t.ContentionStart(40 * Ms, Shop, 101);                       // no LockID, no object; too far to name the site
        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(SpinWaitTracker.UnattributedSite, locks.Rows[0].CallSite);
        Assert.AreEqual(3.0, locks.Rows[0].WastedSpinCpuMs);
        CollectionAssert.Contains(locks.Notes.Texts().ToArray(), $"3.0 ms of spin had no stack naming its call site or lock; it is shown as '{SpinWaitTracker.UnattributedSite}'.");
    }

    [TestMethod]
    public void Unknown_process_shows_an_empty_pid_as_the_other_tables_do()
    {
        var t = new SpinWaitTracker();
        for (int i = 0; i < 3; i++) t.ContextSwitch(10 * Ms + i, ProcessRef.Unknown, 501, KernelWait.WrYieldExecution, 1);
        var (_, byProcess) = t.Build(100 * Ms);
        Assert.AreEqual("Unknown", byProcess.Rows[0].Process);
        Assert.IsNull(byProcess.Rows[0].Pid);
        Assert.AreEqual(3L, byProcess.Rows[0].Yields);
    }

    [TestMethod]
    public void Spin_inside_an_unnamed_contention_is_in_the_unattributed_note()
    {
        var t = new SpinWaitTracker();
        t.ProfileInterval(Ms);
        t.ContentionStart(10 * Ms, Shop, 101);                       // no LockID, no object, no spin before it
        Samples(t, 101, 11, 5, Spin(Reserve));                       // spins inside the wait after a wake-up
        t.ContentionStop(16 * Ms, Shop, 101);
        t.Sample(17 * Ms, Shop, 101, Own);
        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(SpinWaitTracker.UnattributedSite, locks.Rows[0].CallSite);
        Assert.AreEqual(5.0, locks.Rows[0].SuccessfulSpinCpuMs);
        CollectionAssert.Contains(locks.Notes.Texts().ToArray(), $"5.0 ms of spin had no stack naming its call site or lock; it is shown as '{SpinWaitTracker.UnattributedSite}'.");
    }

    [TestMethod]
    public void Stop_without_a_start_is_not_counted_and_is_noted()
    {
        var t = new SpinWaitTracker();
        t.ContentionStop(5 * Ms, Shop, 101, 4e6);
        var (locks, _) = t.Build(100 * Ms);
        Assert.AreEqual(0, locks.Rows.Count);
        CollectionAssert.Contains(locks.Notes.Texts().ToArray(),
            "1 ContentionStop events had no ContentionStart on their thread (the trace began mid-wait); their wait is not counted.");
    }

    [TestMethod]
    public void Thread_id_reused_by_another_process_starts_afresh()
    {
        var other = new ProcessRef(4300, 50 * Ms, "Batch.exe");
        var t = new SpinWaitTracker();
        Samples(t, 101, 10, 2, Spin(Reserve));                       // Shop's thread 101 spins, then exits
        Samples(t, 101, 60, 3, Spin("Batch.Job.Run"), other);        // Batch's new thread 101
        t.Sample(63 * Ms, other, 101, Own);
        var (locks, processes) = t.Build(100 * Ms);
        Assert.AreEqual(2, locks.Rows.Count);
        Assert.AreEqual(3.0, locks.Rows[RowWhere(locks, r => Equals(r.Process, "Batch.exe"), $"Process = {"Batch.exe"}")].SpinCpuMs);
        Assert.AreEqual(2.0, locks.Rows[RowWhere(locks, r => Equals(r.Process, "Shop.exe"), $"Process = {"Shop.exe"}")].SpinCpuMs);
        Assert.AreEqual(2, processes.Rows.Count);
    }

    [TestMethod]
    public void Table_specs_carry_the_issue_column_names_types_and_roles()
    {
        CollectionAssert.AreEqual(new[]
        {
            "Process", "PID", "Lock ID", "Object", "Call Site", "Contentions", "Threads", "Wait (ms)", "Wasted Spin CPU (ms)",
            "Successful Spin CPU (ms)", "Spin CPU (ms)", "Spin Share (%)", "Longest Spin (ms)", "First", "Last",
        }, SpinWaitTables.PerLock.Spec.Columns.Select(c => c.Name).ToArray());
        CollectionAssert.AreEqual(new[]
        {
            "Process", "PID", "Threads", "Lock Spin CPU (ms)", "Yields", "Yields per Second", "Delay Switches", "OpenMP Runtime CPU (ms)", "Hint",
        }, SpinWaitTables.ByProcess.Spec.Columns.Select(c => c.Name).ToArray());
        var lockId = SpinWaitTables.PerLock.Spec.Columns[SpinWaitTables.PerLock.Spec.IndexOf("Lock ID")];
        Assert.AreEqual(ColumnType.Integer, lockId.Type);
        Assert.AreEqual("hex", lockId.Format);
        Assert.AreEqual(ColumnRole.StartTime, SpinWaitTables.PerLock.Spec.Columns[SpinWaitTables.PerLock.Spec.IndexOf("First")].Role);
        Assert.AreEqual(ColumnRole.EndTime, SpinWaitTables.PerLock.Spec.Columns[SpinWaitTables.PerLock.Spec.IndexOf("Last")].Role);
        Assert.AreEqual(ColumnType.Timestamp, SpinWaitTables.PerLock.Spec.Columns[SpinWaitTables.PerLock.Spec.IndexOf("First")].Type);
        foreach (var c in SpinWaitTables.PerLock.Spec.Columns.Concat(SpinWaitTables.ByProcess.Spec.Columns).Where(c => c.Name.EndsWith("(ms)", StringComparison.Ordinal)))
            Assert.AreEqual(ColumnType.Decimal, c.Type, c.Name);
        Assert.AreEqual(Tables.TableIds.SpinWaitCostPerLock, SpinWaitTables.PerLock.Spec.Id);
        Assert.AreEqual(Tables.TableIds.SpinWaitByProcess, SpinWaitTables.ByProcess.Spec.Id);
    }
}
