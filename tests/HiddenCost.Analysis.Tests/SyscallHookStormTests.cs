using HiddenCost.Analysis.Tables.SpinWait;
using HiddenCost.Analysis.Tables.SyscallHook;
using HiddenCost.Analysis.Tests.Support;
using HiddenCost.Analysis.Model;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Samples;
using HiddenCost.Synthetic.Scenarios;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// Syscall Hook Overhead and Profiling Gaps end to end on synthetic syscall-storm traces (written by
/// HiddenCost.Synthetic from documented layouts), through the reader and <see cref="TraceAnalyzer"/>,
/// checked against the scenario's ground truth.
/// </summary>
[TestClass]
public sealed class SyscallHookStormTests
{
    private const double Tolerance = 0.01;

    private static (AnalysisResult Result, SyscallHookStormTruth Truth) Analyze(SyscallHookStormOptions? options = null, TraceBuilderSettings? settings = null)
    {
        var scenario = SyscallHookStorm.Generate(options, settings);
        return (SyntheticTraces.Analyze(scenario.Trace, "syscall"), scenario.Truth);
    }

    private static void Near(double expected, object? actual, string what)
    {
        Assert.IsNotNull(actual, what);
        double value = Convert.ToDouble(actual);
        Assert.IsTrue(Math.Abs(value - expected) <= Tolerance * Math.Abs(expected),
            $"{what}: {value} is not within 1% of the ground truth {expected}");
    }

    private static int RowOf(Table<SyscallHookOverheadRow> table, string process, string syscall) =>
        table.Rows.ToList().FindIndex(r => r.Process == process && r.Syscall == syscall && r.CulpritModule is not null);

    [TestMethod]
    public void Syscall_storm_rows_match_the_ground_truth_within_one_percent()
    {
        var (result, truth) = Analyze();
        AssertMatches(result, truth);
    }

    [TestMethod]
    public void Overhead_per_syscall_leaves_out_the_calls_made_while_sampling_paused()
    {
        // The driver adds about 32 µs to every call; sampling pauses for 40 ms of the storm's 250. Dividing the hook CPU
        // the samples saw by every call, those made in the pause included, gave 27.2 µs instead of 32.5.
        double Overhead(AnalysisResult result) =>
            Convert.ToDouble(result.Table(SyscallHookTables.Overhead).Rows
                .Single(r => r.Process == "OrderRouter.exe" && r.Syscall == "ntoskrnl.exe+0x5E3B20" && r.CulpritModule is not null).HookOverheadPerSyscallUs);
        var (withGap, _) = Analyze();
        var (withoutGap, _) = Analyze(new SyscallHookStormOptions { GapStartMs = null, GapEndMs = null });
        Assert.AreEqual(Overhead(withoutGap), Overhead(withGap), 0.03 * Overhead(withoutGap));
        Assert.IsTrue(Overhead(withGap) is > 30 and < 35, $"{Overhead(withGap)} µs");
        var note = withGap.Table(SyscallHookTables.Overhead).Notes.Texts().SingleOrDefault(n => n.Contains("were made during profiling gaps"));
        Assert.IsNotNull(note, string.Join(" | ", withGap.Table(SyscallHookTables.Overhead).Notes.Texts()));
        Assert.IsFalse(withoutGap.Table(SyscallHookTables.Overhead).Notes.Texts().Any(n => n.Contains("profiling gaps")), string.Join(" | ", withoutGap.Table(SyscallHookTables.Overhead).Notes.Texts()));
    }

    [TestMethod]
    public void Committed_samples_match_their_ground_truth()
    {
        foreach (var (file, truthOf) in new (string, Func<object, SyscallHookStormTruth>)[]
                 {
                     ("syscall-hook-storm.etl", t => (SyscallHookStormTruth)t),
                     (SampleCatalog.CombinedFileName, t => ((CombinedSampleTruth)t).Syscall),
                 })
        {
            var truth = truthOf(SampleCatalog.All.Single(d => d.FileName == file).Generate().Truth);
            var result = TraceAnalyzer.Analyze(Path.Combine(SharedFolder.RepositoryRoot, "samples", file));
            Assert.IsNull(result.Error, result.Error);
            AssertMatches(result, truth);
            var gaps = result.Table(SyscallHookTables.Gaps);
            Assert.AreEqual(1, gaps.Rows.Count, file);
            Assert.AreEqual(truth.Gap!.StartNs, gaps.Rows[0].Start, file);
        }
    }

