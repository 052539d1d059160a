using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Model;

namespace HiddenCost.Synthetic.Scenarios;

/// <summary>Parameters of the syscall hook storm (issue 9; product.md table 1).</summary>
public sealed record SyscallHookStormOptions
{
    public double DurationMs { get; init; } = 250;

    /// <summary>CPUs each running one storm thread (half OrderRouter.exe with NtDelayExecution, half QuoteFeed.exe with NtYieldExecution).</summary>
    public int StormCpus { get; init; } = 3;

    public double SyscallsPerSecondPerCpu { get; init; } = 25_000;

    /// <summary>What the system call itself costs (without the hook).</summary>
    public double SyscallUs { get; init; } = 1.0;

    /// <summary>What the driver adds to every system call (the seed case: Sleep(0) 33× more expensive).</summary>
    public double HookUs { get; init; } = 32.0;

    /// <summary>CPU samples stop between these two times (ms after the activity start) while all else goes on; null for no gap.</summary>
    public double? GapStartMs { get; init; } = 150;
    public double? GapEndMs { get; init; } = 190;

    /// <summary>Stacks on SysClEnter (the syscall-logging path), as a SysCall profile records them.</summary>
    public bool SyscallStacks { get; init; } = true;

    /// <summary>Every so often a System worker thread preempts each busy CPU for <see cref="PreemptUs"/>.</summary>
    public double PreemptEveryMs { get; init; } = 8;
    public double PreemptUs { get; init; } = 40;

    public int CpusNeeded => StormCpus + 1;
}

/// <summary>
/// One row of the Syscall Hook Overhead table: culprit module × victim process × syscall. Times are ns since
/// the trace start (what the reader reports as TimeNs).
/// </summary>
/// <param name="Syscall">The syscall's name; with no symbols an analysis shows <see cref="UnresolvedSyscall"/>.</param>
/// <param name="SyscallsPerSecond">Syscalls ÷ (LastNs − FirstNs).</param>
/// <param name="TotalSyscallTimeMs">Σ (exit − enter) over the process's calls of that syscall.</param>
/// <param name="SamplesInSyscalls">CPU samples of the process's threads between an enter and its exit.</param>
/// <param name="HookSamples">Those samples with a frame of the culprit module in the kernel part of the stack.</param>
/// <param name="HookCpuMs">HookSamples × sample interval.</param>
/// <param name="HookOverheadPerSyscallUs">
/// HookCpuMs ÷ the Syscalls entered while CPU samples were taken (not between the last sample before the profiling
/// gap and the first after it, where no sample could see the hook), in µs.
/// </param>
/// <param name="Inflation">SamplesInSyscalls ÷ (SamplesInSyscalls − HookSamples).</param>
/// <param name="FirstNs">First SysClEnter of the process for the syscall.</param>
/// <param name="LastNs">Last SysClExit.</param>
/// <param name="TopHookStack">The stack (leaf first, addresses as written) emitted most often among the hook samples.</param>
/// <param name="TopHookStackSamples">How many hook samples had it; <paramref name="RunnerUpHookStackSamples"/>: the next stack's count (0 if none).</param>
public sealed record SyscallHookRowTruth(
    string CulpritModule, string Vendor, string Product, string Category,
    string Process, int Pid, string Syscall, ulong SyscallRva, string UnresolvedSyscall,
    int Syscalls, double SyscallsPerSecond, double TotalSyscallTimeMs, double MeanSyscallTimeUs,
    int SamplesInSyscalls, int HookSamples, double HookCpuMs, double HookOverheadPerSyscallUs, double Inflation,
    long FirstNs, long LastNs,
    IReadOnlyList<ulong> TopHookStack, int TopHookStackSamples, int RunnerUpHookStackSamples);

/// <summary>
/// The profiling gap: <see cref="StartNs"/> is the last CPU sample (any CPU) before the pause, <see cref="EndNs"/>
/// the first after it. Counts are of events strictly between the two.
/// </summary>
public sealed record ProfilingGapTruth(long StartNs, long EndNs, double DurationMs, int EventsDuringGap, int SyscallEventsDuringGap, int ContextSwitchesDuringGap);

