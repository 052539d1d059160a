using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;
using HiddenCost.Synthetic.Tests.Support;

namespace HiddenCost.Synthetic.Tests;

[TestClass]
public sealed class SyscallHookStormTests
{
    private static readonly SyscallHookStormOptions Options = new() { DurationMs = 80, StormCpus = 3, GapStartMs = 40, GapEndMs = 55 };
    private static readonly Lazy<(ScenarioTrace<SyscallHookStormTruth> Scenario, TraceFacts Facts)> Storm = new(() =>
    {
        var s = SyscallHookStorm.Generate(Options, new TraceBuilderSettings { Compress = true });
        return (s, new TraceFacts(s.Bytes));
    });

    private sealed record Call(int Pid, ulong Address, long Enter, long Exit, int Cpu, int Tid);

    /// <summary>SysClEnter/SysClExit pairs per CPU; the thread is the one the reader says runs there.</summary>
    private static List<Call> Calls(TraceFacts f)
    {
        var calls = new List<Call>();
        var open = new Dictionary<int, (ulong Address, long Enter, int Tid, int Pid)>();
        foreach (var e in f.Events)
        {
            if (e.Is(KernelGroup.PerfInfo, PerfInfoEvents.SysClEnterType))
            {
                Assert.IsFalse(open.ContainsKey(e.Cpu), "enter while a call is open on the CPU");
                open[e.Cpu] = (e.Cursor().Pointer(), e.TimeNs, e.ThreadId, e.ProcessId);
            }
            else if (e.Is(KernelGroup.PerfInfo, PerfInfoEvents.SysClExitType))
            {
                Assert.IsTrue(open.Remove(e.Cpu, out var enter), "exit without enter");
                Assert.AreEqual(enter.Tid, e.ThreadId, "exit on the thread that entered");
                calls.Add(new Call(enter.Pid, enter.Address, enter.Enter, e.TimeNs, e.Cpu, enter.Tid));
            }
        }
        Assert.AreEqual(0, open.Count, "every call exits");
        return calls;
    }

    [TestMethod]
    public void Truth_rows_match_the_syscalls_in_the_file()
    {
        var (scenario, f) = Storm.Value;
        var truth = scenario.Truth;
        var calls = Calls(f);
        var kernel = f.ImageNamed("ntoskrnl.exe");
        Assert.AreEqual(truth.TotalSyscalls, calls.Count);
        Assert.AreEqual(2, truth.Rows.Count, "one row per storm process");
        foreach (var row in truth.Rows)
        {
            var mine = calls.Where(c => c.Pid == row.Pid && c.Address == kernel.Base + row.SyscallRva).ToList();
            Assert.AreEqual(row.Process, f.Processes[row.Pid].Name);
            Assert.AreEqual(row.Syscalls, mine.Count, row.Process);
            Assert.AreEqual(row.TotalSyscallTimeMs, mine.Sum(c => c.Exit - c.Enter) / 1e6, 1e-9, row.Process);
            Assert.AreEqual(row.FirstNs, mine.Min(c => c.Enter));
            Assert.AreEqual(row.LastNs, mine.Max(c => c.Exit));
            Assert.AreEqual(row.Syscalls / ((row.LastNs - row.FirstNs) / 1e9), row.SyscallsPerSecond, 1e-6);
            Assert.AreEqual(row.TotalSyscallTimeMs * 1000 / row.Syscalls, row.MeanSyscallTimeUs, 1e-9);
            Assert.AreEqual($"ntoskrnl.exe+0x{row.SyscallRva:X}", row.UnresolvedSyscall);
        }
        Assert.AreEqual("NtDelayExecution", truth.Rows.Single(r => r.Process == "OrderRouter.exe").Syscall);
        Assert.AreEqual("NtYieldExecution", truth.Rows.Single(r => r.Process == "QuoteFeed.exe").Syscall);
    }

    [TestMethod]
    public void Truth_hook_figures_match_the_samples_and_stacks_in_the_file()
    {
        var (scenario, f) = Storm.Value;
        var truth = scenario.Truth;
        var calls = Calls(f).GroupBy(c => c.Cpu).ToDictionary(g => g.Key, g => g.OrderBy(c => c.Enter).ToList());
        var driver = f.ImageNamed(SyscallHookStorm.CulpritDriver);
        Assert.AreEqual(0, driver.Pid, "a kernel module");
        Assert.AreEqual(0, f.UnresolvedStackKeys, "every stack key is defined by a KeyRundown");
        Assert.AreEqual(1.0, f.SampleIntervalMs);
        foreach (var row in truth.Rows)
        {
            int inCalls = 0, inHook = 0;
            foreach (var s in f.Samples.Where(s => s.Pid == row.Pid))
            {
                var call = calls[s.Cpu].LastOrDefault(c => c.Enter <= s.TimeNs);
                if (call is null || s.TimeNs >= call.Exit || call.Tid != s.Tid) continue;
                inCalls++;
                if (s.Frames.Any(fr => driver.Contains(fr))) inHook++;
            }
            Assert.AreEqual(row.SamplesInSyscalls, inCalls, row.Process);
            Assert.AreEqual(row.HookSamples, inHook, row.Process);
            Assert.AreEqual(inHook * f.SampleIntervalMs, row.HookCpuMs, 1e-9);
            var gap = truth.Gap!;
            int inGap = calls.Values.SelectMany(c => c).Count(c => c.Pid == row.Pid && c.Enter > gap.StartNs && c.Enter < gap.EndNs);
            Assert.IsTrue(inGap > 0 && inGap < row.Syscalls, "the storm goes on through the profiling gap");
            Assert.AreEqual(row.HookCpuMs * 1000 / (row.Syscalls - inGap), row.HookOverheadPerSyscallUs, 1e-9);
            Assert.AreEqual(inCalls / (double)(inCalls - inHook), row.Inflation, 1e-9);
            Assert.IsTrue(inHook > 0 && inHook < inCalls, "some samples in the hook, some in the call itself");
        }
    }

