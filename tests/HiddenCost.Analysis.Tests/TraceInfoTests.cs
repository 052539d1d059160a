using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.TraceInfo;
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
        var info = result.Table(TraceInfoAnalysis.Definition);
        Assert.AreEqual(1, info.Rows.Count);
        Assert.AreEqual(9200L, info.Rows[0].OsBuild);
        Assert.AreEqual(8L, info.Rows[0].Processors);
        Assert.AreEqual(8L, info.Rows[0].PointerSize);
        Assert.AreEqual("QueryPerformanceCounter", info.Rows[0].ClockType);
        Assert.AreEqual(3592L, info.Rows[0].CpuSpeedMHz);
        Assert.AreEqual("2020-07-29T00:07:00.6236167Z", info.Rows[0].TraceStartUtc);
        Assert.AreEqual(360L, info.Rows[0].Buffers);
        Assert.AreEqual(359L, info.Rows[0].CompressedBuffers);
        Assert.AreEqual(0L, info.Rows[0].EventsLost);
        Assert.AreEqual(0L, info.Rows[0].BuffersLost);
        Assert.AreEqual(179_474L, info.Rows[0].Events);
        Assert.AreEqual("0x04010001", info.Rows[0].FileMode);
        Assert.AreEqual("Relogger", info.Rows[0].SessionName);
        Assert.AreEqual(0, info.Notes.Texts().Count);
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
            Assert.AreEqual("2026-01-15T09:30:00.0000000Z", result.Table(TraceInfoAnalysis.Definition).Rows[0].TraceStartUtc);
        }
        finally
        {
            System.Globalization.CultureInfo.CurrentCulture = saved;
        }
    }

    [TestMethod]
    public void ShutdownPerfDiagLogger_trace_info_shows_two_processors_and_build_18362()
    {
        var info = TraceAnalyzer.Analyze(SharedFolder.EtlSample("etl-parser/ShutdownPerfDiagLogger.etl")).Table(TraceInfoAnalysis.Definition);
        Assert.AreEqual(2L, info.Rows[0].Processors);
        Assert.AreEqual(18362L, info.Rows[0].OsBuild);
        Assert.AreEqual("PerfDiag Logger", info.Rows[0].SessionName);
        Assert.AreEqual(49L, info.Rows[0].Buffers);
    }

    [TestMethod]
    public void AMSI_trace_reports_its_three_lost_events_as_a_note()
    {
        var info = TraceAnalyzer.Analyze(SharedFolder.EtlSample("etl-parser/AMSITrace.etl")).Table(TraceInfoAnalysis.Definition);
        Assert.AreEqual(3L, info.Rows[0].EventsLost);
        StringAssert.Contains(info.Notes.Texts()[0], "3 events");
    }

    [TestMethod]
    public void AMSI_trace_says_on_every_other_table_that_events_were_lost()
    {
        var result = TraceAnalyzer.Analyze(SharedFolder.EtlSample("etl-parser/AMSITrace.etl"));
        foreach (var table in result.Tables.Where(t => t.Spec.Name is not ("Trace Info" or "Trace Readiness")))
            Assert.AreEqual(1, table.Notes.Texts().Count(n => n.StartsWith("ETW lost 3 events and 0 buffers while this trace was recorded")),
                $"{table.Spec.Name}: {string.Join(" | ", table.Notes.Texts())}");
        foreach (var own in new[] { "Trace Info", "Trace Readiness" })
        {
            Assert.IsFalse(result[own].Notes.Texts().Any(n => n.StartsWith("ETW lost 3 events and 0 buffers while this trace")), own + " says it its own way");
            Assert.AreEqual(1, result[own].Notes.Texts().Count(n => n.StartsWith("ETW lost") && n.Contains("3 events")), own);
        }
        var clean = TraceAnalyzer.Analyze(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip"));
        Assert.IsFalse(clean.Tables.Any(t => t.Notes.Texts().Any(n => n.StartsWith("ETW lost"))));
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
            Assert.AreEqual(0, table.RowCount, table.Spec.Name);
            Assert.AreEqual(result.Error, table.Notes.Texts().Single());
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