/// <summary>Ground truth of a syscall hook storm trace.</summary>
/// <param name="Rows">Culprit rows (only tedrdrv.sys: it is the only third-party module in syscall stacks).</param>
/// <param name="CleanModule">A catalogue driver (csagent.sys, CrowdStrike Falcon) loaded but never in a stack: not a culprit.</param>
/// <param name="ProcessWithoutSyscalls">MathWorker.exe: busy on a CPU, no syscalls, must not appear.</param>
public sealed record SyscallHookStormTruth(
    IReadOnlyList<SyscallHookRowTruth> Rows,
    ProfilingGapTruth? Gap,
    string CulpritModule,
    string CleanModule,
    string ProcessWithoutSyscalls,
    int ProcessWithoutSyscallsPid,
    double SampleIntervalMs,
    int TotalSyscalls,
    int TotalSamples);

/// <summary>
/// Syscall hook storm (issue 9): on each storm CPU one thread loops on Sleep(0) (NtDelayExecution) or
/// SwitchToThread (NtYieldExecution). Every system call passes the ETW syscall-logging path
/// KiSystemServiceExit → PerfInfoLogSysCallEntry → EtwpLogKernelEvent → tedrdrv.sys, which costs
/// <see cref="SyscallHookStormOptions.HookUs"/> on top of the call's own <see cref="SyscallHookStormOptions.SyscallUs"/>.
/// A compute-only process runs on one more CPU; csagent.sys is loaded and idle; CPU samples pause for a while.
/// </summary>
public sealed class SyscallHookStorm
{
    public const string CulpritDriver = "tedrdrv.sys";
    public const string CulpritVendor = "Palo Alto Networks";
    public const string CulpritProduct = "Cortex XDR";
    public const string CulpritCategory = "EDR";
    public const string CleanDriver = "csagent.sys";
    public const uint StatusNoYieldPerformed = 0x4000_0024;

    private readonly TraceBuilder _b;
    private readonly SyscallHookStormOptions _o;
    private readonly SyntheticImage _culprit;
    private readonly SyntheticProcess _mathWorker;
    private readonly List<Call> _calls = [];
    private readonly Dictionary<SyntheticThread, List<Call>> _callsByThread = new(ReferenceEqualityComparer.Instance);

    private SyscallHookStorm(TraceBuilder b, SyscallHookStormOptions o, SyntheticImage culprit, SyntheticProcess mathWorker)
    {
        _b = b;
        _o = o;
        _culprit = culprit;
        _mathWorker = mathWorker;
    }

    /// <summary>Generates the scenario as a trace of its own.</summary>
    public static ScenarioTrace<SyscallHookStormTruth> Generate(SyscallHookStormOptions? options = null, TraceBuilderSettings? settings = null)
    {
        var o = options ?? new SyscallHookStormOptions();
        var b = new TraceBuilder(ScenarioSupport.WithCpus(settings, o.CpusNeeded, "syscall-hook-storm.etl"));
        var scenario = Plan(b, o, Enumerable.Range(0, o.CpusNeeded).ToArray());
        var trace = b.Build();
        return new ScenarioTrace<SyscallHookStormTruth>(trace, scenario.Truth(trace));
    }

