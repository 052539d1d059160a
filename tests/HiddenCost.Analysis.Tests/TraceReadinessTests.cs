using HiddenCost.Analysis;
using HiddenCost.Analysis.Catalogs;
using HiddenCost.Analysis.Model;
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
        var t = result["Trace Readiness"];
        Assert.AreEqual(RequirementCatalog.Problems.Count, t.Rows.Count);
        for (int i = 0; i < t.Rows.Count; i++)
        {
            Assert.AreEqual(false, t.Cell(i, "Ready"), (string)t.Cell(i, "Table")!);
            StringAssert.StartsWith((string)t.Cell(i, "Record With")!, "wpr -start MultiProfile.wprp!");
            Assert.AreEqual(79_528L, t.Cell(i, "CPU Samples"));
        }
        var spin = t.Rows.Single(r => (string)r[0]! == "Spin-Wait Cost per Lock");
        StringAssert.Contains((string)spin[t.Spec.IndexOf("Missing")]!, "CLR ContentionStart/Stop (Microsoft-Windows-DotNETRuntime keywords 0x4000)");
        StringAssert.Contains((string)spin[t.Spec.IndexOf("Present")]!, "CLR method rundown 16,702");
        Assert.AreEqual("wpr -start MultiProfile.wprp!SpinWait", spin[t.Spec.IndexOf("Record With")]);
        var notify = t.Rows.Single(r => (string)r[0]! == "Directory Notify Buffers");
        StringAssert.Contains((string)notify[t.Spec.IndexOf("Missing")]!, "FileIo DirNotify");
    }

    [TestMethod]
    public void Spin_wait_on_its_own_sample_is_ready_and_lists_each_present_kind_once()
    {
        var result = TraceAnalyzer.Analyze(Path.Combine(SharedFolder.RepositoryRoot, "samples", "spin-contention.etl"));
        var t = result["Trace Readiness"];
        var spin = t.Rows.Single(r => (string)r[0]! == "Spin-Wait Cost per Lock");
        Assert.AreEqual(true, spin[t.Spec.IndexOf("Ready")]);
        var present = ((string)spin[t.Spec.IndexOf("Present")]!).Split("; ");
        CollectionAssert.AllItemsAreUnique(present, string.Join(" | ", present));
        Assert.AreEqual(1, present.Count(p => p.StartsWith("StackWalk ", StringComparison.Ordinal)));
    }

    [TestMethod]
    public void Stacks_count_only_on_the_events_a_table_wants_them_on()
    {
        // Synthetic: stacks on every syscall entry, none on the CPU samples.
        var scenario = SyscallHookStorm.Generate(new SyscallHookStormOptions { DurationMs = 40, GapStartMs = null, GapEndMs = null },
            new TraceBuilderSettings { SampleStacks = false });
        var t = SyntheticTraces.Analyze(scenario.Trace, "readiness-stacks")["Trace Readiness"];
        int syscallEntries = scenario.Trace.Records.OfType<HiddenCost.Synthetic.Etl.KernelRecord>().Count(r => r.Group == 0x0F && r.Type == 51);

        var syscall = Row(t, "Syscall Hook Overhead");
        Assert.AreEqual(true, syscall["Ready"], "syscall-entry stacks are enough to find the hooking module");
        StringAssert.Contains((string)syscall["Present"]!, $"(on SystemCallEnter {syscallEntries:N0})");
        StringAssert.Contains((string)syscall["Missing"]!, "[StackWalk on SampledProfile (stacks SampledProfile)]");

        // The same StackWalk events do not make Spin-Wait ready: it reads sample stacks.
        var spin = Row(t, "Spin-Wait Cost per Lock");
        StringAssert.Contains((string)spin["Present"]!, "(on other events)");
        var missing = ((string)spin["Missing"]!).Split("; ");
        CollectionAssert.Contains(missing, "StackWalk on SampledProfile (stacks SampledProfile)");
        CollectionAssert.Contains(missing, "[StackWalk on CSwitch (stacks CSwitch)]");
    }

    [TestMethod]
    public void Stacks_on_samples_agree_with_event_counts_with_stack_on_net452_x64()
    {
        var result = TraceAnalyzer.Analyze(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip"));
        var spin = Row(result["Trace Readiness"], "Spin-Wait Cost per Lock");
        StringAssert.Contains((string)spin["Present"]!, "StackWalk 9,359 (on SampledProfile 6,318)");
        var counts = result["Event Counts"];
        int sampled = Enumerable.Range(0, counts.Rows.Count).Single(r => (string?)counts.Cell(r, "Event") == "SampledProfile");
        Assert.AreEqual(6_318L, counts.Cell(sampled, "With Stack"));
    }

    private static Dictionary<string, object?> Row(Table t, string table)
    {
        int r = Enumerable.Range(0, t.Rows.Count).Single(i => (string?)t.Cell(i, "Table") == table);
        return t.Spec.Columns.Select((c, i) => (c.Name, Value: t.Rows[r][i])).ToDictionary(x => x.Name, x => x.Value);
    }

    [TestMethod]
    public void Directory_notify_tables_are_empty_on_real_samples_and_say_why()
    {
        foreach (var sample in new[] { "perfview/net.4.5.2.x64.etl.zip", "etl-parser/ShutdownPerfDiagLogger.etl", "etwanalyzer/TraceLoggingTester.etl.zip" })
        {
            var result = TraceAnalyzer.Analyze(SharedFolder.EtlSample(sample));
            foreach (var name in new[] { "Directory Notify Buffers", "Directory Notify Victims" })
            {
                var t = result[name];
                Assert.AreEqual(0, t.Rows.Count, $"{sample}: {name}");
                Assert.IsTrue(t.Notes.Any(n => n.Contains("no FileIo DirNotify") && n.Contains("wpr -start MultiProfile.wprp!DirNotify")), $"{sample}: {name}");
            }
        }
    }

    [TestMethod]
    public void Every_kind_a_problem_table_decodes_is_in_its_requirements_including_handle_closes_and_wmi_provider_info()
    {
        // Directory Notify ends a watch on FileIo Cleanup/Close; Event Log takes the provider host from WMI-Activity 12.
        var t = TraceAnalyzer.Analyze(Path.Combine(SharedFolder.RepositoryRoot, "samples", "hiddencost-sample.etl"))["Trace Readiness"];
        var notify = t.Rows.Single(r => (string)r[0]! == "Directory Notify Buffers");
        StringAssert.Contains((string)notify[t.Spec.IndexOf("Present")]!, "FileIo Cleanup/Close 2,988");
        var eventLog = t.Rows.Single(r => (string)r[0]! == "Event Log Render Cost");
        StringAssert.Contains((string)eventLog[t.Spec.IndexOf("Missing")]!,
            "[WMI-Activity provider info (Microsoft-Windows-WMI-Activity keywords 0x8000000000000000)]");
        Assert.AreEqual(true, eventLog[t.Spec.IndexOf("Ready")], "an optional kind");
    }
}
