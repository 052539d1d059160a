using HiddenCost.Etl.Records;
using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;
using HiddenCost.Synthetic.Tests.Support;

namespace HiddenCost.Synthetic.Tests;

/// <summary>What every synthetic trace must hold, checked on the files through the reader.</summary>
[TestClass]
public sealed class ConsistencyTests
{
    public static IEnumerable<object[]> Scenarios() =>
    [
        ["syscall", (Func<byte[]>)(() => SyscallHookStorm.Generate(new SyscallHookStormOptions { DurationMs = 40, GapStartMs = 20, GapEndMs = 30 }).Bytes)],
        ["spin", (Func<byte[]>)(() => SpinContention.Generate(new SpinContentionOptions { DurationMs = 80, WorkerThreads = 3 }, new TraceBuilderSettings { Stacks = StackEncoding.Plain }).Bytes)],
        ["notify", (Func<byte[]>)(() => NotifyBufferStorm.Generate(new NotifyBufferStormOptions { Batches = 60, BurstBatches = [30] }, new TraceBuilderSettings { Compress = true }).Bytes)],
        ["eventlog", (Func<byte[]>)(() => EventLogRender.Generate(new EventLogRenderOptions { WmiRenders = 40, ViewerRenders = 20 }).Bytes)],
        ["combined 32-bit", (Func<byte[]>)(() => CombinedSample.Generate(new CombinedSampleOptions
        {
            Syscall = new SyscallHookStormOptions { DurationMs = 30, GapStartMs = 10, GapEndMs = 20 },
            Spin = new SpinContentionOptions { DurationMs = 60, WorkerThreads = 2, ProcessPointerSize = 4 },
            Notify = new NotifyBufferStormOptions { Batches = 30, BurstBatches = [] },
            EventLog = new EventLogRenderOptions { WmiRenders = 20, ViewerRenders = 10 },
        }, new TraceBuilderSettings { PointerSize = 4, Compress = true }).Bytes)],
    ];

    [TestMethod]
    [DynamicData(nameof(Scenarios))]
    public void Trace_reads_cleanly_and_context_switches_pair_up(string name, Func<byte[]> generate)
    {
        var f = new TraceFacts(generate());
        Assert.IsTrue(f.Health.IsClean, $"{name}: {string.Join("; ", f.Health.Warnings)}");
        Assert.AreEqual(0L, f.Health.TimeInversions, name);
        Assert.IsTrue(f.Switches.Count > 10, name);
        foreach (var cpu in f.Switches.GroupBy(s => s.Cpu))
        {
            var expectedOld = 0;
            foreach (var s in cpu)
            {
                Assert.AreEqual(expectedOld, s.OldTid, $"{name}: CPU {cpu.Key} at {s.TimeNs}: the old thread is the one switched in before");
                Assert.AreNotEqual(s.OldTid, s.NewTid, $"{name}: no switch to the same thread");
                expectedOld = s.NewTid;
            }
            Assert.AreEqual(0, expectedOld, $"{name}: every CPU ends idle");
        }
    }

    [TestMethod]
    [DynamicData(nameof(Scenarios))]
    public void A_thread_runs_on_one_cpu_at_a_time(string name, Func<byte[]> generate)
    {
        var f = new TraceFacts(generate());
        var runningOn = new Dictionary<int, int>();
        foreach (var instant in f.Switches.GroupBy(s => s.TimeNs).OrderBy(g => g.Key))
        {
            foreach (var s in instant.Where(s => s.OldTid != 0)) runningOn.Remove(s.OldTid);
            foreach (var s in instant.Where(s => s.NewTid != 0))
                Assert.IsTrue(runningOn.TryAdd(s.NewTid, s.Cpu), $"{name}: thread {s.NewTid} switched in on CPU {s.Cpu} at {s.TimeNs} while running on CPU {runningOn.GetValueOrDefault(s.NewTid)}");
        }
    }

    [TestMethod]
    [DynamicData(nameof(Scenarios))]
    public void Events_name_the_thread_that_runs_where_they_are_logged(string name, Func<byte[]> generate)
    {
        var f = new TraceFacts(generate());
        var running = new Dictionary<int, int>();
        var checkedEvents = 0;
        foreach (var e in f.Events)
        {
            var thread = running.GetValueOrDefault(e.Cpu, -1);
            int? claimed = null;
            if (e.Is(KernelGroup.PerfInfo, PerfInfoEvents.SampledProfileType))
            {
                var c = e.Cursor();
                c.Pointer();
                claimed = (int)c.U32();
            }
            else if (e.Group == KernelGroup.FileIo && e.Opcode is FileIoEvents.CreateType)
            {
                var c = e.Cursor();
                c.Pointer(); c.Pointer();
                claimed = (int)c.U32();
            }
            else if (e.Group == KernelGroup.FileIo && e.Opcode is FileIoEvents.DirNotifyType or FileIoEvents.CleanupType or FileIoEvents.CloseType)
            {
                var c = e.Cursor();
                c.Pointer(); c.Pointer(); c.Pointer();
                claimed = (int)c.U32();
            }
            else if ((e.Group is KernelGroup.Registry && e.Opcode < RegistryEvents.KcbCreateType) || e.Is(KernelGroup.PageFault, PageFaultEvents.DemandZeroFaultType)
                     || (e.Kind == RecordHeaderKind.EventHeader && e.ProviderId != Providers.DotNetRuntimeRundown))
            {
                claimed = e.ThreadId;
            }
            if (claimed is { } tid && !(thread == -1 && tid == 0))
            {
                // (A CPU that has not switched yet is idle: its samples name the idle thread.)
                Assert.AreEqual(thread, tid, $"{name}: {e.Kind} {e.Group}/{e.Opcode}/{e.EventId} on CPU {e.Cpu} at {e.TimeNs}");
                checkedEvents++;
            }
            if (e.Is(KernelGroup.Thread, ThreadEvents.CSwitchType)) running[e.Cpu] = BitConverter.ToInt32(e.Payload, 0);
        }
        Assert.IsTrue(checkedEvents > 100, $"{name}: {checkedEvents} events checked");
    }

    [TestMethod]
    [DynamicData(nameof(Scenarios))]
    public void A_thread_that_waited_is_readied_before_it_runs_again(string name, Func<byte[]> generate)
    {
        var f = new TraceFacts(generate());
        var waiting = new HashSet<int>();
        foreach (var e in f.Events)
        {
            if (e.Is(KernelGroup.Thread, ThreadEvents.ReadyThreadType))
            {
                waiting.Remove(BitConverter.ToInt32(e.Payload, 0));
            }
            else if (e.Is(KernelGroup.Thread, ThreadEvents.CSwitchType))
            {
                var newTid = BitConverter.ToInt32(e.Payload, 0);
                var oldTid = BitConverter.ToInt32(e.Payload, 4);
                Assert.IsFalse(waiting.Contains(newTid), $"{name}: thread {newTid} switched in at {e.TimeNs} without a ReadyThread since its wait");
                if (oldTid != 0 && e.Payload[14] == KThreadState.Waiting) waiting.Add(oldTid);
            }
        }
    }

    [TestMethod]
    public void Same_options_give_the_same_bytes_and_another_seed_does_not()
    {
        var o = new SpinContentionOptions { DurationMs = 50, WorkerThreads = 2 };
        var a = SpinContention.Generate(o).Bytes;
        var b = SpinContention.Generate(o).Bytes;
        var c = SpinContention.Generate(o, new TraceBuilderSettings { Seed = 2 }).Bytes;
        CollectionAssert.AreEqual(a, b);
        CollectionAssert.AreNotEqual(a, c);
    }
}
