using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Model;

namespace HiddenCost.Synthetic.Scenarios;

/// <summary>Which .NET runtime the contending process runs.</summary>
public enum ClrFlavor
{
    /// <summary>.NET 8 (coreclr.dll): ContentionStart v2 with LockID/AssociatedObjectID/owner, ContentionStop v1 with DurationNs.</summary>
    CoreClr,

    /// <summary>.NET Framework 4.x (clr.dll): ContentionStart v1 and ContentionStop v0, no lock id and no duration.</summary>
    NetFramework,
}

/// <summary>Parameters of the spin contention scenario (issue 10; product.md table 2).</summary>
public sealed record SpinContentionOptions
{
    public double DurationMs { get; init; } = 300;

    /// <summary>Managed worker threads, one per CPU, contending for four call sites.</summary>
    public int WorkerThreads { get; init; } = 4;

    public ClrFlavor Runtime { get; init; } = ClrFlavor.CoreClr;

    /// <summary>4 runs the .NET process as a 32-bit (WOW64) process: CLR events and user frames with 4-byte pointers.</summary>
    public int ProcessPointerSize { get; init; } = 8;

    public double WorkMsMin { get; init; } = 1.5;
    public double WorkMsMax { get; init; } = 5;
    public double SpinMsMin { get; init; } = 1.2;
    public double SpinMsMax { get; init; } = 8;
    public double WaitMsMin { get; init; } = 2;
    public double WaitMsMax { get; init; } = 12;

    /// <summary>PollingService.exe: two threads on one CPU handing it back and forth with SwitchToThread and Sleep(0).</summary>
    public bool YieldStorm { get; init; } = true;
    public double YieldSliceUs { get; init; } = 60;

    /// <summary>render.exe: an OpenMP worker that spends most of its time spin-waiting in libiomp5md.dll (KMP_BLOCKTIME).</summary>
    public bool OpenMp { get; init; } = true;

    public int CpusNeeded => WorkerThreads + (YieldStorm ? 1 : 0) + (OpenMp ? 1 : 0);
}

/// <summary>
/// One row of Spin-Wait Cost per Lock. Spin figures count CPU samples × interval: a spin run is a maximal sequence
/// of a thread's spin samples (leaf frames in the runtime module, called from managed code) with no non-spin
/// sample and no ContentionStart of that thread between them; it is wasted when the thread's next ContentionStart
/// comes before its next non-spin sample, successful otherwise.
/// </summary>
/// <param name="LockId">CLR LockID (ContentionStart v2), null on .NET Framework and for call-site-keyed rows.</param>
/// <param name="ObjectId">AssociatedObjectID, null likewise.</param>
/// <param name="CallSite">Namespace.Type.Method of the managed caller of the spinning runtime frames.</param>
/// <param name="Contentions">ContentionStart events.</param>
/// <param name="Threads">Distinct threads that contended for or spun on the lock.</param>
/// <param name="WaitMs">Σ ContentionStop DurationNs (v1), or Σ (stop − start) on .NET Framework.</param>
/// <param name="SpinSharePercent">SpinMs ÷ (SpinMs + WaitMs) × 100.</param>
/// <param name="LongestSpinMs">Longest single run, samples × interval.</param>
/// <param name="FirstNs">Earliest of the lock's contention events and attributed spin samples (ns since trace start).</param>
/// <param name="OwnerThreadIds">LockOwnerThreadID values seen (v2 only).</param>
public sealed record LockTruth(
    string Process, int Pid, ulong? LockId, ulong? ObjectId, string CallSite,
    int Contentions, int Threads, double WaitMs, double WastedSpinMs, double SuccessfulSpinMs, double SpinMs,
    double SpinSharePercent, double LongestSpinMs, long FirstNs, long LastNs,
    IReadOnlyList<int> OwnerThreadIds, int WastedRuns, int SuccessfulRuns);

