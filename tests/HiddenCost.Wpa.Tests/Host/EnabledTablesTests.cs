using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables;
using HiddenCost.TestSupport;
using HiddenCost.Wpa.Mapping;
using Microsoft.Performance.SDK.Processing;

namespace HiddenCost.Wpa.Tests.Host;

/// <summary>
/// The processor analyses for the tables WPA enabled before processing (it cannot enable others after), and for the
/// timeline, which Trace Info gives: no more.
/// </summary>
[TestClass]
public sealed class EnabledTablesTests
{
    [TestMethod]
    public void Processor_asks_for_the_enabled_tables_and_trace_info_only()
    {
        IEnumerable<Guid>? asked = null;
        var host = new TestHost();
        var processor = new HiddenCostDataProcessor(["/traces/a.etl"], TableCatalog.All, (path, tables, _, _) =>
        {
            asked = tables!.ToArray();
            return new AnalysisResult(path, [], null);
        }, ProcessorOptions.Default, host, host);
        var counts = TableCatalog.All.Single(t => t.Id == TableIds.EventCounts);
        processor.EnableTable(TableDescriptors.For(counts));

        processor.ProcessAsync(new Progress<int>(), CancellationToken.None).GetAwaiter().GetResult();

        CollectionAssert.AreEquivalent(new[] { TableIds.EventCounts, TableIds.TraceInfo }, asked!.ToArray());
    }

    [TestMethod]
    public void One_enabled_table_has_the_cells_and_timeline_of_all_enabled()
    {
        var path = SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip");
        var all = HostedTrace.Open(path);
        var one = HostedTrace.Open(path, ["Event Counts"]);

        Assert.AreEqual(1, one.Tables.Count);
        var (expected, actual) = (all["Event Counts"], one["Event Counts"]);
        Assert.AreEqual(expected.RowCount, actual.RowCount);
        Assert.AreEqual(expected.DefaultConfiguration!.Description, actual.DefaultConfiguration!.Description, "notes");
        foreach (var column in expected.Columns.Select(c => c.Configuration.Metadata.Name))
            for (int row = 0; row < expected.RowCount; row++)
                Assert.AreEqual(expected.Cell(row, column), actual.Cell(row, column), $"{column}, row {row}");
        Assert.AreEqual(all.Timeline.FirstEventTimestampNanoseconds, one.Timeline.FirstEventTimestampNanoseconds);
        Assert.AreEqual(all.Timeline.EndTimestampNanoseconds, one.Timeline.EndTimestampNanoseconds);
        Assert.AreEqual(all.Timeline.FirstEventWallClockUtc, one.Timeline.FirstEventWallClockUtc);
    }
}