    [TestMethod]
    public void Bystanders_are_in_the_trace_but_not_in_syscalls_or_stacks()
    {
        var (scenario, f) = Storm.Value;
        var truth = scenario.Truth;
        var clean = f.ImageNamed(truth.CleanModule);
        Assert.IsFalse(f.Samples.Any(s => s.Frames.Any(clean.Contains)), "the idle catalogue driver is in no stack");
        Assert.IsTrue(f.Samples.Count(s => s.Pid == truth.ProcessWithoutSyscallsPid) > 40, "MathWorker.exe keeps a CPU busy");
        Assert.IsFalse(Calls(f).Any(c => c.Pid == truth.ProcessWithoutSyscallsPid), "MathWorker.exe makes no syscalls");
        Assert.IsFalse(truth.Rows.Any(r => r.Pid == truth.ProcessWithoutSyscallsPid));
    }

    [TestMethod]
    public void Sampling_gap_is_where_samples_pause_while_other_events_go_on()
    {
        var (scenario, f) = Storm.Value;
        var gap = scenario.Truth.Gap!;
        var times = f.Samples.Select(s => s.TimeNs).Order().ToList();
        var widest = times.Zip(times.Skip(1)).MaxBy(p => p.Second - p.First);
        Assert.AreEqual(gap.StartNs, widest.First);
        Assert.AreEqual(gap.EndNs, widest.Second);
        Assert.AreEqual((gap.EndNs - gap.StartNs) / 1e6, gap.DurationMs, 1e-9);
        Assert.IsTrue(gap.DurationMs > 10 * f.SampleIntervalMs, "longer than 10 sample intervals");
        var inside = f.Events.Where(e => e.TimeNs > gap.StartNs && e.TimeNs < gap.EndNs).ToList();
        Assert.AreEqual(gap.EventsDuringGap, inside.Count);
        Assert.AreEqual(gap.SyscallEventsDuringGap, inside.Count(e => e.Is(KernelGroup.PerfInfo, PerfInfoEvents.SysClEnterType) || e.Is(KernelGroup.PerfInfo, PerfInfoEvents.SysClExitType)));
        Assert.IsTrue(gap.SyscallEventsDuringGap > 1000);
    }

    [TestMethod]
    public void Default_storm_reaches_tens_of_thousands_of_syscalls_per_second_per_cpu_at_an_order_of_magnitude_cost()
    {
        var o = new SyscallHookStormOptions();
        var truth = SyscallHookStorm.Generate(o).Truth;
        foreach (var row in truth.Rows)
        {
            var cpus = row.Process == "OrderRouter.exe" ? (o.StormCpus + 1) / 2 : o.StormCpus / 2;
            Assert.IsTrue(row.SyscallsPerSecond / cpus >= 20_000, $"{row.Process}: {row.SyscallsPerSecond / cpus:N0}/s per CPU");
            Assert.IsTrue(row.MeanSyscallTimeUs >= 10 * o.SyscallUs, $"{row.Process}: mean {row.MeanSyscallTimeUs} µs");
            Assert.IsTrue(row.Inflation >= 10, $"{row.Process}: inflation {row.Inflation}");
        }
    }

    [TestMethod]
    public void Syscall_stacks_follow_each_enter_through_the_logging_path()
    {
        var (_, f) = Storm.Value;
        var kernel = f.ImageNamed("ntoskrnl.exe");
        var enters = f.Events.Where(e => e.Is(KernelGroup.PerfInfo, PerfInfoEvents.SysClEnterType)).ToList();
        var kernelKeys = f.Events.Where(e => e.Is(KernelGroup.StackWalk, StackWalkEvents.StackKeyKernelType))
            .Select(e => { var c = e.Cursor(); return (Ts: c.I64(), Pid: c.U32(), Tid: (int)c.U32()); }).ToHashSet();
        foreach (var e in enters) Assert.IsTrue(kernelKeys.Contains((e.RawTimestamp, (uint)e.ProcessId, e.ThreadId)), "a kernel stack for every enter");
        var rundown = f.Events.Where(e => e.Is(KernelGroup.StackWalk, StackWalkEvents.KeyRundownType)).ToList();
        Assert.IsTrue(rundown.All(r => r.TimeNs >= f.Events.Where(e => !e.Is(KernelGroup.StackWalk, StackWalkEvents.KeyRundownType)).Max(x => x.TimeNs) - 1_000_000),
            "key definitions come in the rundown at the end");
        Assert.IsTrue(kernel.Contains(KernelFrameOfEnterStack(f)));
    }

    private static ulong KernelFrameOfEnterStack(TraceFacts f)
    {
        var e = f.Events.First(e => e.Is(KernelGroup.StackWalk, StackWalkEvents.KeyRundownType));
        var c = e.Cursor();
        c.Pointer();
        return c.Pointer();
    }
}
