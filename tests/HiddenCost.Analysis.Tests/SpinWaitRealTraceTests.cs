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
            var table = result[name];
            Assert.AreEqual(0, table.Rows.Count, $"{name}: " + string.Join(" | ", table.Rows.Select(r => string.Join(", ", r))));
            var note = table.Notes.SingleOrDefault(n => n.StartsWith("The trace has no CLR ContentionStart/Stop events", StringComparison.Ordinal));
            Assert.IsNotNull(note, string.Join(" | ", table.Notes));
            StringAssert.Contains(note, "Microsoft-Windows-DotNETRuntime keywords 0x4000");
            StringAssert.Contains(note, "`wpr -start MultiProfile.wprp!SpinWait`");
        }
    }

    [TestMethod]
    public void Runtime_calls_of_a_process_that_never_contends_are_not_counted_as_spin_and_the_note_says_so()
    {
        // Test.x64.exe calls DateTime.Now in a loop: clr.dll frames right under managed code in many samples.
        var table = TraceAnalyzer.Analyze(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip"))[PerLock];
        Assert.AreEqual(0, table.Rows.Count);
        var note = table.Notes.Single(n => n.Contains("of runtime code (coreclr.dll/clr.dll) called from managed code is not counted as spin", StringComparison.Ordinal));
        Assert.IsTrue(note.StartsWith("400.0 ms", StringComparison.Ordinal), note);
    }

    [TestMethod]
    public void Framework_native_lock_contentions_of_the_x86_sample_are_all_counted_with_waits_from_start_stop_pairs()
    {
        // PerfView.exe (clr.dll, v1 starts with ContentionFlags 1 = native lock, v0 stops) contends 16 times while
        // stopping its session; pairing each stop with its thread's innermost start gives 5.5181 ms of wait in all.
        var result = TraceAnalyzer.Analyze(SharedFolder.EtlSample("perfview/net.4.5.2.x86.etl.zip"));
        var table = result[PerLock];
        var rows = Enumerable.Range(0, table.Rows.Count).ToArray();
        Assert.IsTrue(rows.All(r => (string?)table.Cell(r, "Process") == "PerfView.exe" && (long?)table.Cell(r, "PID") == 3988));
        Assert.IsTrue(rows.All(r => table.Cell(r, "Lock ID") is null && table.Cell(r, "Object") is null), "v1 starts carry no lock id or object");
        Assert.AreEqual(16L, rows.Sum(r => (long)table.Cell(r, "Contentions")!));
        Assert.AreEqual(5.5181, rows.Sum(r => (double)table.Cell(r, "Wait (ms)")!), 1e-9);
        int stop = rows.Single(r => (string?)table.Cell(r, "Call Site") == "PerfView.CommandProcessor+<>c__DisplayClass15_0.<Stop>b__1");
        Assert.AreEqual(1L, table.Cell(stop, "Contentions"));
        Assert.AreEqual(1.8772, (double)table.Cell(stop, "Wait (ms)")!, 1e-9);
        Assert.AreEqual(10_379_760_400L, table.Cell(stop, "Last"));
        // Its two spin samples (10,378.66 and 10,379.66 ms) lie inside it and end at its ContentionStop: they paid off.
        // The thread's spin just before it lay inside its previous contention (stopped 8 µs earlier) and paid off
        // there; it only names this one's call site.
        Assert.AreEqual(2.0, (double)table.Cell(stop, "Successful Spin CPU (ms)")!, 1e-9);
        Assert.AreEqual(0.0, (double)table.Cell(stop, "Wasted Spin CPU (ms)")!, 1e-9);
        Assert.IsFalse(table.Notes.Any(n => n.Contains("ContentionStart/Stop", StringComparison.Ordinal)), "contention events are present");
        Assert.IsTrue(table.Notes.Any(n => n.StartsWith("The trace has no CSwitch events", StringComparison.Ordinal)));
        Assert.AreEqual(1, result[ByProcess].Rows.Count);
        Assert.AreEqual("PerfView.exe", result[ByProcess].Cell(0, "Process"));
    }
}
