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

    public static readonly TableSpec Spec = new TableSpecBuilder(TableIds.Findings, Name,
            "One row per problem found by the four problem tables: its severity, culprit, victims, CPU cost, the figures that " +
            "prove it, and the fix. A problem the trace lacks the events for is listed as not checked, so no row means checked and clean.",
            "HiddenCost")
        .Column("Problem", ColumnType.Text, description: "Syscall hook, Spin-wait, Notify buffer or Event-log render")
        .Column("Severity", ColumnType.Text, description: "high, medium or low by the thresholds (Tables/Findings/README.md), or not checked")
        .Column("Culprit", ColumnType.Text, description: "who causes the cost: the driver; the lock's call site with its Lock ID; the watcher and its directory; the reading client and its log")
        .Column("Victims", ColumnType.Text, description: "who pays for it")
        .Column("Cost (ms)", ColumnType.Decimal, ColumnUnit.Milliseconds, ColumnRole.GraphValue,
            "CPU the problem costs; for notify buffers an estimate from the bytes zeroed (Evidence says so)")
        .Column("Share of CPU (%)", ColumnType.Decimal, ColumnUnit.Percent, description:
            "Cost ÷ the trace's sampled non-idle CPU from Start to End; empty without CPU samples")
        .Column("Evidence", ColumnType.Text, description: "the figures that prove it, with units; for not checked, the events the trace lacks")
        .Column("Recommendation", ColumnType.Text, description: "the fix, naming the culprit and its figures")
        .Column("See Table", ColumnType.Text, description: "the table with the detail")
        .Column("Start", ColumnType.Timestamp, ColumnUnit.Nanoseconds, ColumnRole.StartTime, "when the problem was first seen")
        .Column("End", ColumnType.Timestamp, ColumnUnit.Nanoseconds, ColumnRole.EndTime, "when it was last seen")
        .Build(new TableView(new[] { "Problem", "Severity" }, "Cost (ms)", new[] { "Cost (ms)" }));

    /// <param name="timeline">The trace's sampled CPU, for the share column; null leaves it empty.</param>
    public static Table Build(IEnumerable<Finding> rows, CpuTimeline? timeline)
    {
        var table = new Table(Spec);
        foreach (var f in rows)
            table.AddRow(
                f.Problem,
                SeverityNames.Name(f.Severity),
                f.Culprit,
                f.Victims,
                f.CostMs,
                timeline?.SharePercent(f.CostMs, f.StartNs, f.EndNs),
                f.Evidence,
                f.Recommendation,
                f.SeeTable,
                f.StartNs,
                f.EndNs);
        return table;
    }

    public static IReadOnlyList<FindingRow> Read(Table table)
    {
        if (table.Spec.Id != Spec.Id) throw new ArgumentException($"'{table.Spec.Name}' is not the Findings table", nameof(table));
        return table.Rows.Select(r => new FindingRow(
            (string?)r[0] ?? "", (string?)r[1] ?? "", (string?)r[2] ?? "", (string?)r[3] ?? "", (double?)r[4], (double?)r[5],
            (string?)r[6] ?? "", (string?)r[7] ?? "", (string?)r[8] ?? "", (long?)r[9], (long?)r[10])).ToArray();
    }
}
