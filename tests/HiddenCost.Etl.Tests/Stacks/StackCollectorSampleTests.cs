using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.Stacks;

[TestClass]
public sealed class StackCollectorSampleTests
{
    private const string X64 = "perfview/net.4.5.2.x64.etl.zip";
    private const string X86 = "perfview/net.4.5.2.x86.etl.zip";

    [TestMethod]
    public void Every_stack_key_reference_of_the_x64_sample_resolves_to_frames()
    {
        var scan = SampleScan.Of(X64);
        Assert.AreEqual(9_107, scan.Stacks.KeyReferences);
        Assert.AreEqual(2_921, scan.Stacks.KeyDefinitions);
        Assert.AreEqual(252, scan.Stacks.StackEvents);
        int pending = 0;
        foreach (var (ticket, _, _) in scan.SampleTickets)
            if (!scan.Stacks.Store.GetFrames(scan.Stacks.StackOf(ticket)).IsResolved) pending++;
        Assert.AreEqual(0, pending);
    }

    [TestMethod]
    public void The_x64_sample_has_655_STACK_TRACE64_items_all_matched()
    {
        var scan = SampleScan.Of(X64);
        Assert.AreEqual(655, scan.Count("ExtendedStackItem"));
        Assert.AreEqual(655, scan.Stacks.ExtendedStackItems);
    }

    [TestMethod]
    public void Non_idle_CPU_samples_get_their_stacks()
    {
        var scan = SampleScan.Of(X64);
        Assert.AreEqual(6_215, scan.SampleTickets.Count);
        // One non-idle sample has no StackWalk event at all in the file.
        Assert.AreEqual(6_214, scan.SampleTickets.Count(t => !scan.Stacks.StackOf(t.Ticket).IsNone));
        Assert.AreEqual(6_677, SampleScan.Of(X86).SampleTickets.Count(t => !SampleScan.Of(X86).Stacks.StackOf(t.Ticket).IsNone));
    }

    [TestMethod]
    public void A_CPU_sample_stack_resolves_to_Test_Program_Main_through_CLR_rundown()
    {
        var scan = SampleScan.Of(X64);
        var test = scan.State.Processes.Single(p => p.ImageName == "Test.x64.exe");
        int inMain = 0;
        string[]? example = null;
        foreach (var (ticket, tid, time) in scan.SampleTickets)
        {
            if (scan.State.GetThread(tid, time)?.ProcessId != test.ProcessId) continue;
            var frames = scan.Stacks.Store.GetFrames(scan.Stacks.StackOf(ticket));
            var names = new string[frames.Count];
            for (int i = 0; i < frames.Count; i++) names[i] = scan.State.ResolveFrame(test.ProcessId, frames[i], time).Name;
            if (!names.Contains("Test.Program.Main")) continue;
            inMain++;
            example ??= names;
        }
        Assert.AreEqual(4_912, inMain);
        Assert.IsNotNull(example);
        Assert.AreEqual("ntdll.dll+0x1C3F1", example[^1]);
        Assert.AreEqual("kernel32.dll+0x167E", example[^2]);
        CollectionAssert.Contains(example, "clr.dll+0xA7F3");
    }

    [TestMethod]
    public void The_x86_sample_32_bit_frames_resolve_to_images_and_managed_methods()
    {
        var scan = SampleScan.Of(X86);
        var test = scan.State.Processes.Single(p => p.ImageName == "Test.x86.exe");
        int userFrames = 0, frames32 = 0, resolved32 = 0, managed = 0;
        bool sawMain = false;
        foreach (var (ticket, tid, time) in scan.SampleTickets)
        {
            if (scan.State.GetThread(tid, time)?.ProcessId != test.ProcessId) continue;
            var stack = scan.Stacks.Store.GetFrames(scan.Stacks.StackOf(ticket));
            foreach (var address in stack.User)
            {
                userFrames++;
                // A WOW64 thread's user stack also has 64-bit frames (wow64*.dll, the 64-bit ntdll) above 4 GB.
                if (address > uint.MaxValue) continue;
                frames32++;
                var f = scan.State.ResolveFrame(test.ProcessId, address, time);
                if (f.IsResolved) resolved32++;
                if (f.IsManaged) managed++;
                sawMain |= f.Name == "Test.Program.Main";
            }
        }
        Assert.AreEqual(101_223, userFrames);
        Assert.AreEqual(101_106, frames32);
        Assert.AreEqual(101_105, resolved32);
        Assert.AreEqual(28_259, managed);
        Assert.IsTrue(sawMain);
        var clr = scan.State.ImagesOf(test.ProcessId).First(i => i.FileName == "clr.dll");
        Assert.IsTrue(clr.ImageEnd <= uint.MaxValue);
        Assert.AreEqual("clr.dll+0x1A7FF1", scan.State.ResolveFrame(test.ProcessId, clr.ImageBase + 0x1A7FF1, 0).Name);
    }

    [TestMethod]
    public void Kernel_frames_resolve_to_kernel_modules()
    {
        var scan = SampleScan.Of(X64);
        var modules = new Dictionary<string, int>();
        int unresolved = 0, unresolvedInHalRange = 0;
        foreach (var (ticket, tid, time) in scan.SampleTickets)
        {
            var frames = scan.Stacks.Store.GetFrames(scan.Stacks.StackOf(ticket));
            foreach (var address in frames.Kernel)
            {
                var frame = scan.State.ResolveFrame(scan.State.GetThread(tid, time)?.ProcessId ?? -1, address, time);
                if (!frame.IsResolved)
                {
                    unresolved++;
                    if (address >= 0xFFFFFFFF_FFC00000) unresolvedInHalRange++;
                    continue;
                }
                Assert.IsTrue(frame.Image!.IsKernel);
                modules[frame.ModuleName] = modules.GetValueOrDefault(frame.ModuleName) + 1;
            }
        }
        // The only kernel frames outside every module are in the HAL's reserved range at the top of the address space.
        Assert.AreEqual(50, unresolved);
        Assert.AreEqual(unresolved, unresolvedInHalRange);
        Assert.AreEqual("ntoskrnl.exe", modules.MaxBy(kv => kv.Value).Key);
    }
}
