using System.Globalization;
using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Analysis.Tables;
using HiddenCost.Etl;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// Asking for some tables runs only the analyses that make them, over a session that builds only what those read
/// (<see cref="AnalysisPlan"/>), and gives each table exactly the rows and notes a run of every analysis gives it.
/// </summary>
[TestClass]
public sealed class TableSelectionTests
{
    private static readonly string[] SharedSamples =
    {
        "perfview/net.4.5.2.x64.etl.zip", "perfview/gcrundownevents.etl.zip", "etl-parser/ShutdownPerfDiagLogger.etl",
        "etwanalyzer/TraceLoggingTester.etl.zip", "krabsetw/powershell.etl",
    };

    // Synthetic traces (the repository's samples, written by tests/HiddenCost.Synthetic): one per problem table.
    private static readonly string[] SyntheticSamples =
    {
        "hiddencost-sample.etl", "spin-contention.etl", "syscall-hook-storm.etl", "notify-buffer-storm.etl", "event-log-render.etl",
    };

    [TestMethod]
    public void Each_table_alone_has_the_rows_and_notes_of_a_run_of_every_analysis_on_the_shared_samples()
    {
        foreach (var sample in SharedSamples) AssertEachTableAloneAsInAll(SharedFolder.EtlSample(sample));
    }

    [TestMethod]
    public void Each_table_alone_has_the_rows_and_notes_of_a_run_of_every_analysis_on_the_synthetic_samples()
    {
        foreach (var sample in SyntheticSamples) AssertEachTableAloneAsInAll(Path.Combine(SharedFolder.RepositoryRoot, "samples", sample));
    }

    /// <summary>
    /// Two lanes (the analyses that resolve frames apart from the others, each over its own session, on threads of
    /// their own for traces of 4 MiB or more) give every table the rows and notes of one pass on one thread.
    /// </summary>
    [TestMethod]
    public void Analyses_in_two_lanes_give_every_table_as_one_lane_does()
    {
        var twoLanes = AnalysisPlan.For(TableCatalog.Analyses, null).WithMaxLanes(2);
        Assert.AreEqual(2, twoLanes.Lanes.Count);
        CollectionAssert.AreEquivalent(new[] { "Spin-Wait Cost per Lock", "Directory Notify Buffers", "Syscall Hook Overhead", "CPU by Function", "Symbols" },
            twoLanes.Lanes[1].Select(e => e.Tables[0].Name).ToArray(), "the lane that resolves frames");
        Assert.AreEqual(1, AnalysisPlan.For(TableCatalog.Analyses, null).WithMaxLanes(1).Lanes.Count);
        Assert.AreEqual(1, AnalysisPlan.For(TableCatalog.Analyses, [TableIds.EventCounts]).WithMaxLanes(2).Lanes.Count, "one kind of analysis: one lane");
        var paths = SharedSamples.Select(SharedFolder.EtlSample).Concat(SyntheticSamples.Select(s => Path.Combine(SharedFolder.RepositoryRoot, "samples", s)));
        foreach (var path in paths)
        {
            var one = TraceAnalyzer.Analyze(path, AnalysisPlan.For(TableCatalog.Analyses, null).WithMaxLanes(1));
            var two = TraceAnalyzer.Analyze(path, twoLanes);
            Assert.AreEqual(one.Warning, two.Warning);
            Assert.AreEqual(one.Tables.Count, two.Tables.Count);
            for (int t = 0; t < one.Tables.Count; t++) AssertSame(one.Tables[t], two.Tables[t], $"{Path.GetFileName(path)}, {one.Tables[t].Spec.Name} in two lanes");
        }
    }

    [TestMethod]
    public void A_table_alone_plans_only_its_analysis_and_what_that_reads_of_the_session()
    {
        var info = AnalysisPlan.For(TableCatalog.Analyses, [TableIds.TraceInfo]);
        Assert.AreEqual(1, info.Entries.Count);
        Assert.AreEqual(SessionNeeds.None, info.Needs, "Trace Info reads nothing of the session: no state, no stacks");
        var counts = AnalysisPlan.For(TableCatalog.Analyses, [TableIds.EventCounts]);
        Assert.AreEqual(1, counts.Entries.Count);
        Assert.AreEqual(SessionNeeds.StackedEvents, counts.Needs);
        var both = AnalysisPlan.For(TableCatalog.Analyses, [TableIds.EventCounts, TableIds.TraceInfo]);
        CollectionAssert.AreEqual(new[] { "Trace Info", "Event Counts" }, both.Tables.Select(t => t.Name).ToArray(), "catalog order");
        Assert.AreEqual(SessionNeeds.All, AnalysisPlan.For(TableCatalog.Analyses, null).Needs);
        var findings = AnalysisPlan.For(TableCatalog.Analyses, [TableIds.Findings]);
        CollectionAssert.AreEqual(new[] { "Findings" }, findings.Tables.Select(t => t.Name).ToArray(), "only Findings given back");
        CollectionAssert.AreEquivalent(
            new[] { "Findings", "Trace Readiness", "Spin-Wait Cost per Lock", "Directory Notify Buffers", "Syscall Hook Overhead", "Event Log Render Cost" },
            findings.Entries.Select(e => e.Tables[0].Name).ToArray(), "the analyses whose tables Findings reads run too");
    }

