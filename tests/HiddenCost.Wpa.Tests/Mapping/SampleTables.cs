using HiddenCost.Analysis.Model;

namespace HiddenCost.Wpa.Tests.Mapping;

/// <summary>Hand-made tables (synthetic, not from a trace) covering every column type, unit kind and role.</summary>
internal static class SampleTables
{
    public static readonly Guid TableId = Guid.Parse("5b0c2a8e-6d1f-4c57-9a38-0e7d4f1a9c01");

    /// <summary>One row of the hand-made table; every column type, nullable where a test leaves a cell empty.</summary>
    public sealed record HookCostRow
    {
        public required string? Process { get; init; }
        public required long Pid { get; init; }
        public required long Start { get; init; }
        public required long? End { get; init; }
        public required long Duration { get; init; }
        public required double HookCpuMs { get; init; }
        public required long? Calls { get; init; }
        public required double SharePercent { get; init; }
        public required Guid Provider { get; init; }
        public required bool Signed { get; init; }
    }

    public static TableDefinition<HookCostRow> Definition(TableView? view = null) =>
        new TableDefinitionBuilder<HookCostRow>(TableId, "Hook Cost", "CPU spent inside syscall hooks, per process", "HiddenCost")
            .Column("Process", ColumnType.Text, r => r.Process, role: ColumnRole.ProcessName, description: "Image name")
            .Column("PID", ColumnType.Integer, r => r.Pid, role: ColumnRole.ProcessId)
            .Column("Start", ColumnType.Timestamp, r => r.Start, ColumnUnit.Nanoseconds, ColumnRole.StartTime)
            .Column("End", ColumnType.Timestamp, r => r.End, ColumnUnit.Nanoseconds, ColumnRole.EndTime)
            .Column("Duration", ColumnType.Duration, r => r.Duration, ColumnUnit.Nanoseconds, ColumnRole.Duration)
            .Column("Hook CPU (ms)", ColumnType.Decimal, r => r.HookCpuMs, ColumnUnit.Milliseconds, ColumnRole.GraphValue)
            .Column("Calls", ColumnType.Integer, r => r.Calls, ColumnUnit.Count)
            .Column("Share (%)", ColumnType.Decimal, r => r.SharePercent, ColumnUnit.Percent)
            .Column("Provider Id", ColumnType.Guid, r => r.Provider)
            .Column("Signed", ColumnType.Boolean, r => r.Signed)
            .Build(view ?? new TableView(["Process"], "Hook CPU (ms)", ["Hook CPU (ms)", "Calls"]));

    private static readonly IReadOnlyList<ColumnSpec> Columns = Definition().Spec.Columns;
    public static readonly ColumnSpec Process = Columns[0];
    public static readonly ColumnSpec Pid = Columns[1];
    public static readonly ColumnSpec Start = Columns[2];
    public static readonly ColumnSpec End = Columns[3];
    public static readonly ColumnSpec Duration = Columns[4];
    public static readonly ColumnSpec HookCpu = Columns[5];
    public static readonly ColumnSpec Calls = Columns[6];
    public static readonly ColumnSpec Share = Columns[7];
    public static readonly ColumnSpec Provider = Columns[8];
    public static readonly ColumnSpec Signed = Columns[9];

    public static readonly Guid ProviderA = Guid.Parse("9e814aad-3204-11d2-9a82-006008a86939");

    public static TableSpec Spec(TableView? view = null) => new(
        TableId,
        "Hook Cost",
        "CPU spent inside syscall hooks, per process",
        "HiddenCost",
        Columns,
        view ?? new TableView(["Process"], "Hook CPU (ms)", ["Hook CPU (ms)", "Calls"]));

    /// <summary>Two rows; the second has an empty Process and an empty Calls cell.</summary>
    public static Table TwoRows() => Definition().Table(
    [
        Row("svchost.exe", 1234, 1_500, 4_000, 2_500, 0.75, 12, 40.0, signed: true),
        Row(null, 88, 9_000, 9_250, 250, 1.25, null, 60.0, signed: false),
    ]);

    public static HookCostRow Row(string? process, long pid, long start, long? end, long duration, double hookCpuMs, long? calls, double share, bool signed) => new()
    {
        Process = process,
        Pid = pid,
        Start = start,
        End = end,
        Duration = duration,
        HookCpuMs = hookCpuMs,
        Calls = calls,
        SharePercent = share,
        Provider = ProviderA,
        Signed = signed,
    };

    /// <summary>A table with no time column and no figure to graph, like Trace Info.</summary>
    public static TableSpec InfoSpec() => new(
        Guid.Parse("5b0c2a8e-6d1f-4c57-9a38-0e7d4f1a9c02"),
        "Facts",
        "",
        "",
        [new ColumnSpec(Guid.Parse("5b0c2a8e-6d1f-4c57-9a38-0e7d4f1a9c20"), "Name", ColumnType.Text),
         new ColumnSpec(Guid.Parse("5b0c2a8e-6d1f-4c57-9a38-0e7d4f1a9c21"), "Value", ColumnType.Text)],
        new TableView([]));
}
