using HiddenCost.Analysis;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

[TestClass]
public sealed class TraceInfoTests
{
    [TestMethod]
    public void Net452_x64_trace_info_shows_header_and_buffer_figures()
    {
        var result = TraceAnalyzer.Analyze(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip"));
        Assert.IsNull(result.Error);
        var info = result["Trace Info"];
        Assert.AreEqual(1, info.Rows.Count);
        Assert.AreEqual(9200L, info.Cell(0, "OS Build"));
        Assert.AreEqual(8L, info.Cell(0, "Processors"));
        Assert.AreEqual(8L, info.Cell(0, "Pointer Size"));
        Assert.AreEqual("QueryPerformanceCounter", info.Cell(0, "Clock Type"));
        Assert.AreEqual(3592L, info.Cell(0, "CPU Speed (MHz)"));
        Assert.AreEqual("2020-07-29T00:07:00.6236167Z", info.Cell(0, "Trace Start (UTC)"));
        Assert.AreEqual(360L, info.Cell(0, "Buffers"));
        Assert.AreEqual(359L, info.Cell(0, "Compressed Buffers"));
        Assert.AreEqual(0L, info.Cell(0, "Events Lost"));
        Assert.AreEqual(0L, info.Cell(0, "Buffers Lost"));
        Assert.AreEqual(179_474L, info.Cell(0, "Events"));
        Assert.AreEqual("0x04010001", info.Cell(0, "File Mode"));
        Assert.AreEqual("Relogger", info.Cell(0, "Session Name"));
        Assert.AreEqual(0, info.Notes.Count);
    }

    [TestMethod]
    public void Trace_start_is_iso_8601_whatever_the_culture_of_the_host()
    {
        // WPA runs in the user's culture; one whose time separator is "." (fi-FI) wrote "09.30.00", which the plugin
        // could not read back (the timeline then started in 1970).
        var culture = (System.Globalization.CultureInfo)System.Globalization.CultureInfo.InvariantCulture.Clone();
        culture.DateTimeFormat.TimeSeparator = ".";
        culture.DateTimeFormat.DateSeparator = "/";
        var saved = System.Globalization.CultureInfo.CurrentCulture;
        try
        {
            System.Globalization.CultureInfo.CurrentCulture = culture;
            var result = TraceAnalyzer.Analyze(Path.Combine(SharedFolder.RepositoryRoot, "samples", "hiddencost-sample.etl"));
            Assert.IsNull(result.Error);
            Assert.AreEqual("2026-01-15T09:30:00.0000000Z", result["Trace Info"].Cell(0, "Trace Start (UTC)"));
        }
        finally
        {
            System.Globalization.CultureInfo.CurrentCulture = saved;
        }
    }

    [TestMethod]
    public void ShutdownPerfDiagLogger_trace_info_shows_two_processors_and_build_18362()
    {
        var info = TraceAnalyzer.Analyze(SharedFolder.EtlSample("etl-parser/ShutdownPerfDiagLogger.etl"))["Trace Info"];
        Assert.AreEqual(2L, info.Cell(0, "Processors"));
        Assert.AreEqual(18362L, info.Cell(0, "OS Build"));
        Assert.AreEqual("PerfDiag Logger", info.Cell(0, "Session Name"));
        Assert.AreEqual(49L, info.Cell(0, "Buffers"));
    }

    [TestMethod]
    public void AMSI_trace_reports_its_three_lost_events_as_a_note()
    {
        var info = TraceAnalyzer.Analyze(SharedFolder.EtlSample("etl-parser/AMSITrace.etl"))["Trace Info"];
        Assert.AreEqual(3L, info.Cell(0, "Events Lost"));
        StringAssert.Contains(info.Notes[0], "3 events");
    }

    [TestMethod]
    public void AMSI_trace_says_on_every_other_table_that_events_were_lost()
    {
        var result = TraceAnalyzer.Analyze(SharedFolder.EtlSample("etl-parser/AMSITrace.etl"));
        foreach (var table in result.Tables.Where(t => t.Spec.Name is not ("Trace Info" or "Trace Readiness")))
            Assert.AreEqual(1, table.Notes.Count(n => n.StartsWith("ETW lost 3 events and 0 buffers while this trace was recorded")),
                $"{table.Spec.Name}: {string.Join(" | ", table.Notes)}");
        foreach (var own in new[] { "Trace Info", "Trace Readiness" })
        {
            Assert.IsFalse(result[own].Notes.Any(n => n.StartsWith("ETW lost 3 events and 0 buffers while this trace")), own + " says it its own way");
            Assert.AreEqual(1, result[own].Notes.Count(n => n.StartsWith("ETW lost") && n.Contains("3 events")), own);
        }
        var clean = TraceAnalyzer.Analyze(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip"));
        Assert.IsFalse(clean.Tables.Any(t => t.Notes.Any(n => n.StartsWith("ETW lost"))));
    }

    [TestMethod]
    public void Empty_file_gives_a_clear_error_and_every_table_empty()
    {
        var path = SharedFolder.EtlSample("etwanalyzer/EmptyETL.etl");
        var result = TraceAnalyzer.Analyze(path);
        Assert.AreEqual($"{path}: offset 0x0: empty file (0 bytes), or not a file (a pipe or device): not an ETL trace", result.Error);
        Assert.AreEqual(TableCatalog.All.Count, result.Tables.Count);
        foreach (var table in result.Tables)
        {
            Assert.AreEqual(0, table.Rows.Count, table.Spec.Name);
            Assert.AreEqual(result.Error, table.Notes.Single());
        }
    }

    [TestMethod]
    public void Missing_file_gives_an_error_naming_the_file()
    {
        var path = Path.Combine(Path.GetTempPath(), "hiddencost-no-such-trace.etl");
        var result = TraceAnalyzer.Analyze(path);
        Assert.AreEqual($"{path}: offset 0x0: file not found", result.Error);
    }

    [TestMethod]
    public void Non_etl_file_is_rejected_at_offset_zero()
    {
        var path = Path.Combine(SharedFolder.Require(), "etl-samples", "README.md");
        var result = TraceAnalyzer.Analyze(path);
        Assert.IsNotNull(result.Error);
        StringAssert.StartsWith(result.Error, $"{path}: offset 0x0: not an ETL file");
    }
}
