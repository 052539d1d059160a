using System.Reflection;
using HiddenCost.Analysis;
using HiddenCost.TestSupport;
using Microsoft.Performance.SDK;
using Microsoft.Performance.SDK.Processing;
using Microsoft.Performance.SDK.Processing.DataSourceGrouping;
using DataSourceAttribute = Microsoft.Performance.SDK.Processing.DataSourceAttribute;

namespace HiddenCost.Wpa.Tests.Host;

/// <summary>The built plugin, loaded and driven the way WPA drives it, on real traces from ../shared/etl-samples.</summary>
[TestClass]
public sealed class PluginHostingTests
{
    [TestMethod]
    public void Host_finds_one_processing_source_named_HiddenCost_that_claims_etl_files()
    {
        var type = HostedTrace.DiscoveredSource();
        var identity = type.GetCustomAttribute<ProcessingSourceAttribute>()!;
        var claims = type.GetCustomAttributes<DataSourceAttribute>().ToList();

        Assert.AreEqual("HiddenCost", identity.Name);
        Assert.AreEqual(Guid.Parse("01b637d0-ceb5-402a-b7e8-d23033493ea7"), identity.Guid);
        Assert.AreEqual("etl", ((FileDataSourceAttribute)claims.Single()).FileExtension);
        Assert.IsTrue(claims[0].Accepts(new FileDataSource("trace.etl")));
        Assert.IsTrue(claims[0].Accepts(new FileDataSource("TRACE.ETL")));
        Assert.IsFalse(claims[0].Accepts(new FileDataSource("trace.txt")));
        var source = HostedTrace.CreateSource(new TestHost());
        Assert.IsTrue(source.IsDataSourceSupported(new FileDataSource("trace.etl")));
        Assert.IsFalse(source.IsDataSourceSupported(new FileDataSource("trace.etl.zip")));
    }

    [TestMethod]
    public void Processing_source_lists_every_catalog_table_before_any_trace_is_opened()
    {
        var source = HostedTrace.CreateSource(new TestHost());

        CollectionAssert.AreEqual(TableCatalog.All.Select(t => t.Id).ToList(), source.DataTables.Select(t => t.Guid).ToList());
        CollectionAssert.AreEqual(TableCatalog.All.Select(t => t.Name).ToList(), source.DataTables.Select(t => t.Name).ToList());
        CollectionAssert.AreEqual(TableCatalog.All.Select(t => t.Category).ToList(), source.DataTables.Select(t => t.Category).ToList());
        Assert.AreEqual(0, source.MetadataTables.Count());
    }

    [TestMethod]
    public void About_information_names_the_plugin_and_its_tables_instead_of_the_sdk_template()
    {
        var about = HostedTrace.CreateSource(new TestHost()).GetAboutInfo();

        Assert.AreEqual("HiddenCost developers", about.Owners.Single().Name);
        var text = string.Join("\n", about.AdditionalInformation);
        StringAssert.StartsWith(text, "HiddenCost " + typeof(HiddenCostProcessingSource).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()!.InformationalVersion + ": ");
        foreach (var table in TableCatalog.All) StringAssert.Contains(text, table.Name);
        StringAssert.Contains(text, "MultiProfile.wprp");
        Assert.IsFalse(text.Contains('<') || about.Owners.Any(o => o.Name.Contains('<')), "no template placeholders");
    }

