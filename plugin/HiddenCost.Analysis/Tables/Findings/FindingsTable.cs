using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tables.Findings;

/// <summary>A Findings row as hosts and the CLI read it back (sentences, --fail-on).</summary>
public sealed record FindingRow(
    string Problem, string Severity, string Culprit, string Victims, double? CostMs, double? SharePercent, string Evidence,
    string Recommendation, string SeeTable, long? StartNs, long? EndNs);

/// <summary>
/// The Findings table: its spec (GUID and column names are a public contract, from issue 35), and the one place its rows
/// are written and read.
/// </summary>
public static class FindingsTable
{
    public const string Name = "Findings";

    public static readonly TableDefinition<FindingRow> Definition = new TableDefinitionBuilder<FindingRow>(TableIds.Findings, Name,
            "One row per problem found by the four problem tables: its severity, culprit, victims, CPU cost, the figures that " +
            "prove it, and the fix. A problem the trace lacks the events for is listed as not checked, so no row means checked and clean.",
            "HiddenCost")
        .Column("Problem", ColumnType.Text, r => r.Problem, description: "Syscall hook, Spin-wait, Notify buffer or Event-log render")
        .Column("Severity", ColumnType.Text, r => r.Severity, description: "high, medium or low by the thresholds (Tables/Findings/README.md), or not checked")
        .Column("Culprit", ColumnType.Text, r => r.Culprit, description: "who causes the cost: the driver; the lock's call site with its Lock ID; the watcher and its directory; the reading client and its log")
        .Column("Victims", ColumnType.Text, r => r.Victims, description: "who pays for it")
        .Column("Cost (ms)", ColumnType.Decimal, r => r.CostMs, ColumnUnit.Milliseconds, ColumnRole.GraphValue,
            "CPU the problem costs; for notify buffers an estimate from the bytes zeroed (Evidence says so)")
        .Column("Share of CPU (%)", ColumnType.Decimal, r => r.SharePercent, ColumnUnit.Percent, description:
            "Cost ÷ the trace's sampled non-idle CPU from Start to End; empty without CPU samples")
        .Column("Evidence", ColumnType.Text, r => r.Evidence, description: "the figures that prove it, with units; for not checked, the events the trace lacks")
        .Column("Recommendation", ColumnType.Text, r => r.Recommendation, description: "the fix, naming the culprit and its figures")
        .Column("See Table", ColumnType.Text, r => r.SeeTable, description: "the table with the detail")
        .Column("Start", ColumnType.Timestamp, r => r.StartNs, ColumnUnit.Nanoseconds, ColumnRole.StartTime, "when the problem was first seen")
        .Column("End", ColumnType.Timestamp, r => r.EndNs, ColumnUnit.Nanoseconds, ColumnRole.EndTime, "when it was last seen")
        .Build(new TableView(new[] { "Problem", "Severity" }, "Cost (ms)", new[] { "Cost (ms)" }));

    public static TableSpec Spec => Definition.Spec;

    /// <param name="timeline">The trace's sampled CPU, for the share column; null leaves it empty.</param>
    public static Table<FindingRow> Build(IEnumerable<Finding> rows, CpuTimeline? timeline) =>
        Definition.Table(rows.Select(f => new FindingRow(
            f.Problem, SeverityNames.Name(f.Severity), f.Culprit, f.Victims, f.CostMs,
            timeline?.SharePercent(f.CostMs, f.StartNs, f.EndNs), f.Evidence, f.Recommendation, f.SeeTable, f.StartNs, f.EndNs)));

    public static IReadOnlyList<FindingRow> Read(Table table) =>
        table as Table<FindingRow> is { } findings ? findings.Rows
            : table.Spec.Id == Spec.Id && table.RowCount == 0 ? []
            : throw new ArgumentException($"'{table.Spec.Name}' is not the Findings table", nameof(table));
}
