using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.SpinWait;
using HiddenCost.Analysis.Tables.SyscallHook;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

/// <summary>Syscall Hook Overhead and Profiling Gaps on the real sample traces (none of which recorded syscalls).</summary>
[TestClass]
public sealed class SyscallHookRealTraceTests
{
    [TestMethod]
    public void Real_samples_without_syscall_events_give_an_empty_table_naming_the_profile()
    {
        foreach (var sample in new[] { "perfview/net.4.5.2.x64.etl.zip", "perfview/net.4.5.2.x86.etl.zip", "etl-parser/ShutdownPerfDiagLogger.etl", "etwanalyzer/TraceLoggingTester.etl.zip" })
        {
            var result = TraceAnalyzer.Analyze(SharedFolder.EtlSample(sample));
            Assert.IsNull(result.Error, result.Error);
            var table = result.Table(SyscallHookTables.Overhead);
            Assert.AreEqual(0, table.Rows.Count, sample);
            Assert.AreEqual(1, table.Notes.Texts().Count, sample + ": " + string.Join("\n", table.Notes.Texts()));
            Assert.AreEqual("No syscall events (PerfInfo SysClEnter/SysClExit): the trace was recorded without syscall tracing. " +
                            "Record with `wpr -start MultiProfile.wprp!SysCall`.", table.Notes.Texts()[0], sample);
        }
    }

    [TestMethod]
    public void Real_sampled_traces_show_no_profiling_gap()
    {
        // Both PerfView traces sample for their whole length and name their interval: a gap here would be a false alarm.
        foreach (var sample in new[] { "perfview/net.4.5.2.x64.etl.zip", "perfview/net.4.5.2.x86.etl.zip" })
        {
            var gaps = TraceAnalyzer.Analyze(SharedFolder.EtlSample(sample)).Table(SyscallHookTables.Gaps);
            Assert.AreEqual(0, gaps.Rows.Count, sample);
            Assert.AreEqual(0, gaps.Notes.Texts().Count, sample + ": " + string.Join("\n", gaps.Notes.Texts()));
        }
    }

    [TestMethod]
    public void Real_traces_without_samples_say_gaps_cannot_be_found()
    {
        var gaps = TraceAnalyzer.Analyze(SharedFolder.EtlSample("etl-parser/ShutdownPerfDiagLogger.etl")).Table(SyscallHookTables.Gaps);
        Assert.AreEqual(0, gaps.Rows.Count);
        Assert.AreEqual("No CPU samples (PerfInfo SampledProfile): profiling gaps cannot be found. Record with `wpr -start MultiProfile.wprp!SysCall`.",
            gaps.Notes.Texts().Single());
    }
}
