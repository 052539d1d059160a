using HiddenCost.Analysis.Tables.SyscallHook;
using HiddenCost.Analysis.Tables.SpinWait;
using HiddenCost.Analysis.Tests.Support;
using System.Collections.Concurrent;
using HiddenCost.Analysis.Model;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// The Spin-Wait tables end to end on synthetic spin-contention traces (written by the project's synthetic writer
/// with documented layouts): reader, decoders, shared stacks and state, the one-pass analyzer, against the
/// scenario's ground truth (within 1%: spin figures are sample counts, waits come from the events).
/// </summary>
[TestClass]
public sealed class SpinWaitScenarioTests
{
    private const string PerLock = "Spin-Wait Cost per Lock", ByProcess = "Spin-Wait by Process";
    private static readonly ConcurrentDictionary<string, Lazy<(AnalysisResult Result, SpinContentionTruth Truth)>> Runs = new();

    private static (AnalysisResult Result, SpinContentionTruth Truth) Run(ClrFlavor runtime, StackEncoding stacks = StackEncoding.Keyed,
        int pointerSize = 8, bool compress = false) =>
        Run($"{runtime}-{stacks}-{pointerSize}-{compress}", () =>
        {
            var scenario = SpinContention.Generate(new SpinContentionOptions { Runtime = runtime, ProcessPointerSize = pointerSize },
                new TraceBuilderSettings { Stacks = stacks, Compress = compress });
            return (scenario.Trace, scenario.Truth);
        });

    /// <summary>All four scenarios on one machine: the other problems' processes must not show as spinning.</summary>
    private static (AnalysisResult Result, SpinContentionTruth Truth) Combined() =>
        Run("combined", () =>
        {
            var scenario = CombinedSample.Generate(settings: new TraceBuilderSettings { Compress = true });
            return (scenario.Trace, scenario.Truth.Spin);
        });

    private static (AnalysisResult Result, SpinContentionTruth Truth) Run(string key, Func<(BuiltTrace Trace, SpinContentionTruth Truth)> generate) =>
        Runs.GetOrAdd(key, _ => new Lazy<(AnalysisResult, SpinContentionTruth)>(() =>
        {
            var (trace, truth) = generate();
            return (SyntheticTraces.Analyze(trace, "spin-" + key), truth);
        })).Value;

    private static void Near(double expected, object? actual, string what, double relative = 0.01)
    {
        Assert.IsNotNull(actual, what);
        double a = (double)actual;
        Assert.IsTrue(Math.Abs(a - expected) <= Math.Max(relative * Math.Abs(expected), 1e-9), $"{what}: expected {expected} within {relative:P4}, got {a}");
    }

    private static int RowOf(Table<SpinWaitLockRow> t, string process, string? callSite = null)
    {
        for (int i = 0; i < t.Rows.Count; i++)
            if (t.Rows[i].Process == process && (callSite is null || t.Rows[i].CallSite == callSite)) return i;
        Assert.Fail($"{t.Spec.Name}: no row for {process} {callSite}; rows: {string.Join(" | ", t.Rows)}");
        return -1;
    }

    private static int RowOf(Table<SpinWaitProcessRow> t, string process)
    {
        for (int i = 0; i < t.Rows.Count; i++)
            if (t.Rows[i].Process == process) return i;
        Assert.Fail($"{t.Spec.Name}: no row for {process}; rows: {string.Join(" | ", t.Rows)}");
        return -1;
    }

    [TestMethod]
    [DataRow(ClrFlavor.CoreClr, StackEncoding.Keyed, 8, false)]
    [DataRow(ClrFlavor.CoreClr, StackEncoding.Plain, 4, true)]
    [DataRow(ClrFlavor.NetFramework, StackEncoding.Keyed, 8, false)]
    [DataRow(ClrFlavor.NetFramework, StackEncoding.Plain, 4, false)]
    public void Per_lock_rows_match_the_synthetic_ground_truth(ClrFlavor runtime, StackEncoding stacks, int pointerSize, bool compress)
    {
        var (result, truth) = Run(runtime, stacks, pointerSize, compress);
        Assert.AreEqual(4, truth.Locks.Count, "three contending call sites and one that only spins");
        AssertLocks(result, truth);
    }

    /// <summary>
    /// The combined sample has a 40 ms gap in CPU sampling (the syscall storm's "profiling vanished"). Its ground truth
    /// lets a spin run from before the gap name the call site of a contention after it, and so gives AuditLog.Append's
    /// successful spins to the StockCache lock. The analysis takes a contention's call site only from a run that ends
    /// within two sample intervals of it, so those spins keep their own call-site row; everything else matches.
    /// </summary>
    [TestMethod]
    public void Per_lock_rows_of_the_combined_sample_match_its_ground_truth_across_the_sampling_gap()
    {
        var (result, truth) = Combined();
        var table = result.Table(SpinWaitTables.PerLock);
        Assert.IsTrue(truth.Locks.Count >= 3, "contending call sites and one that only spins");
        var rows = Enumerable.Range(0, table.Rows.Count).ToArray();
        foreach (var expected in truth.Locks)
        {
            int row = expected.LockId is { } id
                ? rows.Single(r => (long?)table.Rows[r].LockId == unchecked((long)id))
                : RowOf(table, expected.Process, expected.CallSite);
            Assert.AreEqual(expected.CallSite, table.Rows[row].CallSite);
            Assert.AreEqual((long)expected.Contentions, table.Rows[row].Contentions, expected.CallSite);
            Near(expected.WaitMs, table.Rows[row].WaitMs, expected.CallSite + " wait");
            Near(expected.WastedSpinMs, table.Rows[row].WastedSpinCpuMs, expected.CallSite + " wasted");
        }
        Near(truth.Locks.Sum(l => l.SpinMs), rows.Sum(r => (double)table.Rows[r].SpinCpuMs!), "all spin CPU");
        var extra = rows.Where(r => !truth.Locks.Any(l => l.CallSite == table.Rows[r].CallSite)).ToArray();
        Assert.AreEqual(1, extra.Length);
        Assert.AreEqual("Contoso.Inventory.AuditLog.Append", table.Rows[extra[0]].CallSite);
        Assert.AreEqual(0L, table.Rows[extra[0]].Contentions);
    }

