using HiddenCost.Analysis.Tables.EventLog;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

/// <summary>The Event Log Render Cost table on the real public traces: none recorded RPC, registry or context switches.</summary>
[TestClass]
public sealed class EventLogRealSampleTests
{
    private const string Table = "Event Log Render Cost";

    [TestMethod]
    [DataRow("perfview/net.4.5.2.x64.etl.zip")]
    [DataRow("perfview/net.4.5.2.x86.etl.zip")]
    [DataRow("perfview/gcevents.etl.zip")]
    [DataRow("perfview/SelfDescribingSingleEvent.etl")]
    [DataRow("etwanalyzer/TraceLoggingTester.etl.zip")]
    [DataRow("etl-parser/ShutdownPerfDiagLogger.etl")]
    [DataRow("etl-parser/AMSITrace.etl")]
    [DataRow("krabsetw/powershell.etl")]
    public void Real_sample_gives_an_empty_table_whose_note_names_the_profile(string sample)
    {
        var result = TraceAnalyzer.Analyze(SharedFolder.EtlSample(sample));
        Assert.IsNull(result.Error);
        var table = result.Tables.Single(t => t.Spec.Name == Table);
        Assert.AreEqual(0, table.RowCount);
        // AMSITrace lost 3 events while recording: every table says so too.
        var notes = table.Notes.Texts().Where(n => !n.StartsWith("ETW lost 3 events", StringComparison.Ordinal)).ToList();
        Assert.AreEqual(sample == "etl-parser/AMSITrace.etl" ? 2 : 1, table.Notes.Texts().Count, string.Join(" | ", table.Notes.Texts()));
        Assert.AreEqual(1, notes.Count, string.Join(" | ", table.Notes.Texts()));
        StringAssert.Contains(notes[0], "wpr -start MultiProfile.wprp!EventLog");
    }

    [TestMethod]
    [DataRow("perfview/net.4.5.2.x64.etl.zip", "svchost.exe (944)")]
    [DataRow("etl-parser/ShutdownPerfDiagLogger.etl", "svchost.exe (680)")]
    public void Sample_with_the_service_but_no_rpc_events_says_so(string sample, string service)
    {
        var table = TraceAnalyzer.Analyze(SharedFolder.EtlSample(sample))[Table];
        StringAssert.StartsWith(table.Notes.Texts()[0], $"The EventLog service ({service}) is in the trace but no Microsoft-Windows-RPC call events are");
    }
}
