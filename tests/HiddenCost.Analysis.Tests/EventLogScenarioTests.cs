using HiddenCost.Analysis.Tables.EventLog;
using HiddenCost.Analysis.Tests.Support;
using HiddenCost.Analysis.Model;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// Event Log Render Cost end to end on synthetic event-log-render traces (written by the project's synthetic
/// writer with documented layouts), read by the reader, decoded and analysed in the one pass, against the
/// scenario's ground truth.
/// </summary>
[TestClass]
public sealed class EventLogScenarioTests
{
    private const string TableName = "Event Log Render Cost";
    private const double Tolerance = 0.01;

    private static (AnalysisResult Result, EventLogRenderTruth Truth) Run(EventLogRenderOptions options, TraceBuilderSettings settings)
    {
        var scenario = EventLogRender.Generate(options, settings);
        return (SyntheticTraces.Analyze(scenario.Trace, "eventlog"), scenario.Truth);
    }

    public static IEnumerable<object[]> Variants() =>
    [
        ["default, 64-bit, compressed", new EventLogRenderOptions(), new TraceBuilderSettings { Compress = true }],
        ["smaller, 32-bit, no waits", new EventLogRenderOptions { WmiRenders = 75, ViewerRenders = 31, RendersPerQuery = 10, RenderWaitEvery = 0 },
            new TraceBuilderSettings { PointerSize = 4 }],
    ];

    private static void Within(double expected, object? actual, string what)
    {
        Assert.IsNotNull(actual, what);
        double value = (double)actual;
        Assert.IsTrue(Math.Abs(value - expected) <= Tolerance * Math.Abs(expected), $"{what}: {value} is not within 1% of {expected}");
    }

    [TestMethod]
    [DynamicData(nameof(Variants))]
    public void Table_matches_the_scenario_ground_truth_within_one_percent(string variant, EventLogRenderOptions options, TraceBuilderSettings settings)
    {
        var (result, truth) = Run(options, settings);
        Assert.IsNull(result.Error, variant);
        var t = result.Table(EventLogTables.RenderCost);
        Assert.AreEqual(truth.Clients.Count, t.Rows.Count, $"{variant}: {string.Join(" | ", t.Notes.Texts())}");
        Assert.AreEqual(0, t.Notes.Texts().Count, $"{variant}: {string.Join(" | ", t.Notes.Texts())}");
        foreach (var c in truth.Clients)
        {
            int row = Enumerable.Range(0, t.RowCount).Single(r => (long?)t.Rows[r].Pid == c.Pid);
            string what = $"{variant}, {c.Process}";
            Assert.AreEqual(c.Process, t.Rows[row].Process, what);
            Assert.AreEqual(c.OnBehalfOf, t.Rows[row].OnBehalfOf, what);
            Assert.AreEqual((long?)c.OnBehalfOfPid, t.Rows[row].OnBehalfOfPid, what);
            Assert.AreEqual(c.Log, t.Rows[row].Log, what);
            Assert.AreEqual((long)c.Renders, t.Rows[row].Renders, what);
            Assert.AreEqual((long)c.Queries, t.Rows[row].Queries, what);
            Within(c.ServiceCpuMs, t.Rows[row].ServiceCpuMs, what + " Service CPU");
            Within(c.CpuPerMessageMs, t.Rows[row].CpuPerMessageMs, what + " CPU per Message");
            Assert.AreEqual((long)c.RegistryOps, t.Rows[row].RegistryOps, what);
            Assert.AreEqual(13.0, c.RegistryOpsPerMessage, what + ": the scenario's own figure");
            Within(c.RegistryOpsPerMessage, t.Rows[row].RegistryOpsPerMessage, what + " Registry Ops per Message");
            Within(c.EvtxReadBytes / (1024.0 * 1024.0), t.Rows[row].EvtxReadMb, what + " Evtx Read");
            Within(c.MessagesPerSecond, t.Rows[row].MessagesPerSecond, what + " Messages per Second");
            Assert.AreEqual(c.WmiQuery, t.Rows[row].WmiQuery, what);
            Assert.AreEqual(c.FirstNs, t.Rows[row].First, what);
            Assert.AreEqual(c.LastNs, t.Rows[row].Last, what);
        }
    }

    [TestMethod]
    public void Registry_work_of_another_svchost_and_other_wmi_clients_is_not_counted()
    {
        var (result, truth) = Run(new EventLogRenderOptions { WmiRenders = 60, ViewerRenders = 30 }, new TraceBuilderSettings());
        var t = result.Table(EventLogTables.RenderCost);
        Assert.IsTrue(truth.OtherServiceRegistryOps > 0, "the scenario has another svchost reading the registry");
        long counted = t.Rows.Sum(r => (long)r.RegistryOps!);
        Assert.AreEqual(truth.Clients.Sum(c => (long)c.RegistryOps), counted);
        var pids = t.Rows.SelectMany(r => new[] { (long?)r.Pid, (long?)r.OnBehalfOfPid }).ToArray();
        CollectionAssert.DoesNotContain(pids, (long?)truth.OtherServicePid);
        CollectionAssert.DoesNotContain(pids, (long?)truth.EventLogServicePid);
        CollectionAssert.DoesNotContain(pids, (long?)truth.NonEventLogWmiClientPid, "a WMI client that queried something else");
    }

    [TestMethod]
    public void Committed_synthetic_sample_shows_the_wmi_host_working_for_the_inventory_agent()
    {
        var path = Path.Combine(TestSupport.SharedFolder.RepositoryRoot, "samples", "event-log-render.etl");
        var t = TraceAnalyzer.Analyze(path).Table(EventLogTables.RenderCost);
        int row = Enumerable.Range(0, t.RowCount).Single(r => t.Rows[r].Process == "WmiPrvSE.exe");
        Assert.AreEqual("InventoryAgent.exe", t.Rows[row].OnBehalfOf);
        Assert.AreEqual("Application", t.Rows[row].Log);
        Assert.AreEqual(EventLogRender.WmiQueryText, t.Rows[row].WmiQuery);
        Assert.AreEqual(13.0, (double)t.Rows[row].RegistryOpsPerMessage!, 1e-9);
    }
}