    [TestMethod]
    public void Analyses_not_planned_see_no_event_and_make_no_table()
    {
        var asked = new Probe("Asked");
        var other = new Probe("Other");
        var catalog = new[] { new AnalysisEntry(SessionNeeds.None, _ => asked), new AnalysisEntry(SessionNeeds.Stacks, _ => other) };
        var path = Path.Combine(SharedFolder.RepositoryRoot, "samples", "hiddencost-sample.etl");

        var result = TraceAnalyzer.Analyze(path, AnalysisPlan.For(catalog, [asked.Spec.Id]));

        Assert.IsNull(result.Error);
        Assert.AreEqual("Asked", result.Tables.Single().Spec.Name);
        Assert.IsTrue(asked.Events > 0, "the planned analysis saw the trace");
        Assert.AreEqual(0, other.Events, "the other analysis saw no event");
        Assert.AreEqual(0, other.Completions, "nor built its table");
    }

    [TestMethod]
    public void A_session_that_does_not_build_a_part_refuses_to_give_it()
    {
        var session = new TraceSession(SessionNeeds.Processes);
        Assert.Throws<InvalidOperationException>(() => session.Stacks);
        Assert.Throws<InvalidOperationException>(() => session.StackedEvents);
        Assert.AreEqual(Etl.State.StateParts.Processes, session.State.Parts);
        Assert.Throws<InvalidOperationException>(() => new TraceSession(SessionNeeds.Stacks).ProcessOfThread(1, 0));
    }

    [TestMethod]
    public void A_trace_that_cannot_be_read_gives_back_the_tables_asked_for_each_with_the_error()
    {
        var result = TraceAnalyzer.Analyze("/nonexistent/trace.etl", [TableIds.EventCounts]);
        Assert.IsNotNull(result.Error);
        Assert.AreEqual("Event Counts", result.Tables.Single().Spec.Name);
        Assert.AreEqual(result.Error, result.Tables.Single().Notes.Single().Text);
    }

    /// <summary>
    /// The reference: every analysis over a session that builds every part, whatever the analyses declare, so a part
    /// an analysis reads but does not declare shows as a difference.
    /// </summary>
    private static readonly AnalysisPlan EverythingBuilt =
        AnalysisPlan.Everything(TableCatalog.Analyses.Select(a => new AnalysisEntry(SessionNeeds.All, a.Create)).ToArray());

    private static void AssertEachTableAloneAsInAll(string path)
    {
        var all = TraceAnalyzer.Analyze(path, EverythingBuilt);
        Assert.IsNull(all.Error, all.Error);
        Assert.AreEqual(TableCatalog.All.Count, all.Tables.Count);
        foreach (var spec in TableCatalog.All)
        {
            var alone = TraceAnalyzer.Analyze(path, [spec.Id]);
            Assert.AreEqual(spec.Name, alone.Tables.Single().Spec.Name);
            Assert.AreEqual(all.Warning, alone.Warning, $"{path}: the warning with {spec.Name} alone");
            // Symbols reports which PDBs the tables of the run needed: alone, none did (its own test pins that).
            if (spec.Id == TableIds.Symbols) continue;
            AssertSame(all[spec.Name], alone.Tables.Single(), $"{Path.GetFileName(path)}, {spec.Name} alone");
        }
    }

    private static void AssertSame(Table expected, Table actual, string what)
    {
        CollectionAssert.AreEqual(expected.Notes.ToArray(), actual.Notes.ToArray(), $"{what}: notes");
        Assert.AreEqual(expected.RowCount, actual.RowCount, $"{what}: rows");
        for (int r = 0; r < expected.RowCount; r++)
            for (int c = 0; c < expected.Columns.Count; c++)
                Assert.AreEqual(Text(expected.Value(r, c)), Text(actual.Value(r, c)), $"{what}: row {r}, {expected.Spec.Columns[c].Name}");
    }

    private static string Text(object? cell) => cell switch
    {
        null => "(null)",
        IFormattable f => $"{f.GetType().Name}:{f.ToString(null, CultureInfo.InvariantCulture)}",
        _ => $"{cell.GetType().Name}:{cell}",
    };

    /// <summary>An analysis that counts what it is shown, making one table of its own.</summary>
    private sealed class Probe(string name) : ITraceAnalysis
    {
        private readonly TableDefinition<long> _definition = new TableDefinitionBuilder<long>(Guid.NewGuid(), name, "a probe")
            .Column("Events", ColumnType.Integer, events => (long?)events).Build(new TableView([]));
        public TableSpec Spec => _definition.Spec;
        public long Events { get; private set; }
        public int Completions { get; private set; }
        public IReadOnlyList<TableSpec> Tables => [Spec];
        public void OnEvent(in EtwEvent e) => Events++;

        public IReadOnlyList<Table> Complete(AnalysisContext context)
        {
            Completions++;
            return [_definition.Table([Events])];
        }
    }
}
