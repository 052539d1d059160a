using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Model;

namespace HiddenCost.Synthetic.Tests;

/// <summary>The builder refuses what a real machine cannot do.</summary>
[TestClass]
public sealed class TraceBuilderTests
{
    private static (TraceBuilder B, SyntheticThread T, Activity A) Setup()
    {
        var b = new TraceBuilder(new TraceBuilderSettings { Cpus = 2 });
        var p = b.AddProcess("app.exe", "app.exe");
        var image = b.AddImage(p, @"\Device\HarddiskVolume3\app.exe", 0x1_0000);
        return (b, b.AddThread(p), new Activity("work", [image.At(0x100)]));
    }

    [TestMethod]
    public void A_thread_cannot_run_on_two_cpus_at_once()
    {
        var (b, t, a) = Setup();
        b.Run(0, t, b.At(0), b.At(1), a);
        Assert.ThrowsExactly<InvalidOperationException>(() => b.Run(1, t, b.At(0.5), b.At(2), a));
        b.Run(1, t, b.At(1), b.At(2), a);
    }

    [TestMethod]
    public void Segments_of_a_cpu_cannot_overlap()
    {
        var (b, t, a) = Setup();
        var other = b.AddThread(t.Process);
        b.Run(0, t, b.At(0), b.At(1), a);
        Assert.ThrowsExactly<InvalidOperationException>(() => b.Run(0, other, b.At(0.5), b.At(2), a));
    }

    [TestMethod]
    public void Events_need_their_thread_running_strictly_inside_a_segment()
    {
        var (b, t, a) = Setup();
        b.Run(0, t, b.At(0), b.At(1), a);
        b.Run(0, t, b.At(1), b.At(2), a);
        Assert.AreEqual(0, b.On(t, b.At(0.5)).Cpu);
        Assert.AreEqual(0, b.On(t, b.At(1)).Cpu, "a segment boundary without a switch is fine");
        Assert.ThrowsExactly<InvalidOperationException>(() => b.On(t, b.At(0)), "at the switch-in itself");
        Assert.ThrowsExactly<InvalidOperationException>(() => b.On(t, b.At(2)), "at the switch-out");
        Assert.ThrowsExactly<InvalidOperationException>(() => b.On(t, b.At(3)), "not running");
    }

    [TestMethod]
    public void Scenario_times_are_even_ticks()
    {
        var (b, t, a) = Setup();
        Assert.ThrowsExactly<ArgumentException>(() => b.Run(0, t, b.At(0) + 1, b.At(1), a));
        b.Run(0, t, b.At(0), b.At(1), a);
        Assert.ThrowsExactly<ArgumentException>(() => b.On(t, b.At(0.5) + 1));
    }

    [TestMethod]
    public void Samples_fall_on_odd_ticks_and_take_the_running_threads_stack()
    {
        var (b, t, a) = Setup();
        b.Run(1, t, b.At(0), b.At(10), a);
        var trace = b.Build();
        Assert.IsTrue(trace.Samples.All(s => (s.Timestamp & 1) == 1));
        var onCpu1 = trace.Samples.Where(s => s.Cpu == 1 && s.Timestamp < b.At(10)).ToList();
        Assert.IsTrue(onCpu1.Count >= 9);
        Assert.IsTrue(onCpu1.All(s => s.Thread == t && s.Frames[0] == a.Stacks[0][0]));
        Assert.IsTrue(trace.Samples.Where(s => s.Cpu == 0).All(s => s.Thread.Tid == 0), "CPU 0 is idle");
    }

    [TestMethod]
    public void Context_switches_come_from_the_segments()
    {
        var (b, t, a) = Setup();
        b.Run(0, t, b.At(0), b.At(1), a, SwitchOut.UserWait);
        b.Run(0, t, b.At(2), b.At(3), a);
        var trace = b.Build();
        var switches = trace.ContextSwitches.Where(s => s.Cpu == 0).ToList();
        Assert.AreEqual(4, switches.Count, "in, out to idle, in, out");
        Assert.AreEqual((t, b.IdleThread), (switches[0].NewThread, switches[0].OldThread));
        Assert.AreEqual((b.IdleThread, t, WaitReason.UserRequest), (switches[1].NewThread, switches[1].OldThread, switches[1].How.WaitReason));
        var readies = trace.Records.OfType<Etl.KernelRecord>().Count(r => r.Group == KernelGroup.Thread && r.Type == ThreadEvents.ReadyThreadType);
        Assert.AreEqual(1, readies, "readied once after its wait");
    }
}