    [TestMethod]
    public void Several_traces_opened_at_once_each_get_a_group_and_a_processor_of_their_own()
    {
        var host = new TestHost();
        var source = HostedTrace.CreateSource(host);
        var x64 = SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip");
        var shutdown = SharedFolder.EtlSample("etl-parser/ShutdownPerfDiagLogger.etl");
        var groups = ((IDataSourceGrouper)source).CreateValidGroups(
            [new FileDataSource(x64), new FileDataSource("notes.txt"), new FileDataSource(shutdown)], ProcessorOptions.Default);

        Assert.AreEqual(2, groups.Count, "one group per trace; the text file is not ours");
        foreach (var (group, path, build) in groups.Zip([x64, shutdown], [9200L, 18362L]))
        {
            Assert.AreEqual(path, ((FileDataSource)group.DataSources.Single()).FullPath);
            Assert.IsInstanceOfType<DefaultProcessingMode>(group.ProcessingMode);
            var processor = source.CreateProcessor(group, host, ProcessorOptions.Default);
            var info = source.DataTables.Single(t => t.Name == "Trace Info");
            processor.EnableTable(info);
            processor.ProcessAsync(new Progress<int>(), CancellationToken.None).GetAwaiter().GetResult();
            var table = new RecordingTableBuilder();
            processor.BuildTable(info, table);
            Assert.AreEqual(build, table.Cell(0, "OS Build"));
        }
        Assert.AreEqual(0, host.Entries("Warn").Count(), string.Join("; ", host.Entries("Warn")));
    }