/// <summary>One row of Spin-Wait by Process.</summary>
/// <param name="Threads">Threads of the process that spun, contended, yielded or ran in the OpenMP runtime.</param>
/// <param name="Yields">Context switches out of the process's threads with wait reason WrYieldExecution.</param>
/// <param name="YieldsPerSecond">(Yields − 1) ÷ (last yield − first yield): the rate between the first and the last, as the table gives it.</param>
/// <param name="DelaySwitches">Context switches out with wait reason DelayExecution (Sleep(0)).</param>
/// <param name="OpenMpRuntimeCpuMs">Samples whose instruction pointer is in libiomp5md.dll × interval.</param>
/// <param name="OpenMpShare">Those samples ÷ all samples of the process.</param>
/// <param name="HintExpected">True when most of the process's CPU is the OpenMP wait loop (the KMP_BLOCKTIME hint applies).</param>
public sealed record SpinProcessTruth(
    string Process, int Pid, int Threads, double LockSpinCpuMs, int Yields, double YieldsPerSecond, int DelaySwitches,
    double OpenMpRuntimeCpuMs, double OpenMpShare, bool HintExpected);

/// <summary>Ground truth of a spin contention trace.</summary>
public sealed record SpinContentionTruth(
    IReadOnlyList<LockTruth> Locks, IReadOnlyList<SpinProcessTruth> Processes, double SampleIntervalMs, ClrFlavor Runtime,
    string ManagedProcess, int ManagedPid);

/// <summary>
/// Spin contention (issue 10). Managed workers alternate work and lock acquisition at four call sites; each
/// acquisition spins first (samples in the runtime's spin code under the call site), then either gets the lock or
/// gives up and waits (ContentionStart, a UserRequest wait, a ReadyThread from the owner, ContentionStop).
/// PriceTable.Lookup never contends, so its spins can only be keyed by call site. A yield storm and an OpenMP
/// spinner run beside them.
/// </summary>
public sealed class SpinContention
{
    private const ulong CoreLibThreadStartRva = 0x2B_5F10;
    private const ulong RuntimeKickOffRva = 0x12_F3D0;

    private readonly TraceBuilder _b;
    private readonly SpinContentionOptions _o;
    private readonly SyntheticProcess _process;
    private readonly SyntheticImage _runtime;
    private readonly IReadOnlyList<ClrMethod> _methods;
    private readonly List<SyntheticThread> _workers = [];
    private readonly List<Contention> _contentions = [];
    private SyntheticProcess? _polling;
    private SyntheticProcess? _render;
    private SyntheticImage? _openMp;

    private SpinContention(TraceBuilder b, SpinContentionOptions o, SyntheticProcess process, SyntheticImage runtime, IReadOnlyList<ClrMethod> methods)
    {
        _b = b;
        _o = o;
        _process = process;
        _runtime = runtime;
        _methods = methods;
    }

    private sealed record Site(ClrMethod Method, ulong LockId, ulong ObjectId, double ContendProbability, double Weight);

    private sealed record Contention(SyntheticThread Thread, Site Site, long Start, long? Stop, SyntheticThread Owner);

    public static ScenarioTrace<SpinContentionTruth> Generate(SpinContentionOptions? options = null, TraceBuilderSettings? settings = null)
    {
        var o = options ?? new SpinContentionOptions();
        var b = new TraceBuilder(ScenarioSupport.WithCpus(settings, o.CpusNeeded, "spin-contention.etl"));
        var scenario = Plan(b, o, Enumerable.Range(0, o.CpusNeeded).ToArray());
        var trace = b.Build();
        return new ScenarioTrace<SpinContentionTruth>(trace, scenario.Truth(trace));
    }

