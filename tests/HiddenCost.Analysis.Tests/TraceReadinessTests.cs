using HiddenCost.Analysis;
using HiddenCost.Analysis.Catalogs;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.TraceInfo;
using HiddenCost.Analysis.Tables.TraceReadiness;
using HiddenCost.Analysis.Tables.EventCounts;
using HiddenCost.Analysis.Tests.Support;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

[TestClass]
public sealed class TraceReadinessTests
{
    [TestMethod]
    public void Net452_x64_is_ready_for_no_problem_table_and_names_what_records_the_missing_events()
    {
        var result = TraceAnalyzer.Analyze(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip"));
        var t = result.Table(TraceReadinessAnalysis.Definition);
        Assert.AreEqual(RequirementCatalog.Problems.Count, t.Rows.Count);
        for (int i = 0; i < t.Rows.Count; i++)
        {
            Assert.AreEqual(false, t.Rows[i].Ready, t.Rows[i].Table);
            StringAssert.StartsWith(t.Rows[i].RecordWith, "wpr -start MultiProfile.wprp!");
            Assert.AreEqual(79_528L, t.Rows[i].CpuSamples);
        }
        var spin = t.Rows.Single(r => r.Table == "Spin-Wait Cost per Lock");
        StringAssert.Contains(spin.Missing, "CLR ContentionStart/Stop (Microsoft-Windows-DotNETRuntime keywords 0x4000)");
        StringAssert.Contains(spin.Present, "CLR method rundown 16,702");
        Assert.AreEqual("wpr -start MultiProfile.wprp!SpinWait", spin.RecordWith);
        var notify = t.Rows.Single(r => r.Table == "Directory Notify Buffers");
        StringAssert.Contains(notify.Missing, "FileIo DirNotify");
    }

    [TestMethod]
    public void Spin_wait_on_its_own_sample_is_ready_and_lists_each_present_kind_once()
    {
        var result = TraceAnalyzer.Analyze(Path.Combine(SharedFolder.RepositoryRoot, "samples", "spin-contention.etl"));
        var t = result.Table(TraceReadinessAnalysis.Definition);
        var spin = t.Rows.Single(r => r.Table == "Spin-Wait Cost per Lock");
        Assert.AreEqual(true, spin.Ready);
        var present = (spin.Present).Split("; ");
        CollectionAssert.AllItemsAreUnique(present, string.Join(" | ", present));
        Assert.AreEqual(1, present.Count(p => p.StartsWith("StackWalk ", StringComparison.Ordinal)));
    }

    [TestMethod]
    public void Stacks_count_only_on_the_events_a_table_wants_them_on()
    {
        // Synthetic: stacks on every syscall entry, none on the CPU samples.
        var scenario = SyscallHookStorm.Generate(new SyscallHookStormOptions { DurationMs = 40, GapStartMs = null, GapEndMs = null },
            new TraceBuilderSettings { SampleStacks = false });
        var t = SyntheticTraces.Analyze(scenario.Trace, "readiness-stacks").Table(TraceReadinessAnalysis.Definition);
        int syscallEntries = scenario.Trace.Records.OfType<HiddenCost.Synthetic.Etl.KernelRecord>().Count(r => r.Group == 0x0F && r.Type == 51);

        var syscall = Row(t, "Syscall Hook Overhead");
        Assert.AreEqual(true, syscall.Ready, "syscall-entry stacks are enough to find the hooking module");
        StringAssert.Contains(syscall.Present, $"(on SystemCallEnter {syscallEntries:N0})");
        StringAssert.Contains(syscall.Missing, "[StackWalk on SampledProfile (stacks SampledProfile)]");

        // The same StackWalk events do not make Spin-Wait ready: it reads sample stacks.
        var spin = Row(t, "Spin-Wait Cost per Lock");
        StringAssert.Contains(spin.Present, "(on other events)");
        var missing = (spin.Missing).Split("; ");
        CollectionAssert.Contains(missing, "StackWalk on SampledProfile (stacks SampledProfile)");
        CollectionAssert.Contains(missing, "[StackWalk on CSwitch (stacks CSwitch)]");
    }

    [TestMethod]
    public void Stacks_on_samples_agree_with_event_counts_with_stack_on_net452_x64()
    {
        var result = TraceAnalyzer.Analyze(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip"));
        var spin = Row(result.Table(TraceReadinessAnalysis.Definition), "Spin-Wait Cost per Lock");
        StringAssert.Contains(spin.Present, "StackWalk 9,359 (on SampledProfile 6,318)");
        var counts = result.Table(EventCountsAnalysis.Definition);
        Assert.AreEqual(6_318L, counts.Rows.Single(r => r.Event == "SampledProfile").WithStack);
    }

    private static TraceReadinessRow Row(Table<TraceReadinessRow> t, string table) => t.Rows.Single(r => r.Table == table);

    [TestMethod]
    public void Directory_notify_tables_are_empty_on_real_samples_and_say_why()
    {
        foreach (var sample in new[] { "perfview/net.4.5.2.x64.etl.zip", "etl-parser/ShutdownPerfDiagLogger.etl", "etwanalyzer/TraceLoggingTester.etl.zip" })
        {
            var result = TraceAnalyzer.Analyze(SharedFolder.EtlSample(sample));
            foreach (var name in new[] { "Directory Notify Buffers", "Directory Notify Victims" })
            {
                var t = result.Tables.Single(x => x.Spec.Name == name);
                Assert.AreEqual(0, t.RowCount, $"{sample}: {name}");
                Assert.IsTrue(t.Notes.Texts().Any(n => n.Contains("no FileIo DirNotify") && n.Contains("wpr -start MultiProfile.wprp!DirNotify")), $"{sample}: {name}");
            }
        }
    }

    [TestMethod]
    public void Every_kind_a_problem_table_decodes_is_in_its_requirements_including_handle_closes_and_wmi_provider_info()
    {
        // Directory Notify ends a watch on FileIo Cleanup/Close; Event Log takes the provider host from WMI-Activity 12.
        var t = TraceAnalyzer.Analyze(Path.Combine(SharedFolder.RepositoryRoot, "samples", "hiddencost-sample.etl")).Table(TraceReadinessAnalysis.Definition);
        var notify = t.Rows.Single(r => r.Table == "Directory Notify Buffers");
        StringAssert.Contains(notify.Present, "FileIo Cleanup/Close 2,988");
        var eventLog = t.Rows.Single(r => r.Table == "Event Log Render Cost");
        StringAssert.Contains(eventLog.Missing,
            "[WMI-Activity provider info (Microsoft-Windows-WMI-Activity keywords 0x8000000000000000)]");
        Assert.AreEqual(true, eventLog.Ready, "an optional kind");
    }
}