    [TestMethod]
    public void Net452_x64_shows_its_header_and_sample_count_in_WPA()
    {
        var trace = HostedTrace.Open(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip"));
        var info = trace["Trace Info"];
        var counts = trace["Event Counts"];

        Assert.AreEqual(1, info.RowCount);
        Assert.AreEqual(8L, info.Cell(0, "Processors"));
        Assert.AreEqual(9200L, info.Cell(0, "OS Build"));
        Assert.AreEqual(8L, info.Cell(0, "Pointer Size"));
        Assert.AreEqual(0L, info.Cell(0, "Events Lost"));
        Assert.AreEqual(79_528L, Count(counts, "PerfInfo", "SampledProfile"));
        Assert.AreEqual(0, trace.Host.Entries("Error").Count(), string.Join("\n", trace.Host.Log));
        Assert.AreEqual(0, trace.Host.Messages.Count);
    }

    [TestMethod]
    public void Net452_x64_timeline_spans_the_trace_info_start_to_end()
    {
        var trace = HostedTrace.Open(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip"));
        var info = trace["Trace Info"];
        var start = (Timestamp)info.Cell(0, "Start")!;
        var end = (Timestamp)info.Cell(0, "End")!;
        var traceStart = DateTime.Parse((string)info.Cell(0, "Trace Start (UTC)")!, null, System.Globalization.DateTimeStyles.AdjustToUniversal);

        Assert.AreEqual(start.ToNanoseconds, trace.Timeline.FirstEventTimestampNanoseconds);
        Assert.AreEqual(end.ToNanoseconds, trace.Timeline.EndTimestampNanoseconds);
        Assert.AreEqual(traceStart.AddTicks(start.ToNanoseconds / 100), trace.Timeline.FirstEventWallClockUtc);
        Assert.AreEqual(DateTimeKind.Utc, trace.Timeline.FirstEventWallClockUtc.Kind);
        Assert.IsTrue(end.ToNanoseconds > start.ToNanoseconds, $"{start} .. {end}");
        Assert.AreEqual(new TimestampDelta(end.ToNanoseconds - start.ToNanoseconds), info.Cell(0, "Duration"));
        Assert.AreEqual(0, trace.Timeline.Errors.Count);
    }

    [TestMethod]
    public void Net452_x64_progress_rises_to_100_percent()
    {
        var progress = HostedTrace.Open(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip")).Progress;

        Assert.IsTrue(progress.Count >= 2, string.Join(",", progress));
        Assert.AreEqual(100, progress[^1]);
        CollectionAssert.AreEqual(progress.Order().ToList(), progress.ToList(), "progress never goes back");
        Assert.IsTrue(progress.All(p => p is >= 0 and <= 100));
    }

    [TestMethod]
    public void ShutdownPerfDiagLogger_shows_two_processors_and_build_18362()
    {
        var info = HostedTrace.Open(SharedFolder.EtlSample("etl-parser/ShutdownPerfDiagLogger.etl"))["Trace Info"];

        Assert.AreEqual(2L, info.Cell(0, "Processors"));
        Assert.AreEqual(18362L, info.Cell(0, "OS Build"));
    }

    [TestMethod]
    public void Empty_file_gives_every_table_empty_with_the_error_logged_and_shown()
    {
        var path = SharedFolder.EtlSample("etwanalyzer/EmptyETL.etl");

        var trace = HostedTrace.Open(path);

        Assert.AreEqual(TableCatalog.All.Count, trace.Tables.Count);
        foreach (var (name, table) in trace.Tables)
        {
            Assert.AreEqual(0, table.RowCount, name);
            Assert.AreEqual(TableCatalog.All.Single(t => t.Name == name).Columns.Count, table.Columns.Count, name);
            StringAssert.Contains(table.DefaultConfiguration!.Description, "empty file", name);
            StringAssert.Contains(table.DefaultConfiguration!.Description, path, name);
        }
        var error = trace.Host.Entries("Error").Single();
        StringAssert.Contains(error.Text, "empty file");
        StringAssert.StartsWith(trace.Host.Messages.Single(), "Error: HiddenCost: " + path);
        StringAssert.Contains(trace.Timeline.Errors.Single().Message, "empty file");
    }

    [TestMethod]
    public void Missing_file_gives_empty_tables_with_an_error_naming_the_file()
    {
        var path = Path.Combine(Path.GetTempPath(), "hiddencost-" + Guid.NewGuid().ToString("N") + ".etl");

        var trace = HostedTrace.Open(path);

        Assert.IsTrue(trace.Tables.Values.All(t => t.RowCount == 0));
        StringAssert.Contains(trace["Trace Info"].DefaultConfiguration!.Description, path);
        StringAssert.Contains(trace.Host.Entries("Error").Single().Text, path);
    }

    [TestMethod]
    public void File_that_is_not_an_ETL_gives_empty_tables_with_an_error_naming_the_file()
    {
        var path = Path.Combine(Path.GetTempPath(), "hiddencost-" + Guid.NewGuid().ToString("N") + ".etl");
        File.WriteAllText(path, "this is a text file with an .etl name, long enough to hold a buffer header or two; " + new string('x', 200));
        try
        {
            var trace = HostedTrace.Open(path);

            Assert.IsTrue(trace.Tables.Values.All(t => t.RowCount == 0));
            StringAssert.StartsWith(trace["Event Counts"].DefaultConfiguration!.Description, path + ":");
            Assert.AreEqual(1, trace.Host.Entries("Error").Count());
            Assert.AreEqual(1, trace.Host.Messages.Count);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [TestMethod]
    [DataRow("etl-parser/AMSITrace.etl")]
    [DataRow("etl-parser/lxcore_kernel.etl")]
    [DataRow("krabsetw/powershell.etl")]
    [DataRow("perfview/SelfDescribingSingleEvent.etl")]
    [DataRow("perfview/gcevents.etl.zip")]
    [DataRow("perfview/primitive-types.etl.zip")]
    public void Every_table_of_a_small_sample_builds_and_every_cell_projects(string sample)
    {
        var trace = HostedTrace.Open(SharedFolder.EtlSample(sample));

        Assert.AreEqual(1, trace["Trace Info"].RowCount);
        Assert.IsTrue(trace["Event Counts"].RowCount > 0);
        Assert.AreEqual(0, trace.Host.Entries("Error").Count(), string.Join("\n", trace.Host.Log));
    }

    private static long Count(RecordingTableBuilder counts, string provider, string @event)
    {
        long total = 0;
        for (int row = 0; row < counts.RowCount; row++)
            if ((string?)counts.Cell(row, "Provider") == provider && (string?)counts.Cell(row, "Event") == @event)
                total += (long)counts.Cell(row, "Count")!;
        return total;
    }
}