    /// <summary>Adds the scenario's processes, threads and events to <paramref name="b"/> on <paramref name="cpus"/>.</summary>
    public static SyscallHookStorm Plan(TraceBuilder b, SyscallHookStormOptions o, IReadOnlyList<int> cpus)
    {
        ScenarioSupport.RequireCpus(b, cpus, o.CpusNeeded, nameof(SyscallHookStorm));
        var periodUs = 1e6 / o.SyscallsPerSecondPerCpu;
        if (periodUs - o.SyscallUs - o.HookUs < 2) throw new ArgumentException("the syscall rate leaves no time for user code");

        var culprit = b.KernelModules.FirstOrDefault(m => m.FileName == CulpritDriver) ?? b.AddKernelModule(CulpritDriver, 0x1A_0000);
        if (!b.KernelModules.Any(m => m.FileName == CleanDriver)) b.AddKernelModule(CleanDriver, 0x22_0000);
        if (!b.KernelModules.Any(m => m.FileName == "Ntfs.sys")) b.AddKernelModule("Ntfs.sys", 0x2F_0000);

        var router = NewApp(b, "OrderRouter.exe", @"""C:\Program Files\Contoso\OrderRouter\OrderRouter.exe"" --pin-cores");
        var feed = NewApp(b, "QuoteFeed.exe", @"""C:\Program Files\Contoso\QuoteFeed\QuoteFeed.exe"" /realtime");
        var math = NewApp(b, "MathWorker.exe", @"""C:\Tools\MathWorker.exe"" --batch nightly.json");
        var scenario = new SyscallHookStorm(b, o, culprit, math.Process);

        var storm = new List<(int Cpu, SyntheticThread Thread, App App, bool Delay)>();
        for (var i = 0; i < o.StormCpus; i++)
        {
            var delay = i < (o.StormCpus + 1) / 2;
            var app = delay ? router : feed;
            storm.Add((cpus[i], b.AddThread(app.Process, "storm worker"), app, delay));
        }
        var mathThread = b.AddThread(math.Process, "solver");
        var mathCpu = cpus[o.StormCpus];

        var end = b.At(o.DurationMs);
        foreach (var (cpu, thread, app, delay) in storm)
            scenario.PlanStormThread(cpu, thread, app, delay, end);
        scenario.PlanComputeThread(mathCpu, mathThread, math, end);

        if (o.GapStartMs is { } gs && o.GapEndMs is { } ge) b.StopSampling(b.At(gs), b.At(ge));
        return scenario;
    }

    private sealed record App(SyntheticProcess Process, SyntheticImage Exe, SystemDlls Dlls)
    {
        public ulong[] UserFrames(params ulong[] leafFrames) =>
            [.. leafFrames, Exe.At(0x1_B010), Exe.At(0x1_2F40), .. Dlls.ThreadStartFrames];
    }

    private static App NewApp(TraceBuilder b, string exe, string commandLine)
    {
        var p = b.AddProcess(exe, commandLine);
        var image = b.AddImage(p, @"\Device\HarddiskVolume3\Program Files\Contoso\" + Path.GetFileNameWithoutExtension(exe) + @"\" + exe, 0x4_8000);
        return new App(p, image, b.AddSystemDlls(p));
    }

    private sealed record Call(SyntheticThread Thread, string Syscall, ulong Rva, long Enter, long Exit);

    private void PlanStormThread(int cpu, SyntheticThread thread, App app, bool delay, long end)
    {
        var b = _b;
        var k = b.Kernel;
        var syscallRva = delay ? KernelFunctions.NtDelayExecutionRva : KernelFunctions.NtYieldExecutionRva;
        var syscallName = delay ? "NtDelayExecution" : "NtYieldExecution";
        ulong[] userInCall = delay
            ? app.UserFrames(app.Dlls.Ntdll.At(UserFunctions.NtdllNtDelayExecutionRva + 0x14), app.Dlls.KernelBase.At(UserFunctions.KernelBaseSleepExRva + 0x9D), app.Exe.At(0x1_A2E4))
            : app.UserFrames(app.Dlls.Ntdll.At(UserFunctions.NtdllNtYieldExecutionRva + 0x14), app.Dlls.KernelBase.At(UserFunctions.KernelBaseSwitchToThreadRva + 0x12), app.Exe.At(0x1_A2E4));
        var user = new Activity("user loop", app.UserFrames(app.Exe.At(0x1_A2C0)), app.UserFrames(app.Exe.At(0x1_A2D7)));
        ulong[] loggingPath = [k.At(KernelFunctions.EtwpLogKernelEventRva + 0x1A6), k.At(KernelFunctions.PerfInfoLogSysCallEntryRva + 0x35), k.At(KernelFunctions.KiSystemServiceExitRva + 0x1F)];
        var hook = new Activity("hook",
            [_culprit.At(0x1_A2F0), _culprit.At(0x1_9C44), _culprit.At(0x4418), .. loggingPath, .. userInCall],
            [_culprit.At(0x1_A35B), _culprit.At(0x1_9C44), _culprit.At(0x4418), .. loggingPath, .. userInCall],
            // The driver calls back into the kernel: leaf in ntoskrnl, the driver deeper in the stack.
            [k.At(KernelFunctions.MemsetRva + 0x40), _culprit.At(0x1_1E08), _culprit.At(0x4418), .. loggingPath, .. userInCall]);
        ulong[] syscallKernel = delay
            ? [k.At(KernelFunctions.KiSwapThreadRva + 0x72), k.At(KernelFunctions.KeDelayExecutionThreadRva + 0x2F), k.At(KernelFunctions.NtDelayExecutionRva + 0x4A), k.At(KernelFunctions.KiSystemServiceCopyEndRva)]
            : [k.At(KernelFunctions.NtYieldExecutionRva + 0x61), k.At(KernelFunctions.KiSystemServiceCopyEndRva)];
        var inCall = new Activity(syscallName, [.. syscallKernel, .. userInCall]);
        var preempter = b.AddThread(b.SystemProcess, "worker", priority: 13);
        var system = new Activity("system worker", [k.At(KernelFunctions.KiSwapThreadRva + 0x1C0), k.At(KernelFunctions.MemsetRva + 0x10)]);

        var userUs = 1e6 / _o.SyscallsPerSecondPerCpu - _o.SyscallUs - _o.HookUs;
        var t = b.At(0) + b.Ticks(b.Random.Between(0, 20));
        var nextPreempt = t + b.Ticks(_o.PreemptEveryMs * 1000 * b.Random.Between(0.5, 1.0));
        var stackContext = loggingPath.Concat(userInCall).ToArray();
        var calls = _callsByThread[thread] = [];
        long? pendingExit = null;
        var exitStatus = delay ? FileIoValues.StatusSuccess : StatusNoYieldPerformed;
        while (true)
        {
            var u = Math.Max(2, b.Ticks(userUs * b.Random.Between(0.7, 1.3)));
            var h = b.Ticks(_o.HookUs * b.Random.Between(0.85, 1.15));
            var s = Math.Max(2, b.Ticks(_o.SyscallUs * b.Random.Between(0.8, 1.2)));
            if (t + u + h + s + 4 >= end)
            {
                // A last stretch of user code, in which the thread logs the exit of its last call.
                b.Run(cpu, thread, t, t + 4, user);
                if (pendingExit is { } last) b.Emit(PerfInfoEvents.SysClExit(b.On(thread, last), exitStatus));
                break;
            }

            var preempted = t + u >= nextPreempt;
            b.Run(cpu, thread, t, t + u, user, preempted ? SwitchOut.Preempted : null);
            // The exit of the previous call is logged as the thread returns to user code.
            if (pendingExit is { } exit) b.Emit(PerfInfoEvents.SysClExit(b.On(thread, exit), exitStatus));
            pendingExit = null;
            t += u;
            if (preempted)
            {
                var p = b.Ticks(_o.PreemptUs);
                b.Run(cpu, preempter, t, t + p, system, SwitchOut.Wait(WaitReason.WrQueue, 0));
                t += p;
                nextPreempt = t + b.Ticks(_o.PreemptEveryMs * 1000 * b.Random.Between(0.8, 1.2));
                continue;
            }

            var enter = t;
            if (h > 0) b.Run(cpu, thread, enter, enter + h, hook); // HookUs = 0: no driver in the syscall path
            b.Run(cpu, thread, enter + h, enter + h + s, inCall);
            var context = b.On(thread, enter);
            b.Emit(PerfInfoEvents.SysClEnter(context, k.At(syscallRva)));
            if (_o.SyscallStacks) b.StackFor(context, thread, stackContext);
            var call = new Call(thread, syscallName, syscallRva, enter, enter + h + s);
            _calls.Add(call);
            calls.Add(call);
            pendingExit = call.Exit;
            t = call.Exit;
        }
    }

    private void PlanComputeThread(int cpu, SyntheticThread thread, App app, long end)
    {
        var b = _b;
        var compute = new Activity("compute",
            app.UserFrames(app.Exe.At(0x2_3A10)), app.UserFrames(app.Exe.At(0x2_3B7C)), app.UserFrames(app.Exe.At(0x2_4410)));
        var preempter = b.AddThread(b.SystemProcess, "worker", priority: 13);
        var system = new Activity("system worker", [b.Kernel.At(KernelFunctions.KiSwapThreadRva + 0x1C0)]);
        var t = b.At(0) + 2;
        while (t < end)
        {
            var stretch = Math.Min(b.Ticks(_o.PreemptEveryMs * 1000 * b.Random.Between(0.8, 1.2)), end - t);
            if (stretch < 2) break;
            b.Run(cpu, thread, t, t + stretch, compute);
            t += stretch;
            var p = b.Ticks(_o.PreemptUs);
            if (t + p > end) break;
            b.Run(cpu, preempter, t, t + p, system, SwitchOut.Wait(WaitReason.WrQueue, 0));
            t += p;
        }
    }

    /// <summary>Computes the figures from what was written (samples as emitted, calls as logged).</summary>
    public SyscallHookStormTruth Truth(BuiltTrace trace)
    {
        var interval = _b.TicksToMs(_b.SampleIntervalTicks);
        var boundary = _b.KernelBoundary;
        var groups = new Dictionary<(int Pid, string Syscall), Accumulator>();
        foreach (var call in _calls)
        {
            var key = (call.Thread.Process.Pid, call.Syscall);
            if (!groups.TryGetValue(key, out var acc)) groups[key] = acc = new Accumulator(call.Thread.Process, call.Syscall, call.Rva);
            acc.Add(call);
        }
        foreach (var sample in trace.Samples)
        {
            if (!_callsByThread.TryGetValue(sample.Thread, out var calls)) continue;
            var i = ScenarioSupport.FindLast(calls, sample.Timestamp, c => c.Enter);
            if (i < 0 || sample.Timestamp >= calls[i].Exit) continue;
            var acc = groups[(sample.Thread.Process.Pid, calls[i].Syscall)];
            acc.Samples++;
            if (!sample.Frames.Any(f => f >= boundary && _culprit.Contains(f))) continue;
            acc.HookSamples++;
            acc.HookStacks[string.Join(",", sample.Frames)] = (sample.Frames, acc.HookStacks.GetValueOrDefault(string.Join(",", sample.Frames)).Count + 1);
        }

        var gap = GapTruth(trace);
        foreach (var call in _calls)
            if (gap is not null && trace.ToTraceNs(call.Enter) > gap.StartNs && trace.ToTraceNs(call.Enter) < gap.EndNs)
                groups[(call.Thread.Process.Pid, call.Syscall)].InGap++;
        var rows = groups.Values
            .Where(a => a.HookSamples > 0)
            .OrderBy(a => a.Process.Pid).ThenBy(a => a.Syscall, StringComparer.Ordinal)
            .Select(a =>
            {
                var firstNs = trace.ToTraceNs(a.First);
                var lastNs = trace.ToTraceNs(a.Last);
                var totalMs = trace.TicksToMs(a.TotalTicks);
                var hookMs = a.HookSamples * interval;
                var stacks = a.HookStacks.Values.OrderByDescending(v => v.Count).ToArray();
                return new SyscallHookRowTruth(CulpritDriver, CulpritVendor, CulpritProduct, CulpritCategory,
                    a.Process.ImageName, a.Process.Pid, a.Syscall, a.Rva, $"ntoskrnl.exe+0x{a.Rva:X}",
                    a.Count, a.Count / ((lastNs - firstNs) / 1e9), totalMs, totalMs * 1000 / a.Count,
                    a.Samples, a.HookSamples, hookMs, hookMs * 1000 / (a.Count - a.InGap),
                    a.Samples / (double)(a.Samples - a.HookSamples), firstNs, lastNs,
                    stacks[0].Frames, stacks[0].Count, stacks.Length > 1 ? stacks[1].Count : 0);
            })
            .ToArray();

        return new SyscallHookStormTruth(rows, gap, CulpritDriver, CleanDriver, _mathWorker.ImageName, _mathWorker.Pid,
            interval, _calls.Count, trace.Samples.Count);
    }

    private ProfilingGapTruth? GapTruth(BuiltTrace trace)
    {
        if (_o.GapStartMs is not { } gs || _o.GapEndMs is not { } ge) return null;
        var gapStart = _b.At(gs);
        var gapEnd = _b.At(ge);
        var before = trace.Samples.Where(s => s.Timestamp < gapStart).Max(s => s.Timestamp);
        var after = trace.Samples.Where(s => s.Timestamp >= gapEnd).Min(s => s.Timestamp);
        var inside = trace.Records.Where(r => r.Timestamp > before && r.Timestamp < after).ToArray();
        var syscallEvents = inside.Count(r => r is Etl.KernelRecord { Group: KernelGroup.PerfInfo, Type: PerfInfoEvents.SysClEnterType or PerfInfoEvents.SysClExitType });
        var switches = inside.Count(r => r is Etl.KernelRecord { Group: KernelGroup.Thread, Type: ThreadEvents.CSwitchType });
        return new ProfilingGapTruth(trace.ToTraceNs(before), trace.ToTraceNs(after), trace.TicksToMs(after - before), inside.Length, syscallEvents, switches);
    }

    private sealed class Accumulator(SyntheticProcess process, string syscall, ulong rva)
    {
        public SyntheticProcess Process { get; } = process;
        public string Syscall { get; } = syscall;
        public ulong Rva { get; } = rva;
        public int Count { get; private set; }
        public long TotalTicks { get; private set; }
        public long First { get; private set; } = long.MaxValue;
        public long Last { get; private set; } = long.MinValue;
        public int Samples { get; set; }
        public int HookSamples { get; set; }
        public int InGap { get; set; }
        public Dictionary<string, (ulong[] Frames, int Count)> HookStacks { get; } = new();

        public void Add(Call call)
        {
            Count++;
            TotalTicks += call.Exit - call.Enter;
            First = Math.Min(First, call.Enter);
            Last = Math.Max(Last, call.Exit);
        }
    }
}
