using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.Decoding;

/// <summary>The typed kernel decoders over the public samples: every event of each kind decodes, with its content.</summary>
[TestClass]
public sealed class KernelDecodersOnSamplesTests
{
    private const string X64 = "perfview/net.4.5.2.x64.etl.zip";
    private const string Tester = "etwanalyzer/TraceLoggingTester.etl.zip";
    private const string Shutdown = "etl-parser/ShutdownPerfDiagLogger.etl";

    [TestMethod]
    public void Image_rundown_and_unload_events_decode_in_every_sample_that_has_them()
    {
        var x64 = SampleScan.Of(X64);
        Assert.AreEqual(1_763, x64.Count("Image/3"));
        Assert.AreEqual(1_766, x64.Count("Image/4"));
        Assert.AreEqual(32, x64.Count("Image/2"));
        Assert.AreEqual(23_367, SampleScan.Of(Tester).Count("Image/4"));
        var shutdown = SampleScan.Of(Shutdown);
        Assert.AreEqual(6_745, shutdown.Count("Image/3"));
        Assert.AreEqual(4_791, shutdown.Count("Image/2"));
    }

    [TestMethod]
    public void Image_event_reads_base_size_checksum_and_nt_path()
    {
        var ntdll = SampleScan.Of(X64).State.ImagesOf(4).First(i => i.ImageBase == 0x7771_0000);
        Assert.AreEqual(0x157000UL, ntdll.ImageSize);
        Assert.AreEqual(0x162293U, ntdll.Checksum);
        Assert.AreEqual(@"\Device\HarddiskVolume2\Windows\SysWOW64\ntdll.dll", ntdll.FilePath);
        Assert.AreEqual("ntdll.dll", ntdll.FileName);
    }

    [TestMethod]
    public void Process_events_decode_names_command_lines_and_exit_status()
    {
        var x64 = SampleScan.Of(X64);
        Assert.AreEqual(1, x64.Count("Process/1"));
        Assert.AreEqual(1, x64.Count("Process/2"));
        Assert.AreEqual(32, x64.Count("Process/3"));
        Assert.AreEqual(32, x64.Count("Process/4"));
        Assert.AreEqual(2, x64.Count("Process/39"));
        var start = x64.ProcessEvents.Single(p => p.Opcode == ProcessEvent.Start);
        Assert.AreEqual(3676, start.ProcessId);
        Assert.AreEqual(3508, start.ParentId);
        Assert.AreEqual(1, start.SessionId);
        Assert.AreEqual("Test.x64.exe", start.ImageFileName);
        Assert.AreEqual("Test.x64.exe", start.CommandLine);
        var end = x64.ProcessEvents.Single(p => p.Opcode == ProcessEvent.End);
        Assert.AreEqual(0, end.ExitStatus);
        var csrss = x64.ProcessEvents.First(p => p.ProcessId == 576);
        Assert.AreEqual("csrss.exe", csrss.ImageFileName);
        Assert.IsTrue(csrss.CommandLine.StartsWith(@"%SystemRoot%\system32\csrss.exe ObjectDirectory=\Windows", StringComparison.Ordinal), csrss.CommandLine);
    }

    [TestMethod]
    public void Process_v4_and_v5_rundown_decodes_in_the_Windows_11_trace()
    {
        var tester = SampleScan.Of(Tester);
        Assert.AreEqual(360, tester.Count("Process/4"));
        Assert.AreEqual(126, tester.Count("Process/39"));
        var wprStop = tester.ProcessEvents.Single(p => p.Opcode == ProcessEvent.Start);
        Assert.AreEqual("wpr.exe", wprStop.ImageFileName);
        Assert.AreEqual(@"""wpr"" -stop C:\temp\TraceLoggingTester.etl", wprStop.CommandLine);
    }

    [TestMethod]
    public void Thread_events_and_SetName_decode()
    {
        Assert.AreEqual(670, SampleScan.Of(X64).Count("Thread/3"));
        var tester = SampleScan.Of(Tester);
        Assert.AreEqual(6_719, tester.Count("Thread/4"));
        Assert.AreEqual(1, tester.Count("Thread/SetName"));
        var named = tester.State.Threads.Single(t => t.Name.Length > 0);
        Assert.AreEqual(19712, named.ThreadId);
        Assert.AreEqual(4, named.ProcessId);
        Assert.AreEqual("WPR_initiated_WprApp_WPR System Collector_Rundown_e520", named.Name);
    }

    [TestMethod]
    public void SampledProfile_and_the_sample_interval_decode()
    {
        var x64 = SampleScan.Of(X64);
        Assert.AreEqual(79_528, x64.Count("PerfInfo/SampledProfile"));
        Assert.AreEqual(2, x64.Intervals.Count);
        Assert.AreEqual(ProfileInterval.CollectionStart, x64.Intervals[0].Opcode);
        Assert.AreEqual(ProfileInterval.CollectionEnd, x64.Intervals[1].Opcode);
        Assert.AreEqual(1_000_000L, x64.Intervals[0].IntervalNs);
        Assert.AreEqual("Timer", x64.Intervals[0].SourceName);
    }

    [TestMethod]
    public void StackWalk_events_decode_with_their_stack_keys()
    {
        var x64 = SampleScan.Of(X64);
        Assert.AreEqual(252, x64.Count("StackWalk/Stack"));
        Assert.AreEqual(2_061, x64.Count("StackWalk/StackKeyKernel"));
        Assert.AreEqual(7_046, x64.Count("StackWalk/StackKeyUser"));
        Assert.AreEqual(1_909, x64.Count("StackWalk/KeyDefinition35"));
        Assert.AreEqual(1_012, x64.Count("StackWalk/KeyDefinition36"));
    }

    [TestMethod]
    public void FileIo_name_events_and_hard_faults_decode()
    {
        var x64 = SampleScan.Of(X64);
        Assert.AreEqual(3_054, x64.Count("FileIo/36"));
        Assert.AreEqual(16, x64.Count("FileIo/32"));
        Assert.AreEqual(14, x64.Count("FileIo/35"));
        Assert.AreEqual(153, x64.HardFaults.Count);
        var first = x64.HardFaults[0];
        Assert.AreEqual(1716, first.ThreadId);
        Assert.AreEqual(8704U, first.ByteCount);
        Assert.AreEqual(283_648L, first.ReadOffset);
    }
}
