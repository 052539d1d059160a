using HiddenCost.Etl.State;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.State;

[TestClass]
public sealed class TraceStateSampleTests
{
    [TestMethod]
    public void The_x64_sample_knows_its_processes_with_names_and_command_lines()
    {
        var state = SampleScan.Of("perfview/net.4.5.2.x64.etl.zip").State;
        Assert.AreEqual(35, state.Processes.Count);
        var test = state.Processes.Single(p => p.ImageName == "Test.x64.exe");
        Assert.AreEqual(3676, test.ProcessId);
        Assert.AreEqual("Test.x64.exe", test.CommandLine);
        Assert.AreEqual(3508, test.ParentId);
        Assert.AreEqual("cmd.exe", state.GetProcess(3508, test.StartTimeNs)!.ImageName);
        Assert.AreEqual(0, test.ExitStatus);
        Assert.IsTrue(test.StartTimeNs > 0 && test.EndTimeNs > test.StartTimeNs);
        Assert.IsNull(state.GetProcess(3676, test.StartTimeNs - 1) is { } before && before.IsAlive(test.StartTimeNs - 1) ? before : null);
        var perfView = state.Processes.Single(p => p.ImageName == "PerfView.exe");
        Assert.AreEqual(@"""C:\Users\brianrob\AppData\Roaming\PerfView\VER.2020-07-02.23.01.22.000\PerfView.exe"" ", perfView.CommandLine);
        Assert.IsTrue(perfView.StartedBeforeTrace);
    }

    [TestMethod]
    public void The_x64_sample_has_kernel_modules_in_process_0_and_jit_ranges_per_process()
    {
        var state = SampleScan.Of("perfview/net.4.5.2.x64.etl.zip").State;
        Assert.AreEqual(1_798, state.Images.Count);
        Assert.AreEqual(141, state.ImagesOf(0).Count);
        Assert.IsTrue(state.ImagesOf(0).All(i => i.IsKernel && i.ImageBase >= 0xFFFF_8000_0000_0000));
        Assert.AreEqual(16_990, state.MethodCount);
        var main = state.MethodsOf(3676).Single(m => m.FullName == "Test.Program.Main");
        Assert.AreEqual(0x7F95EB14F50UL, main.Start);
        Assert.AreEqual(358U, main.Size);
        Assert.AreEqual("Test.Program.Main", state.ResolveFrame(3676, main.Start + 100, main.LoadTimeNs + 1).Name);
    }

    [TestMethod]
    public void Images_loaded_during_the_trace_have_their_load_and_unload_times()
    {
        // Windows logs a live image load under the Process group's hook (0x030A); net.4.5.2.x64 has 35, 31 of them
        // in Test.x64.exe, the process the trace profiles.
        var state = SampleScan.Of("perfview/net.4.5.2.x64.etl.zip").State;
        Assert.AreEqual(35, state.Images.Count(i => i.LoadTimeNs != Lifetime.BeforeTrace));
        Assert.AreEqual(31, state.ImagesOf(3676).Count(i => i.LoadTimeNs != Lifetime.BeforeTrace));
        var ntdll = state.ImagesOf(3676).Single(i => i.FileName == "ntdll.dll");
        Assert.AreEqual(0x7F9D02F0000UL, ntdll.ImageBase);
        Assert.AreEqual(2_738_943_600L, ntdll.LoadTimeNs);
        Assert.AreEqual(8_202_241_800L, ntdll.UnloadTimeNs);
        Assert.IsFalse(ntdll.IsLoaded(ntdll.LoadTimeNs - 1));
        Assert.IsTrue(ntdll.IsLoaded(ntdll.LoadTimeNs));
        Assert.AreSame(ntdll, state.FindImage(3676, ntdll.ImageBase + 0x100, ntdll.LoadTimeNs));
    }

    [TestMethod]
    public void The_Windows_11_trace_knows_processes_threads_and_images_from_rundown_alone()
    {
        var state = SampleScan.Of("etwanalyzer/TraceLoggingTester.etl.zip").State;
        Assert.AreEqual(23_395, state.Images.Count, "23,367 rundowns, 18 unloads, and 10 images loaded during the trace that no rundown names");
        Assert.AreEqual(23_193, state.Images.Count(i => i.Pdb is not null));
        var tester = state.GetProcess(10288, 539_552_600)!;
        Assert.IsNotNull(tester);
        Assert.IsTrue(state.ImagesOf(10288).Count > 0);
        var wprStart = state.Processes.First(p => p.ProcessId == 3296);
        Assert.AreEqual(@"""wpr"" -start C:\tmp\TraceLoggingTester\TraceLoggingProfile.wprp", wprStart.CommandLine);
        Assert.AreEqual(521_691_200L, wprStart.EndTimeNs);
    }

    [TestMethod]
    public void Each_image_at_a_base_used_twice_has_its_own_pdb_in_the_x86_sample()
    {
        // Test.x86.exe (3644) maps kernel32.dll at 0xA20000, unmaps it, maps it again, then user32.dll there: each
        // DbgID_RSDS comes just before its image's event, so the second kernel32.dll got user32's PDB.
        var state = SampleScan.Of(Samples.NetX86).State;
        var atBase = state.ImagesOf(3644).Where(i => i.ImageBase == 0xA20000).ToList();
        Assert.IsTrue(atBase.Count >= 3, string.Join(" | ", atBase));
        foreach (var image in atBase)
            Assert.AreEqual(Path.GetFileNameWithoutExtension(image.FileName), Path.GetFileNameWithoutExtension(image.Pdb?.PdbName ?? "(none)"), true,
                $"{image}: {image.Pdb?.PdbName}");
    }

    [TestMethod]
    public void A_process_that_ended_and_shows_again_in_the_defunct_rundown_is_one_instance()
    {
        var state = SampleScan.Of(Samples.ShutdownPerfDiagLogger).State;
        var svchost = state.Processes.Where(p => p.ProcessId == 496).ToList();
        Assert.AreEqual(1, svchost.Count, string.Join(" | ", svchost.Select(p => $"{p.ImageName} {p.StartTimeNs}..{p.EndTimeNs}")));
        long end = svchost[0].EndTimeNs;
        Assert.IsFalse(state.GetProcess(496, end + 1)!.IsAlive(end + 1), "not alive after its End event");
    }
}