    private static void AssertLocks(AnalysisResult result, SpinContentionTruth truth)
    {
        var table = result.Table(SpinWaitTables.PerLock);
        Assert.AreEqual(truth.Locks.Count, table.Rows.Count, string.Join(" | ", table.Rows.Select(r => string.Join(", ", r))));
        foreach (var expected in truth.Locks)
        {
            int row = RowOf(table, expected.Process, expected.CallSite);
            string what = $"{expected.CallSite}";
            Assert.AreEqual((long)expected.Pid, table.Rows[row].Pid, what);
            Assert.AreEqual(expected.LockId is { } id ? (long?)unchecked((long)id) : null, table.Rows[row].LockId, what);
            Assert.AreEqual(expected.ObjectId is { } o ? (long?)unchecked((long)o) : null, table.Rows[row].Object, what);
            Assert.AreEqual((long)expected.Contentions, table.Rows[row].Contentions, what);
            Assert.AreEqual((long)expected.Threads, table.Rows[row].Threads, what);
            Near(expected.WaitMs, table.Rows[row].WaitMs, what + " wait");
            Near(expected.WastedSpinMs, table.Rows[row].WastedSpinCpuMs, what + " wasted");
            Near(expected.SuccessfulSpinMs, table.Rows[row].SuccessfulSpinCpuMs, what + " successful");
            Near(expected.SpinMs, table.Rows[row].SpinCpuMs, what + " spin");
            Near(expected.SpinSharePercent, table.Rows[row].SpinSharePercent, what + " share");
            Near(expected.LongestSpinMs, table.Rows[row].LongestSpinMs, what + " longest");
            Assert.AreEqual(expected.FirstNs, table.Rows[row].First, what + " first");
            Assert.AreEqual(expected.LastNs, table.Rows[row].Last, what + " last");
        }
    }

    [TestMethod]
    [DataRow(ClrFlavor.CoreClr)]
    [DataRow(ClrFlavor.NetFramework)]
    public void Per_process_rows_match_the_yield_storm_and_the_OpenMP_spinner(ClrFlavor runtime) => AssertProcesses(Run(runtime));

    [TestMethod]
    public void Per_process_rows_of_the_combined_sample_leave_out_the_other_problems_processes() => AssertProcesses(Combined());

    private static void AssertProcesses((AnalysisResult Result, SpinContentionTruth Truth) run)
    {
        var (result, truth) = run;
        var table = result.Table(SpinWaitTables.ByProcess);
        Assert.AreEqual(3, truth.Processes.Count, "the managed process, the yield storm and the OpenMP spinner");
        Assert.AreEqual(truth.Processes.Count, table.Rows.Count, string.Join(" | ", table.Rows.Select(r => string.Join(", ", r))));
        foreach (var expected in truth.Processes)
        {
            int row = RowOf(table, expected.Process);
            string what = expected.Process;
            Assert.AreEqual((long)expected.Pid, table.Rows[row].Pid, what);
            Assert.AreEqual((long)expected.Threads, table.Rows[row].Threads, what);
            Near(expected.LockSpinCpuMs, table.Rows[row].LockSpinCpuMs, what + " lock spin");
            Assert.AreEqual((long)expected.Yields, table.Rows[row].Yields, what);
            if (expected.Yields > 1) Near(expected.YieldsPerSecond, table.Rows[row].YieldsPerSecond, what + " yields/s", relative: 1e-6); // one definition on both sides
            else Assert.IsNull(table.Rows[row].YieldsPerSecond, what);
            Assert.AreEqual((long)expected.DelaySwitches, table.Rows[row].DelaySwitches, what);
            Near(expected.OpenMpRuntimeCpuMs, table.Rows[row].OpenMPRuntimeCpuMs, what + " OpenMP");
            var hint = table.Rows[row].Hint;
            Assert.AreEqual(expected.HintExpected, hint is not null, what + ": " + hint);
            if (hint is not null) StringAssert.Contains(hint, "KMP_BLOCKTIME=0");
        }
    }

    [TestMethod]
    public void Call_sites_are_managed_methods_named_from_CLR_method_events()
    {
        var table = Run(ClrFlavor.CoreClr).Result.Table(SpinWaitTables.PerLock);
        var sites = Enumerable.Range(0, table.Rows.Count).Select(i => table.Rows[i].CallSite).ToArray();
        CollectionAssert.IsSubsetOf(new[] { "Contoso.Inventory.StockCache.TryGet", "Contoso.Inventory.PriceTable.Lookup" }, sites);
        // AuditLog.Append is JIT-compiled during the trace (MethodLoadVerbose), absent from the start rundown.
        CollectionAssert.Contains(sites, "Contoso.Inventory.AuditLog.Append");
    }
}