    private static void AssertMatches(AnalysisResult result, SyscallHookStormTruth truth)
    {
        var table = result.Table(SyscallHookTables.Overhead);
        Assert.IsTrue(truth.Rows.Count >= 2, "the scenario has victims of both syscalls");
        foreach (var expected in truth.Rows)
        {
            int r = RowOf(table, expected.Process, expected.UnresolvedSyscall);
            string what = $"{expected.Process} {expected.UnresolvedSyscall}";
            Assert.AreEqual(expected.CulpritModule, table.Rows[r].CulpritModule, what);
            Assert.AreEqual(expected.Vendor, table.Rows[r].Vendor, what);
            Assert.AreEqual(expected.Product, table.Rows[r].Product, what);
            Assert.AreEqual(expected.Category, table.Rows[r].Category, what);
            Assert.AreEqual((long)expected.Pid, table.Rows[r].Pid, what);
            Near(expected.Syscalls, table.Rows[r].Syscalls, what + " Syscalls");
            Near(expected.SyscallsPerSecond, table.Rows[r].SyscallsPerSecond, what + " Syscalls per Second");
            Near(expected.TotalSyscallTimeMs, table.Rows[r].TotalSyscallTimeMs, what + " Total Syscall Time");
            Near(expected.MeanSyscallTimeUs, table.Rows[r].MeanSyscallTimeUs, what + " Mean Syscall Time");
            Near(expected.SamplesInSyscalls, table.Rows[r].SamplesInSyscalls, what + " Samples in Syscalls");
            Near(expected.HookCpuMs, table.Rows[r].HookCpuMs, what + " Hook CPU");
            Near(expected.HookOverheadPerSyscallUs, table.Rows[r].HookOverheadPerSyscallUs, what + " Hook Overhead per Syscall");
            Near(expected.Inflation, table.Rows[r].Inflation, what + " Inflation");
            Near(expected.FirstNs, table.Rows[r].First, what + " First");
            Near(expected.LastNs, table.Rows[r].Last, what + " Last");
        }
    }

    [TestMethod]
    public void Only_the_edr_driver_is_a_culprit_and_the_process_without_syscalls_is_absent()
    {
        var (result, truth) = Analyze();
        var table = result.Table(SyscallHookTables.Overhead);
        var culprits = Enumerable.Range(0, table.Rows.Count).Select(r => table.Rows[r].CulpritModule).Where(c => c is not null).Distinct().ToArray();
        CollectionAssert.AreEqual(new[] { truth.CulpritModule }, culprits, "csagent.sys is loaded but never in a syscall stack");
        Assert.IsFalse(Enumerable.Range(0, table.Rows.Count).Any(r => table.Rows[r].Process == truth.ProcessWithoutSyscalls));
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("default sample interval")), string.Join("\n", table.Notes.Texts()));
    }

    [TestMethod]
    public void Sampling_gap_is_found_with_its_start()
    {
        var (result, truth) = Analyze();
        var gaps = result.Table(SyscallHookTables.Gaps);
        Assert.IsNotNull(truth.Gap);
        Assert.AreEqual(1, gaps.Rows.Count);
        Assert.AreEqual(truth.Gap.StartNs, gaps.Rows[0].Start);
        Assert.AreEqual(truth.Gap.EndNs, gaps.Rows[0].End);
        Near(truth.Gap.DurationMs, gaps.Rows[0].DurationMs, "Duration");
        Assert.AreEqual((long)truth.Gap.EventsDuringGap, gaps.Rows[0].EventsDuringGap);
    }

    [TestMethod]
    public void Storm_without_a_gap_reports_none()
    {
        var (result, _) = Analyze(new SyscallHookStormOptions { DurationMs = 60, GapStartMs = null, GapEndMs = null });
        Assert.AreEqual(0, result.Table(SyscallHookTables.Gaps).Rows.Count);
    }

    [TestMethod]
    public void Storm_without_syscall_stacks_still_finds_the_culprit_and_says_what_is_missing()
    {
        var (result, truth) = Analyze(new SyscallHookStormOptions { DurationMs = 60, SyscallStacks = false, GapStartMs = null, GapEndMs = null });
        var table = result.Table(SyscallHookTables.Overhead);
        foreach (var expected in truth.Rows)
            Near(expected.HookCpuMs, table.Rows[RowOf(table, expected.Process, expected.UnresolvedSyscall)].HookCpuMs, "Hook CPU");
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("SysClEnter events carry no stacks") && n.Contains("MultiProfile.wprp!SysCall")),
            string.Join("\n", table.Notes.Texts()));
    }

    [TestMethod]
    public void Storm_with_stacks_on_syscalls_has_no_missing_stack_note()
    {
        var (result, _) = Analyze(new SyscallHookStormOptions { DurationMs = 60, GapStartMs = null, GapEndMs = null });
        Assert.AreEqual(0, result.Table(SyscallHookTables.Overhead).Notes.Texts().Count, string.Join("\n", result.Table(SyscallHookTables.Overhead).Notes.Texts()));
    }

    [TestMethod]
    public void Storm_on_a_32_bit_kernel_with_plain_stacks_matches_the_ground_truth()
    {
        var (result, truth) = Analyze(new SyscallHookStormOptions { DurationMs = 80, GapStartMs = null, GapEndMs = null },
            new TraceBuilderSettings { PointerSize = 4, Stacks = StackEncoding.Plain, Seed = 7 });
        var table = result.Table(SyscallHookTables.Overhead);
        foreach (var expected in truth.Rows)
        {
            int r = RowOf(table, expected.Process, expected.UnresolvedSyscall);
            Near(expected.HookCpuMs, table.Rows[r].HookCpuMs, "Hook CPU");
            Near(expected.Inflation, table.Rows[r].Inflation, "Inflation");
        }
    }
}
