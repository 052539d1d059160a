using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;

namespace HiddenCost.Dataset.Schema;

/// <summary>
/// Every table of a dataset, derived from the table model (<see cref="TableCatalog"/>) by <see cref="NameRule"/> and
/// <see cref="TypeRule"/>, plus the dataset's own <c>traces</c> and <c>notes</c> tables. The schema document and the
/// files are both made from this list, so they cannot disagree.
/// </summary>
public static class DatasetSchema
{
    public const string TraceId = "trace_id";
    public const string RunId = "run_id";

    /// <summary>The two columns every table starts with: which trace a row is from, and which run extracted it.</summary>
    public static IReadOnlyList<DatasetColumn> KeyColumns { get; } =
    [
        new(TraceId, DatasetType.Text, "SHA-256 of the trace file's content, 64 lower-case hex digits (a copied or renamed trace is the same trace); " +
            "for a file that could not be read, SHA-256 of \"unreadable:\" and its full path"),
        new(RunId, DatasetType.Text, "the extract run that wrote the row (`yyyyMMddTHHmmssfffZ-xxxxxxxx`, UTC start; later runs sort later)"),
    ];

    public static DatasetTable Traces { get; } = new("traces", "Traces",
        "One row per trace file an extract run met: where it was, what the trace header says, and how the analysis went.",
        [
            .. KeyColumns,
            new("path", DatasetType.Text, "the file's full path when extracted"),
            new("size_bytes", DatasetType.Int64, "the file's size", Unit: "bytes"),
            new("machine_name", DatasetType.Text, "the computer name the trace records; null when the trace records none (the header does not; " +
                "only a kernel SystemConfig rundown does, which HiddenCost does not decode yet)"),
            new("os_build", DatasetType.Int64, "Windows build number from the trace header; null when the trace could not be read"),
            new("processors", DatasetType.Int64, "processors from the trace header", Unit: "count"),
            new("start_utc", DatasetType.TimestampUtc, "when the recording started, from the trace header"),
            new("duration_ns", DatasetType.Int64, "first event to last event", Unit: "ns"),
            new("status", DatasetType.Text, "ok (analysed whole), damaged (read in part: see message), refused (not a trace HiddenCost can read: " +
                "see message), failed (the file could not be read, or the analysis failed: see message)"),
            new("message", DatasetType.Text, "the error (refused, failed) or warning (damaged); null when ok"),
            new("hiddencost_version", DatasetType.Text, "the HiddenCost version that extracted the trace"),
            new("extracted_at", DatasetType.TimestampUtc, "when the trace was analysed"),
        ]);

    public static DatasetTable Notes { get; } = new("notes", "Notes",
        "The notes the analyses put on their tables (what the trace lacks, what a figure leaves out), one row each.",
        [
            .. KeyColumns,
            new("table_name", DatasetType.Text, "the dataset table the note is about (its folder name)"),
            new("text", DatasetType.Text, "the note"),
        ]);

    /// <summary>The tables made from the table model, in catalogue order.</summary>
    public static IReadOnlyList<DatasetTable> Analysed { get; } = TableCatalog.All.Select(FromModel).ToArray();

    /// <summary>traces, notes, then the analysed tables.</summary>
    public static IReadOnlyList<DatasetTable> All { get; } = [Traces, Notes, .. Analysed];

    public static DatasetTable? Find(string name) => All.FirstOrDefault(t => t.Name == name);

    public static DatasetTable ForModel(Guid tableId) => Analysed.First(t => t.SourceId == tableId);

    private static DatasetTable FromModel(TableSpec spec) => new(
        NameRule.SnakeCase(spec.Name), spec.Name, spec.Description,
        [.. KeyColumns, .. spec.Columns.Select(FromModel)], spec.Id);

    private static DatasetColumn FromModel(ColumnSpec c) => new(
        NameRule.Column(c.Name, TypeRule.IsNanoseconds(c.Type)), TypeRule.For(c.Type), c.Description, c.Name, TypeRule.Unit(c));
}
