using HiddenCost.Etl.Records;
using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;
using HiddenCost.Synthetic.Tests.Support;

namespace HiddenCost.Synthetic.Tests;

[TestClass]
public sealed class SpinContentionTests
{
    private static readonly SpinContentionOptions Small = new() { DurationMs = 160, WorkerThreads = 3 };
    private static readonly Lazy<(ScenarioTrace<SpinContentionTruth> Scenario, TraceFacts Facts)> Core = new(() => Make(Small, StackEncoding.Plain));
    private static readonly Lazy<(ScenarioTrace<SpinContentionTruth> Scenario, TraceFacts Facts)> Framework32 =
        new(() => Make(Small with { Runtime = ClrFlavor.NetFramework, ProcessPointerSize = 4, YieldStorm = false, OpenMp = false }, StackEncoding.Keyed));

    private static (ScenarioTrace<SpinContentionTruth>, TraceFacts) Make(SpinContentionOptions o, StackEncoding stacks)
    {
        var s = SpinContention.Generate(o, new TraceBuilderSettings { Stacks = stacks });
        return (s, new TraceFacts(s.Bytes));
    }

    private sealed record Contention(int Tid, ulong? LockId, long Start, long Stop, double? DurationNs);

    private static List<Contention> Contentions(TraceFacts f, int pid)
    {
        var open = new Dictionary<int, (ulong? Lock, long Start)>();
        var result = new List<Contention>();
        foreach (var e in f.Events.Where(e => e.Kind == RecordHeaderKind.EventHeader && e.ProviderId == Providers.DotNetRuntime && e.ProcessId == pid))
        {
            if (e.EventId == ClrEvents.ContentionStartId)
            {
                var c = e.Cursor();
                c.U8();
                c.U16();
                open.Add(e.ThreadId, (e.Version >= 2 ? c.Pointer() : null, e.TimeNs));
            }
            else if (e.EventId == ClrEvents.ContentionStopId)
            {
                var c = e.Cursor();
                c.U8();
                c.U16();
                Assert.IsTrue(open.Remove(e.ThreadId, out var start), "stop on the thread that started");
                result.Add(new Contention(e.ThreadId, start.Lock, start.Start, e.TimeNs, e.Version >= 1 ? c.F64() : null));
            }
        }
        Assert.AreEqual(0, open.Count);
        return result;
    }

    /// <summary>Managed methods (Namespace.Type.Method) by address range, from the CLR method events in the file.</summary>
    private static List<(ulong Start, ulong End, string Name)> Methods(TraceFacts f, int pid) =>
        f.Events.Where(e => e.Kind == RecordHeaderKind.EventHeader && e.ProcessId == pid && e.EventId == 143
                            && (e.ProviderId == Providers.DotNetRuntime || e.ProviderId == Providers.DotNetRuntimeRundown))
            .Select(e =>
            {
                var c = e.Cursor();
                c.U64(); c.U64();
                var start = c.U64();
                var size = c.U32();
                c.U32(); c.U32();
                return (start, start + size, c.WString() + "." + c.WString());
            }).Distinct().ToList();

