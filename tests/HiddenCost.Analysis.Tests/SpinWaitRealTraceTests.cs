using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.SyscallHook;
using HiddenCost.Analysis.Tables.SpinWait;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

/// <summary>The Spin-Wait tables on the real PerfView samples (.NET Framework 4.5.2, no context switches).</summary>
[TestClass]
public sealed class SpinWaitRealTraceTests
{
    private const string PerLock = "Spin-Wait Cost per Lock", ByProcess = "Spin-Wait by Process";

    [TestMethod]
    public void Trace_with_CLR_events_but_no_contention_gives_empty_tables_naming_the_keyword_and_profile()
    {
        var result = TraceAnalyzer.Analyze(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip"));
        Assert.IsNull(result.Error);
        foreach (var name in new[] { PerLock, ByProcess })
        {
            var table = result.Tables.Single(t => t.Spec.Name == name);
            Assert.AreEqual(0, table.RowCount, name);
            var note = table.Notes.Texts().SingleOrDefault(n => n.StartsWith("The trace has no CLR ContentionStart/Stop events", StringComparison.Ordinal));
            Assert.IsNotNull(note, string.Join(" | ", table.Notes.Texts()));
            StringAssert.Contains(note, "Microsoft-Windows-DotNETRuntime keywords 0x4000");
            StringAssert.Contains(note, "`wpr -start MultiProfile.wprp!SpinWait`");
        }
    }

    [TestMethod]
    public void Runtime_calls_of_a_process_that_never_contends_are_not_counted_as_spin_and_the_note_says_so()
    {
        // Test.x64.exe calls DateTime.Now in a loop: clr.dll frames right under managed code in many samples.
        var table = TraceAnalyzer.Analyze(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip")).Table(SpinWaitTables.PerLock);
        Assert.AreEqual(0, table.Rows.Count);
        var note = table.Notes.Texts().Single(n => n.Contains("of runtime code (coreclr.dll/clr.dll) called from managed code is not counted as spin", StringComparison.Ordinal));
        Assert.IsTrue(note.StartsWith("400.0 ms", StringComparison.Ordinal), note);
    }

    [TestMethod]
    public void Framework_native_lock_contentions_of_the_x86_sample_are_all_counted_with_waits_from_start_stop_pairs()
    {
        // PerfView.exe (clr.dll, v1 starts with ContentionFlags 1 = native lock, v0 stops) contends 16 times while
        // stopping its session; pairing each stop with its thread's innermost start gives 5.5181 ms of wait in all.
        var result = TraceAnalyzer.Analyze(SharedFolder.EtlSample("perfview/net.4.5.2.x86.etl.zip"));
        var table = result.Table(SpinWaitTables.PerLock);
        var rows = Enumerable.Range(0, table.Rows.Count).ToArray();
        Assert.IsTrue(rows.All(r => table.Rows[r].Process == "PerfView.exe" && (long?)table.Rows[r].Pid == 3988));
        Assert.IsTrue(rows.All(r => table.Rows[r].LockId is null && table.Rows[r].Object is null), "v1 starts carry no lock id or object");
        Assert.AreEqual(16L, rows.Sum(r => (long)table.Rows[r].Contentions!));
        Assert.AreEqual(5.5181, rows.Sum(r => (double)table.Rows[r].WaitMs!), 1e-9);
        int stop = rows.Single(r => table.Rows[r].CallSite == "PerfView.CommandProcessor+<>c__DisplayClass15_0.<Stop>b__1");
        Assert.AreEqual(1L, table.Rows[stop].Contentions);
        Assert.AreEqual(1.8772, (double)table.Rows[stop].WaitMs!, 1e-9);
        Assert.AreEqual(10_379_760_400L, table.Rows[stop].Last);
        // Its two spin samples (10,378.66 and 10,379.66 ms) lie inside it and end at its ContentionStop: they paid off.
        // The thread's spin just before it lay inside its previous contention (stopped 8 µs earlier) and paid off
        // there; it only names this one's call site.
        Assert.AreEqual(2.0, (double)table.Rows[stop].SuccessfulSpinCpuMs!, 1e-9);
        Assert.AreEqual(0.0, (double)table.Rows[stop].WastedSpinCpuMs!, 1e-9);
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("ContentionStart/Stop", StringComparison.Ordinal)), "contention events are present");
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("The trace has no CSwitch events", StringComparison.Ordinal)));
        Assert.AreEqual(1, result.Table(SpinWaitTables.ByProcess).Rows.Count);
        Assert.AreEqual("PerfView.exe", result.Table(SpinWaitTables.ByProcess).Rows[0].Process);
    }
}