    public static SpinContention Plan(TraceBuilder b, SpinContentionOptions o, IReadOnlyList<int> cpus)
    {
        ScenarioSupport.RequireCpus(b, cpus, o.CpusNeeded, nameof(SpinContention));
        if (o.WorkerThreads < 2) throw new ArgumentException("at least two workers (one holds the lock another waits for)");
        var core = o.Runtime == ClrFlavor.CoreClr;
        var p8 = o.ProcessPointerSize == 8;
        var exe = core ? "InventoryService.exe" : "LegacyInventory.exe";
        var process = b.AddProcess(exe, $@"""C:\Services\Contoso\{exe}"" --workers {o.WorkerThreads}", pointerSize: o.ProcessPointerSize);
        var appDir = @"\Device\HarddiskVolume3\Services\Contoso\";
        b.AddImage(process, appDir + exe, 0x3_0000);
        var dlls = b.AddSystemDlls(process);
        SyntheticImage runtime, coreLib;
        if (core)
        {
            var dotnet = (p8 ? @"\Device\HarddiskVolume3\Program Files\dotnet" : @"\Device\HarddiskVolume3\Program Files (x86)\dotnet") + @"\shared\Microsoft.NETCore.App\8.0.11\";
            runtime = b.AddImage(process, dotnet + "coreclr.dll", 0x4C_0000);
            coreLib = b.AddImage(process, dotnet + "System.Private.CoreLib.dll", 0xF2_0000);
            b.AddImage(process, dotnet + "clrjit.dll", 0x1D_0000);
        }
        else
        {
            var fx = p8 ? @"\Device\HarddiskVolume3\Windows\Microsoft.NET\Framework64\v4.0.30319\" : @"\Device\HarddiskVolume3\Windows\Microsoft.NET\Framework\v4.0.30319\";
            runtime = b.AddImage(process, fx + "clr.dll", 0x9E_0000);
            coreLib = b.AddImage(process, @"\Device\HarddiskVolume3\Windows\assembly\NativeImages_v4.0.30319_64\mscorlib\mscorlib.ni.dll", 0x160_0000);
            b.AddImage(process, fx + "clrjit.dll", 0x15_0000);
        }

        var codeBase = p8 ? 0x0000_7FF8_4C10_0000UL : 0x0A10_0000UL;
        var descBase = p8 ? 0x0000_7FF8_4B00_3A00UL : 0x0980_3A00UL;
        var moduleId = p8 ? 0x0000_7FF8_4AF0_2000UL : 0x0970_2000UL;
        var specs = new (string Ns, string Name, uint Size, string Sig)[]
        {
            ("Contoso.Inventory.Worker", "Run", 0x120, "void  ()"),
            ("Contoso.Inventory.OrderProcessor", "ProcessBatch", 0x340, "void  (class Contoso.Inventory.Batch)"),
            ("Contoso.Inventory.OrderProcessor", "Validate", 0x180, "bool  (class Contoso.Inventory.Order)"),
            ("Contoso.Inventory.StockCache", "TryGet", 0x110, "bool  (int32,class Contoso.Inventory.StockItem&)"),
            ("Contoso.Inventory.OrderQueue", "Enqueue", 0xC8, "void  (class Contoso.Inventory.Order)"),
            ("Contoso.Inventory.AuditLog", "Append", 0x140, "void  (class System.String)"),
            ("Contoso.Inventory.PriceTable", "Lookup", 0xA0, "float64  (int32)"),
        };
        var methods = new List<ClrMethod>();
        var cursor = codeBase;
        for (var i = 0; i < specs.Length; i++)
        {
            methods.Add(new ClrMethod(descBase + (ulong)i * 0x48, moduleId, cursor, specs[i].Size, 0x0600_0012u + (uint)i, specs[i].Ns, specs[i].Name, specs[i].Sig));
            cursor += (specs[i].Size + 0x3F) & ~0x3FUL;
        }

        var scenario = new SpinContention(b, o, process, runtime, methods);
        var heap = p8 ? 0x0000_01C4_8F2A_3D40UL : 0x0523_3D40UL;
        var objects = p8 ? 0x0000_01C4_9000_1E28UL : 0x0261_1E28UL;
        var sites = new[]
        {
            new Site(methods[3], heap, objects, 0.75, 0.35),
            new Site(methods[4], heap + 0x60, objects + 0x2A0, 0.35, 0.30),
            new Site(methods[5], heap + 0xC0, objects + 0x5F8, 0.15, 0.20),
            new Site(methods[6], 0, 0, 0.0, 0.15),
        };

        for (var i = 0; i < o.WorkerThreads; i++) scenario._workers.Add(b.AddThread(process, ".NET TP Worker"));
        scenario.PlanWorkers(cpus, sites, dlls, coreLib);
        var next = o.WorkerThreads;
        if (o.YieldStorm) scenario.PlanYieldStorm(cpus[next++]);
        if (o.OpenMp) scenario.PlanOpenMp(cpus[next]);
        return scenario;
    }

    private ulong Runtime(ulong rva) => _runtime.At(rva);

    private void PlanWorkers(IReadOnlyList<int> cpus, Site[] sites, SystemDlls dlls, SyntheticImage coreLib)
    {
        var b = _b;
        var core = _o.Runtime == ClrFlavor.CoreClr;
        var pointer = _o.ProcessPointerSize;
        ulong[] outer = [_methods[0].StartAddress + 0x41, coreLib.At(CoreLibThreadStartRva), Runtime(RuntimeKickOffRva), .. dlls.ThreadStartFrames];
        ulong[] ProcessBatch(ulong offset) => [_methods[1].StartAddress + offset, .. outer];
        var work = new Activity("managed work",
            ProcessBatch(0x120), ProcessBatch(0x1B4), [_methods[2].StartAddress + 0x58, .. ProcessBatch(0x9A)]);
        var spin = sites.ToDictionary(s => s, s =>
        {
            ulong[] caller = [s.Method.StartAddress + 0x3C, .. ProcessBatch(0x8A)];
            return new Activity("spin at " + s.Method.FullName,
                [Runtime(0x1B_2C40), Runtime(0x1B_3010), Runtime(0x1C_7A20), .. caller],
                [Runtime(0x1B_2C58), Runtime(0x1B_3010), Runtime(0x1C_7A20), .. caller]);
        });
        var block = sites.ToDictionary(s => s, s => new Activity("entering wait at " + s.Method.FullName,
            [dlls.Ntdll.At(UserFunctions.NtdllNtWaitForSingleObjectRva + 0x14), dlls.KernelBase.At(0x3_1E8E), Runtime(0x9_8120), Runtime(0x1B_3400), Runtime(0x1C_7A20),
             s.Method.StartAddress + 0x3C, .. ProcessBatch(0x8A)]));

        // CLR rundown at the start names every method but AuditLog.Append, which is JIT-compiled during the trace.
        var rundownThread = _workers[0];
        var jitLater = _methods[5];
        foreach (var m in _methods.Where(m => m != jitLater))
            b.AtStartRundown(c => ClrEvents.MethodDCStartVerbose(ManagedContext(c, rundownThread), m, core ? (byte)2 : (byte)1));
        foreach (var m in _methods)
            b.AtEndRundown(c => ClrEvents.MethodDCEndVerbose(ManagedContext(c, rundownThread), m, core ? (byte)2 : (byte)1));

        var end = b.At(_o.DurationMs);
        var pendingStops = new List<(SyntheticThread Thread, long At, Contention Contention)>();
        for (var w = 0; w < _workers.Count; w++)
        {
            var thread = _workers[w];
            var cpu = cpus[w];
            var owner = _workers[(w + 1) % _workers.Count];
            var t = b.At(0) + b.Ticks(b.Random.Between(0, 300));
            Contention? waiting = null;
            var first = true;
            while (true)
            {
                var workTicks = b.Ticks(b.Random.Between(_o.WorkMsMin, _o.WorkMsMax) * 1000);
                var site = Pick(sites);
                var spinTicks = b.Ticks(b.Random.Between(_o.SpinMsMin, _o.SpinMsMax) * 1000);
                var contend = b.Random.Chance(site.ContendProbability);
                var waitTicks = b.Ticks(b.Random.Between(_o.WaitMsMin, _o.WaitMsMax) * 1000);
                if (t + workTicks + spinTicks + 4 + waitTicks + 10 >= end)
                {
                    b.Run(cpu, thread, t, Math.Max(t + 4, end), work);
                    if (waiting is not null) pendingStops.Add((thread, t + 2, waiting));
                    break;
                }

                b.Run(cpu, thread, t, t + workTicks, work);
                if (waiting is not null) pendingStops.Add((thread, t + 2, waiting));
                waiting = null;
                if (first && w == 0)
                    b.Emit(ClrEvents.MethodLoadVerbose(b.On(thread, t + 2, userMode: true), jitLater, core ? (byte)2 : (byte)1));
                first = false;
                t += workTicks;
                b.Run(cpu, thread, t, t + spinTicks, spin[site]);
                t += spinTicks;
                if (!contend) continue;

                // Spinning failed: announce the contention as the thread starts to block, then wait.
                b.Run(cpu, thread, t, t + 4, block[site], SwitchOut.UserWait);
                var startContext = b.On(thread, t, userMode: true);
                b.Emit(core
                    ? ClrEvents.ContentionStart(startContext, 2, site.LockId, site.ObjectId, (ulong)owner.Tid)
                    : ClrEvents.ContentionStart(startContext, 1));
                waiting = new Contention(thread, site, t, null, owner);
                t += 4 + waitTicks;
            }
        }

        foreach (var (thread, at, contention) in pendingStops)
        {
            var stop = contention with { Stop = at };
            _contentions.Add(stop);
            var c = b.On(thread, at, userMode: true);
            b.Emit(core
                ? ClrEvents.ContentionStop(c, 1, b.TicksToMs(at - contention.Start) * 1e6)
                : ClrEvents.ContentionStop(c, 0));
            // The owner releasing the lock readies the waiter, from its own CPU when it is running then.
            var wake = SwitchInBefore(thread, at);
            if (wake - 2 > contention.Start + 4 && b.SegmentAt(contention.Owner, wake - 2) is { } ownerSegment)
                b.Ready(ownerSegment.Cpu, wake - 2, thread);
        }
    }

    private long SwitchInBefore(SyntheticThread thread, long at) => _b.SegmentAt(thread, at)!.Start;

    private static EventContext ManagedContext(EventContext rundown, SyntheticThread thread) =>
        rundown with { ThreadId = (uint)thread.Tid, ProcessId = (uint)thread.Process.Pid, PointerSize = thread.Process.PointerSize };

    private Site Pick(Site[] sites)
    {
        var r = _b.Random.NextDouble() * sites.Sum(s => s.Weight);
        foreach (var s in sites)
        {
            if (r < s.Weight) return s;
            r -= s.Weight;
        }
        return sites[^1];
    }

    private void PlanYieldStorm(int cpu)
    {
        var b = _b;
        var polling = _polling = b.AddProcess("PollingService.exe", @"""C:\Program Files\Contoso\PollingService\PollingService.exe"" -service");
        var exe = b.AddImage(polling, @"\Device\HarddiskVolume3\Program Files\Contoso\PollingService\PollingService.exe", 0x2_4000);
        var dlls = b.AddSystemDlls(polling);
        var yielder = b.AddThread(polling, "queue poller");
        var sleeper = b.AddThread(polling, "status poller");
        var yieldPoll = new Activity("poll then SwitchToThread",
            [exe.At(0x2210), exe.At(0x1880), .. dlls.ThreadStartFrames],
            [dlls.KernelBase.At(UserFunctions.KernelBaseSwitchToThreadRva + 0x12), exe.At(0x2244), exe.At(0x1880), .. dlls.ThreadStartFrames]);
        var sleepPoll = new Activity("poll then Sleep(0)",
            [exe.At(0x2610), exe.At(0x18C0), .. dlls.ThreadStartFrames],
            [dlls.KernelBase.At(UserFunctions.KernelBaseSleepExRva + 0x9D), exe.At(0x2650), exe.At(0x18C0), .. dlls.ThreadStartFrames]);
        var t = b.At(0) + 2;
        var end = b.At(_o.DurationMs);
        var turn = 0;
        while (true)
        {
            var slice = b.Ticks(_o.YieldSliceUs * b.Random.Between(0.6, 1.4));
            if (t + slice > end) break;
            if (turn++ % 2 == 0) b.Run(cpu, yielder, t, t + slice, yieldPoll, SwitchOut.Yield);
            else b.Run(cpu, sleeper, t, t + slice, sleepPoll, SwitchOut.SleepZero);
            t += slice;
        }
    }

    private void PlanOpenMp(int cpu)
    {
        var b = _b;
        var render = _render = b.AddProcess("render.exe", @"""C:\Program Files\Contoso\Render\render.exe"" --scene hall.usd --threads 1");
        var exe = b.AddImage(render, @"\Device\HarddiskVolume3\Program Files\Contoso\Render\render.exe", 0x9_2000);
        var omp = _openMp = b.AddImage(render, @"\Device\HarddiskVolume3\Program Files\Contoso\Render\libiomp5md.dll", 0x15_8000);
        var dlls = b.AddSystemDlls(render);
        var thread = b.AddThread(render, "OpenMP worker");
        ulong[] outer = [exe.At(0x4_1A90), omp.At(0x5_F120), omp.At(0x5_8E40), .. dlls.ThreadStartFrames];
        var shade = new Activity("shading", [exe.At(0x3_2C10), .. outer], [exe.At(0x3_2E84), .. outer]);
        var barrier = new Activity("OpenMP barrier spin-wait",
            [omp.At(0x6_A2F0), omp.At(0x6_A880), omp.At(0x5_F3B0), .. outer],
            [omp.At(0x6_A31C), omp.At(0x6_A880), omp.At(0x5_F3B0), .. outer]);
        var t = b.At(0) + 2;
        var end = b.At(_o.DurationMs);
        while (true)
        {
            var compute = b.Ticks(b.Random.Between(2.5, 3.5) * 1000);
            var wait = b.Ticks(b.Random.Between(6, 8) * 1000);
            if (t + compute + wait > end) break;
            b.Run(cpu, thread, t, t + compute, shade);
            b.Run(cpu, thread, t + compute, t + compute + wait, barrier);
            t += compute + wait;
        }
    }

    public SpinContentionTruth Truth(BuiltTrace trace)
    {
        var interval = _b.TicksToMs(_b.SampleIntervalTicks);
        var runs = new List<SpinRun>();
        foreach (var worker in _workers)
            runs.AddRange(SpinRuns(worker, trace.Samples.Where(s => ReferenceEquals(s.Thread, worker)).OrderBy(s => s.Timestamp).ToList()));

        var core = _o.Runtime == ClrFlavor.CoreClr;
        var wastedBySite = runs.Where(r => r.Contention is not null).ToList();
        string KeyOf(Contention c) => core ? $"lock:{c.Site.LockId:X}" : "site:" + (SiteOfContention(c, wastedBySite) ?? "(unknown call site)");
        var locks = new Dictionary<string, LockAccumulator>();
        LockAccumulator Lock(string key, Contention? example, string site)
        {
            if (!locks.TryGetValue(key, out var acc))
                locks[key] = acc = new LockAccumulator(core && example is not null ? example.Site.LockId : null, core && example is not null ? example.Site.ObjectId : null, site);
            return acc;
        }

        foreach (var c in _contentions.OrderBy(c => c.Start))
        {
            var site = core ? c.Site.Method.FullName : SiteOfContention(c, wastedBySite) ?? "(unknown call site)";
            var acc = Lock(KeyOf(c), c, site);
            acc.Contentions++;
            acc.Threads.Add(c.Thread.Tid);
            acc.WaitTicks += c.Stop!.Value - c.Start;
            acc.Touch(c.Start);
            acc.Touch(c.Stop.Value);
            if (core) acc.Owners.Add(c.Owner.Tid);
        }
        foreach (var run in runs)
        {
            LockAccumulator acc;
            if (run.Contention is { } c)
            {
                acc = Lock(KeyOf(c), c, run.Site);
                acc.WastedSamples += run.Samples.Count;
                acc.WastedRuns++;
            }
            else
            {
                // Attributed to the lock that contends at the same call site, nearest in time; else the call site alone.
                var nearest = wastedBySite.Where(w => w.Site == run.Site)
                    .OrderBy(w => Math.Abs(w.Samples[^1].Timestamp - run.Samples[^1].Timestamp)).FirstOrDefault();
                acc = nearest is not null ? Lock(KeyOf(nearest.Contention!), nearest.Contention, run.Site) : Lock("site:" + run.Site, null, run.Site);
                acc.SuccessfulSamples += run.Samples.Count;
                acc.SuccessfulRuns++;
            }
            acc.Threads.Add(run.Thread.Tid);
            acc.Longest = Math.Max(acc.Longest, run.Samples.Count);
            foreach (var s in run.Samples) acc.Touch(s.Timestamp);
        }

        var lockRows = locks.Values
            .OrderBy(a => a.First)
            .Select(a =>
            {
                var waitMs = trace.TicksToMs(a.WaitTicks);
                var spinMs = (a.WastedSamples + a.SuccessfulSamples) * interval;
                return new LockTruth(_process.ImageName, _process.Pid, a.LockId, a.ObjectId, a.Site, a.Contentions, a.Threads.Count,
                    waitMs, a.WastedSamples * interval, a.SuccessfulSamples * interval, spinMs,
                    spinMs + waitMs > 0 ? spinMs / (spinMs + waitMs) * 100 : 0, a.Longest * interval,
                    trace.ToTraceNs(a.First), trace.ToTraceNs(a.Last), a.Owners.Order().ToArray(), a.WastedRuns, a.SuccessfulRuns);
            })
            .ToArray();

        var processes = new List<SpinProcessTruth>
        {
            new(_process.ImageName, _process.Pid,
                _workers.Count(w => runs.Any(r => r.Thread == w) || _contentions.Any(c => c.Thread == w)),
                lockRows.Sum(l => l.SpinMs), 0, 0, 0, 0, 0, false),
        };
        if (_polling is not null) processes.Add(YieldTruth(trace, _polling));
        if (_render is not null) processes.Add(OpenMpTruth(trace, _render, interval));
        return new SpinContentionTruth(lockRows, processes, interval, _o.Runtime, _process.ImageName, _process.Pid);
    }

    private static string? SiteOfContention(Contention c, List<SpinRun> wasted) =>
        wasted.FirstOrDefault(w => ReferenceEquals(w.Contention, c))?.Site;

    private sealed record SpinRun(SyntheticThread Thread, string Site, List<EmittedSample> Samples, Contention? Contention);

    /// <summary>Splits a thread's samples into spin runs, each wasted (ended by a ContentionStart) or successful.</summary>
    private List<SpinRun> SpinRuns(SyntheticThread thread, List<EmittedSample> samples)
    {
        var starts = _contentions.Where(c => c.Thread == thread).OrderBy(c => c.Start).ToList();
        var result = new List<SpinRun>();
        List<EmittedSample>? current = null;
        string? currentSite = null;
        var nextStart = 0;
        foreach (var s in samples)
        {
            while (nextStart < starts.Count && starts[nextStart].Start < s.Timestamp)
            {
                if (current is not null) result.Add(new SpinRun(thread, currentSite!, current, starts[nextStart]));
                current = null;
                nextStart++;
            }
            var site = SpinSite(s);
            if (site is null)
            {
                if (current is not null) result.Add(new SpinRun(thread, currentSite!, current, null));
                current = null;
                continue;
            }
            if (current is not null && site != currentSite)
                throw new InvalidOperationException("a spin run changed call site without leaving spin code");
            current ??= [];
            currentSite = site;
            current.Add(s);
        }
        if (current is not null)
        {
            var contention = nextStart < starts.Count ? starts[nextStart] : null;
            result.Add(new SpinRun(thread, currentSite!, current, contention));
        }
        return result;
    }

    /// <summary>The call site when the sample is in spin code: leaf frames in the runtime module called directly from a managed method.</summary>
    private string? SpinSite(EmittedSample s)
    {
        if (!_runtime.Contains(s.Frames[0])) return null;
        var i = 0;
        while (i < s.Frames.Length && _runtime.Contains(s.Frames[i])) i++;
        if (i == s.Frames.Length) return null;
        return _methods.FirstOrDefault(m => m.Contains(s.Frames[i]))?.FullName;
    }

    private static SpinProcessTruth YieldTruth(BuiltTrace trace, SyntheticProcess process)
    {
        var outs = trace.ContextSwitches.Where(c => c.OldThread.Process == process).ToList();
        var yields = outs.Where(c => c.How.WaitReason == WaitReason.WrYieldExecution).OrderBy(c => c.Timestamp).ToList();
        var delays = outs.Count(c => c.How.WaitReason == WaitReason.DelayExecution);
        var span = yields.Count > 1 ? trace.TicksToMs(yields[^1].Timestamp - yields[0].Timestamp) / 1000 : 0;
        var threads = outs.Where(c => c.How.WaitReason is WaitReason.WrYieldExecution or WaitReason.DelayExecution).Select(c => c.OldThread.Tid).Distinct().Count();
        return new SpinProcessTruth(process.ImageName, process.Pid, threads, 0, yields.Count, span > 0 ? (yields.Count - 1) / span : 0, delays, 0, 0, false);
    }

    private SpinProcessTruth OpenMpTruth(BuiltTrace trace, SyntheticProcess process, double interval)
    {
        var samples = trace.Samples.Where(s => s.Thread.Process == process).ToList();
        var inRuntime = samples.Where(s => _openMp!.Contains(s.InstructionPointer)).ToList();
        var share = samples.Count == 0 ? 0 : inRuntime.Count / (double)samples.Count;
        return new SpinProcessTruth(process.ImageName, process.Pid, inRuntime.Select(s => s.Thread.Tid).Distinct().Count(), 0, 0, 0, 0,
            inRuntime.Count * interval, share, share >= 0.5);
    }

    private sealed class LockAccumulator(ulong? lockId, ulong? objectId, string site)
    {
        public ulong? LockId { get; } = lockId;
        public ulong? ObjectId { get; } = objectId;
        public string Site { get; } = site;
        public int Contentions { get; set; }
        public HashSet<int> Threads { get; } = [];
        public HashSet<int> Owners { get; } = [];
        public long WaitTicks { get; set; }
        public int WastedSamples { get; set; }
        public int SuccessfulSamples { get; set; }
        public int WastedRuns { get; set; }
        public int SuccessfulRuns { get; set; }
        public int Longest { get; set; }
        public long First { get; private set; } = long.MaxValue;
        public long Last { get; private set; } = long.MinValue;

        public void Touch(long t)
        {
            First = Math.Min(First, t);
            Last = Math.Max(Last, t);
        }
    }
}