    [TestMethod]
    public void Lock_truth_matches_the_contention_events_and_spin_samples()
    {
        var (scenario, f) = Core.Value;
        var truth = scenario.Truth;
        var pid = truth.ManagedPid;
        var contentions = Contentions(f, pid);
        var runtime = f.Images.Single(i => i.Pid == pid && i.FileName == "coreclr.dll");
        var methods = Methods(f, pid);
        Assert.AreEqual(7, methods.Count, "every method named by rundown or a load event");

        // Spin runs per thread, from the samples and ContentionStart times in the file.
        var wasted = new Dictionary<ulong, int>();
        var successfulBySite = new Dictionary<string, int>();
        var longestBySite = new Dictionary<string, int>();
        var siteOfLock = new Dictionary<ulong, string>();
        foreach (var thread in f.Samples.Where(s => s.Pid == pid).GroupBy(s => s.Tid))
        {
            var starts = contentions.Where(c => c.Tid == thread.Key).OrderBy(c => c.Start).ToList();
            var run = new List<TraceFacts.Sample>();
            string? runSite = null;
            var next = 0;
            void Close(Contention? by)
            {
                if (run.Count == 0) return;
                if (by is { LockId: { } id })
                {
                    wasted[id] = wasted.GetValueOrDefault(id) + run.Count;
                    siteOfLock[id] = runSite!;
                }
                else
                {
                    successfulBySite[runSite!] = successfulBySite.GetValueOrDefault(runSite!) + run.Count;
                }
                longestBySite[runSite!] = Math.Max(longestBySite.GetValueOrDefault(runSite!), run.Count);
                run.Clear();
            }
            foreach (var s in thread.OrderBy(s => s.TimeNs))
            {
                while (next < starts.Count && starts[next].Start < s.TimeNs) Close(starts[next++]);
                var i = 0;
                while (i < s.Frames.Length && runtime.Contains(s.Frames[i])) i++;
                var site = i > 0 && i < s.Frames.Length ? methods.FirstOrDefault(m => s.Frames[i] >= m.Start && s.Frames[i] < m.End).Name : null;
                if (site is null) { Close(null); continue; }
                runSite = site;
                run.Add(s);
            }
            Close(next < starts.Count ? starts[next] : null);
        }

        var interval = f.SampleIntervalMs;
        Assert.AreEqual(4, truth.Locks.Count, "three locks and one call site that never contends");
        foreach (var l in truth.Locks)
        {
            if (l.LockId is { } id)
            {
                var mine = contentions.Where(c => c.LockId == id).ToList();
                Assert.AreEqual(l.Contentions, mine.Count, l.CallSite);
                Assert.AreEqual(l.WaitMs, mine.Sum(c => c.DurationNs!.Value) / 1e6, 1e-6, l.CallSite);
                Assert.IsTrue(mine.All(c => Math.Abs(c.DurationNs!.Value - (c.Stop - c.Start)) < 1), "DurationNs = stop − start");
                Assert.AreEqual(l.WastedSpinMs, wasted.GetValueOrDefault(id) * interval, 1e-9, l.CallSite);
                if (wasted.ContainsKey(id)) Assert.AreEqual(l.CallSite, siteOfLock[id]);
            }
            else
            {
                Assert.AreEqual(0, l.Contentions);
                Assert.AreEqual("Contoso.Inventory.PriceTable.Lookup", l.CallSite);
            }
            Assert.AreEqual(l.SuccessfulSpinMs, successfulBySite.GetValueOrDefault(l.CallSite) * interval, 1e-9, l.CallSite);
            Assert.AreEqual(l.LongestSpinMs, longestBySite.GetValueOrDefault(l.CallSite) * interval, 1e-9, l.CallSite);
            Assert.AreEqual(l.WastedSpinMs + l.SuccessfulSpinMs, l.SpinMs, 1e-9);
            Assert.AreEqual(l.SpinMs + l.WaitMs > 0 ? l.SpinMs / (l.SpinMs + l.WaitMs) * 100 : 0, l.SpinSharePercent, 1e-9);
        }
        Assert.IsTrue(truth.Locks.Single(l => l.CallSite.EndsWith("StockCache.TryGet", StringComparison.Ordinal)).WastedSpinMs > 0);
        Assert.AreEqual(truth.Locks.Sum(l => l.SpinMs), truth.Processes.Single(p => p.Pid == pid).LockSpinCpuMs, 1e-9);
    }

