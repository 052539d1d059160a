using HiddenCost.Analysis.Tables.SyscallHook;
using HiddenCost.Analysis.Tables.SpinWait;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tests.Support;
using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Model;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// Spin-Wait end to end on small synthetic traces (the project's writer, documented layouts) built episode by
/// episode: a worker of a .NET process spins in the runtime under Shop.Inventory.Reserve, then blocks or goes on.
/// </summary>
[TestClass]
public sealed class SpinWaitEpisodeTests
{
    private static Table<SpinWaitLockRow> Analyze(bool preemptedBeforeBlocking, bool blockOnQueue = false)
    {
        var b = new TraceBuilder(new TraceBuilderSettings { Cpus = 2, LogFileName = "episodes.etl" });
        var process = b.AddProcess("Shop.exe", "Shop.exe");
        b.AddImage(process, @"\Device\HarddiskVolume3\Shop\Shop.exe", 0x3_0000);
        var dlls = b.AddSystemDlls(process);
        var dotnet = @"\Device\HarddiskVolume3\Program Files\dotnet\shared\Microsoft.NETCore.App\8.0.11\";
        var runtime = b.AddImage(process, dotnet + "coreclr.dll", 0x4C_0000);
        var coreLib = b.AddImage(process, dotnet + "System.Private.CoreLib.dll", 0xF2_0000);
        var run = new ClrMethod(0x7FF8_4B00_3A00, 0x7FF8_4AF0_2000, 0x7FF8_4C10_0000, 0x200, 0x06000012, "Shop.Worker", "Run", "void ()");
        var reserve = new ClrMethod(0x7FF8_4B00_3A48, 0x7FF8_4AF0_2000, 0x7FF8_4C10_0400, 0x200, 0x06000013, "Shop.Inventory", "Reserve", "void ()");
        var worker = b.AddThread(process, "worker");
        var other = b.AddThread(process, "other");
        EventContext Managed(EventContext c) => c with { ThreadId = (uint)worker.Tid, ProcessId = (uint)process.Pid, PointerSize = 8 };
        foreach (var m in new[] { run, reserve })
        {
            b.AtStartRundown(c => ClrEvents.MethodDCStartVerbose(Managed(c), m));
            b.AtEndRundown(c => ClrEvents.MethodDCEndVerbose(Managed(c), m));
        }
        ulong[] outer = [run.StartAddress + 0x41, coreLib.At(0x2B_5F10), runtime.At(0x12_F3D0), .. dlls.ThreadStartFrames];
        var work = new Activity("work", [run.StartAddress + 0x20, .. outer]);
        ulong[] caller = [reserve.StartAddress + 0x3C, .. outer];
        var spin = new Activity("spin", [runtime.At(0x1B_2C40), runtime.At(0x1B_3010), runtime.At(0x1C_7A20), .. caller]);
        var block = new Activity("block", [dlls.Ntdll.At(0x9_F150 + 0x14), runtime.At(0x9_8120), runtime.At(0x1B_3400), runtime.At(0x1C_7A20), .. caller]);

        long t = b.At(0) + 2;
        // A spin that ends in a ContentionStart teaches the process the runtime's spin path.
        b.Run(0, worker, t, t + b.Ticks(3000), work); t += b.Ticks(3000);
        b.Run(0, worker, t, t + b.Ticks(3000), spin); t += b.Ticks(3000);
        b.Run(0, worker, t, t + 4, block, SwitchOut.UserWait);
        b.Emit(ClrEvents.ContentionStart(b.On(worker, t, userMode: true), 2, 0xA, 0x1000, 0));
        long start = t;
        t += b.Ticks(3000);
        b.Run(0, worker, t, t + b.Ticks(3000), work);
        b.Emit(ClrEvents.ContentionStop(b.On(worker, t + 2, userMode: true), 1, b.TicksToMs(t + 2 - start) * 1e6));
        t += b.Ticks(3000);
        // 20 times: 3 ms of spin, then a block with no contention event (a critical section, or CoreCLR waiting again).
        for (int k = 0; k < 20; k++)
        {
            b.Run(0, worker, t, t + b.Ticks(3000), spin, preemptedBeforeBlocking ? SwitchOut.Preempted : null);
            t += b.Ticks(3000);
            if (preemptedBeforeBlocking)
            {
                b.Run(0, other, t, t + b.Ticks(400), work, SwitchOut.UserWait);
                t += b.Ticks(400);
                b.Run(0, worker, t, t + b.Ticks(50), spin);
                t += b.Ticks(50);
            }
            if (blockOnQueue) b.Run(0, worker, t, t + 4, work, SwitchOut.Wait(WaitReason.WrQueue)); // got the lock; waits for work
            else b.Run(0, worker, t, t + 4, block, SwitchOut.UserWait);
            t += 4 + b.Ticks(2000);
            if (blockOnQueue) continue; // the next work item spins again at once: only the wait parts the two spins
            b.Run(0, worker, t, t + b.Ticks(3000), work);
            t += b.Ticks(3000);
        }
        return SyntheticTraces.Analyze(b.Build(), "spin-episodes").Table(SpinWaitTables.PerLock);
    }

    [TestMethod]
    public void Spin_that_ends_in_a_block_is_wasted_even_when_the_thread_was_preempted_in_between_synthetic()
    {
        // Logging a lock wait only for a thread sampled since its last switch-in missed every block that followed a
        // preemption or yield: those runs then ended in the thread's own code and counted as successful.
        foreach (bool preempted in new[] { false, true })
        {
            var table = Analyze(preempted);
            Assert.AreEqual(1, table.Rows.Count, $"preempted: {preempted}");
            Assert.AreEqual("Shop.Inventory.Reserve", table.Rows[0].CallSite);
            Assert.AreEqual(63.0, (double)table.Rows[0].WastedSpinCpuMs!, 1e-9, $"preempted: {preempted}");
            Assert.AreEqual(0.0, (double)table.Rows[0].SuccessfulSpinCpuMs!, 1e-9, $"preempted: {preempted}");
        }
    }

    [TestMethod]
    public void Spin_that_ends_in_a_wait_no_lock_blocks_in_paid_off_synthetic()
    {
        // The same 20 spins, each followed by a wait for work on a queue (WrQueue) instead of a lock wait and then by
        // the next spin, with no sample of other code between: wasted only in the run that ended in the ContentionStart
        // (2 samples at this phase).
        var table = Analyze(preemptedBeforeBlocking: false, blockOnQueue: true);
        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual(2.0, (double)table.Rows[0].WastedSpinCpuMs!, 1e-9);
        Assert.AreEqual((double)table.Rows[0].SpinCpuMs! - 2.0, (double)table.Rows[0].SuccessfulSpinCpuMs!, 1e-9);
        Assert.IsTrue((double)table.Rows[0].LongestSpinMs! <= 4.0, "each wait ends a run: the 3 ms spins do not merge");
    }
}
