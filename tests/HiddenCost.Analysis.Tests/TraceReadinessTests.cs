using HiddenCost.Analysis;
using HiddenCost.Analysis.Catalogs;
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
}
