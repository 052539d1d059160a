using HiddenCost.Synthetic.Etl;
using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Model;

namespace HiddenCost.Synthetic.Tests;

/// <summary>
/// Where the builder describes what predates the trace: a DCStart rundown at the start (file mode), or only a DCEnd
/// rundown at the end (WPR's memory mode, whose circular buffers have overwritten the start rundown).
/// </summary>
[TestClass]
public sealed class RundownPlacementTests
{
    private static BuiltTrace Build(bool atEndOnly)
    {
        var b = new TraceBuilder(new TraceBuilderSettings { Cpus = 2, RundownAtEndOnly = atEndOnly });
        var p = b.AddProcess("app.exe", "app.exe");
        var image = b.AddImage(p, @"\Device\HarddiskVolume3\app.exe", 0x1_0000);
        var thread = b.AddThread(p);
        b.Run(0, thread, b.At(0), b.At(5), new Activity("work", [image.At(0x100)]));
        return b.Build();
    }

    private static KernelRecord[] Rundown(BuiltTrace trace, byte group, byte type) =>
        trace.Records.OfType<KernelRecord>().Where(r => r.Group == group && r.Type == type).ToArray();

    [TestMethod]
    public void File_mode_describes_processes_threads_and_images_before_the_activity()
    {
        var trace = Build(atEndOnly: false);
        var processes = Rundown(trace, KernelGroup.Process, ProcessEvents.DCStartType);
        Assert.IsTrue(processes.Length >= 3, "System, Idle and app.exe");
        Assert.IsTrue(processes.All(r => r.Timestamp < trace.ActivityStart));
        Assert.AreEqual(0, Rundown(trace, KernelGroup.Process, ProcessEvents.DCEndType).Length);
    }

    [TestMethod]
    public void Memory_mode_describes_them_only_at_the_end_after_every_activity_event()
    {
        var trace = Build(atEndOnly: true);
        Assert.AreEqual(0, Rundown(trace, KernelGroup.Process, ProcessEvents.DCStartType).Length);
        Assert.AreEqual(0, Rundown(trace, KernelGroup.Thread, ThreadEvents.DCStartType).Length);
        Assert.AreEqual(0, Rundown(trace, KernelGroup.Image, ImageEvents.DCStartType).Length);
        var processes = Rundown(trace, KernelGroup.Process, ProcessEvents.DCEndType);
        var threads = Rundown(trace, KernelGroup.Thread, ThreadEvents.DCEndType);
        var images = Rundown(trace, KernelGroup.Image, ImageEvents.DCEndType);
        Assert.AreEqual(Rundown(Build(false), KernelGroup.Process, ProcessEvents.DCStartType).Length, processes.Length);
        Assert.AreEqual(Rundown(Build(false), KernelGroup.Thread, ThreadEvents.DCStartType).Length, threads.Length);
        Assert.AreEqual(Rundown(Build(false), KernelGroup.Image, ImageEvents.DCStartType).Length, images.Length);
        Assert.IsTrue(processes.Concat(threads).Concat(images).All(r => r.Timestamp > trace.ActivityEnd));
    }
}