    [TestMethod]
    public void Yield_and_OpenMP_truth_matches_the_context_switches_and_samples()
    {
        var (scenario, f) = Core.Value;
        var polling = scenario.Truth.Processes.Single(p => p.Process == "PollingService.exe");
        var outs = f.Switches.Where(s => f.ProcessOfThread.GetValueOrDefault(s.OldTid) == polling.Pid).ToList();
        var yields = outs.Where(s => s.WaitReason == WaitReason.WrYieldExecution).ToList();
        Assert.AreEqual(polling.Yields, yields.Count);
        Assert.AreEqual(polling.DelaySwitches, outs.Count(s => s.WaitReason == WaitReason.DelayExecution));
        Assert.IsTrue(yields.All(s => s.State == KThreadState.Ready), "a yielding thread stays Ready");
        Assert.AreEqual((polling.Yields - 1) / ((yields[^1].TimeNs - yields[0].TimeNs) / 1e9), polling.YieldsPerSecond, 1e-6, "the rate between the first yield and the last");
        Assert.IsTrue(polling.YieldsPerSecond > 5_000);

        var render = scenario.Truth.Processes.Single(p => p.Process == "render.exe");
        var omp = f.ImageNamed("libiomp5md.dll");
        var samples = f.Samples.Where(s => s.Pid == render.Pid).ToList();
        Assert.AreEqual(render.OpenMpRuntimeCpuMs, samples.Count(s => omp.Contains(s.Ip)) * f.SampleIntervalMs, 1e-9);
        Assert.IsTrue(render.HintExpected && render.OpenMpShare > 0.6);
    }

    [TestMethod]
    public void Net_framework_flavour_writes_v1_starts_and_v0_stops_without_lock_ids()
    {
        var (scenario, f) = Framework32.Value;
        var pid = scenario.Truth.ManagedPid;
        var clr = f.Events.Where(e => e.ProviderId == Providers.DotNetRuntime && e.ProcessId == pid).ToList();
        var starts = clr.Where(e => e.EventId == ClrEvents.ContentionStartId).ToList();
        var stops = clr.Where(e => e.EventId == ClrEvents.ContentionStopId).ToList();
        Assert.IsTrue(starts.Count > 0);
        Assert.IsTrue(starts.All(e => e.Version == 1 && e.Payload.Length == 3 && !e.Is64Bit), "v1: 3 bytes, from a 32-bit process");
        Assert.IsTrue(stops.All(e => e.Version == 0 && e.Payload.Length == 3), "v0: 3 bytes, no duration");
        Assert.IsTrue(clr.Where(e => e.EventId == 143).All(e => e.Version == 1));
        Assert.IsTrue(f.Images.Any(i => i.Pid == pid && i.FileName == "clr.dll"));
        Assert.IsTrue(scenario.Truth.Locks.All(l => l.LockId is null && l.ObjectId is null), "rows keyed by call site");
        var contentions = Contentions(f, pid);
        Assert.AreEqual(scenario.Truth.Locks.Sum(l => l.WaitMs), contentions.Sum(c => c.Stop - c.Start) / 1e6, 1e-6, "wait from start/stop times");
        Assert.IsTrue(f.Samples.Where(s => s.Pid == pid).All(s => s.Frames.All(fr => fr <= uint.MaxValue)), "frames of a 32-bit process are 32-bit addresses");
    }

    [TestMethod]
    public void Thirty_two_bit_process_writes_four_byte_lock_ids_in_a_64_bit_trace()
    {
        var s = SpinContention.Generate(Small with { ProcessPointerSize = 4, YieldStorm = false, OpenMp = false });
        var f = new TraceFacts(s.Bytes);
        var starts = f.Events.Where(e => e.ProviderId == Providers.DotNetRuntime && e.EventId == ClrEvents.ContentionStartId).ToList();
        Assert.IsTrue(starts.Count > 0 && starts.All(e => !e.Is64Bit && e.Version == 2 && e.Payload.Length == 19));
        Assert.IsTrue(f.Events.Where(e => e.Group == KernelGroup.Thread).All(e => e.Is64Bit), "the 64-bit kernel still logs 64-bit records");
        Assert.AreEqual(s.Truth.Locks.Where(l => l.LockId is not null).Sum(l => l.Contentions), starts.Count);
    }
}
