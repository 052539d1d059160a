using HiddenCost.Analysis.Model;

namespace HiddenCost.Wpa.Tests.Mapping;

/// <summary>Hand-made tables (synthetic, not from a trace) covering every column type, unit kind and role.</summary>
internal static class SampleTables
{
    public static readonly Guid TableId = Guid.Parse("5b0c2a8e-6d1f-4c57-9a38-0e7d4f1a9c01");

    public static readonly ColumnSpec Process = new(Guid.Parse("5b0c2a8e-6d1f-4c57-9a38-0e7d4f1a9c10"), "Process", ColumnType.Text, Role: ColumnRole.ProcessName, Description: "Image name");
    public static readonly ColumnSpec Pid = new(Guid.Parse("5b0c2a8e-6d1f-4c57-9a38-0e7d4f1a9c11"), "PID", ColumnType.Integer, Role: ColumnRole.ProcessId);
    public static readonly ColumnSpec Start = new(Guid.Parse("5b0c2a8e-6d1f-4c57-9a38-0e7d4f1a9c12"), "Start", ColumnType.Timestamp, ColumnUnit.Nanoseconds, ColumnRole.StartTime);
    public static readonly ColumnSpec End = new(Guid.Parse("5b0c2a8e-6d1f-4c57-9a38-0e7d4f1a9c13"), "End", ColumnType.Timestamp, ColumnUnit.Nanoseconds, ColumnRole.EndTime);
    public static readonly ColumnSpec Duration = new(Guid.Parse("5b0c2a8e-6d1f-4c57-9a38-0e7d4f1a9c14"), "Duration", ColumnType.Duration, ColumnUnit.Nanoseconds, ColumnRole.Duration);
    public static readonly ColumnSpec HookCpu = new(Guid.Parse("5b0c2a8e-6d1f-4c57-9a38-0e7d4f1a9c15"), "Hook CPU (ms)", ColumnType.Decimal, ColumnUnit.Milliseconds, ColumnRole.GraphValue);
    public static readonly ColumnSpec Calls = new(Guid.Parse("5b0c2a8e-6d1f-4c57-9a38-0e7d4f1a9c16"), "Calls", ColumnType.Integer, ColumnUnit.Count);
    public static readonly ColumnSpec Share = new(Guid.Parse("5b0c2a8e-6d1f-4c57-9a38-0e7d4f1a9c17"), "Share (%)", ColumnType.Decimal, ColumnUnit.Percent);
    public static readonly ColumnSpec Provider = new(Guid.Parse("5b0c2a8e-6d1f-4c57-9a38-0e7d4f1a9c18"), "Provider Id", ColumnType.Guid);
    public static readonly ColumnSpec Signed = new(Guid.Parse("5b0c2a8e-6d1f-4c57-9a38-0e7d4f1a9c19"), "Signed", ColumnType.Boolean);

    public static readonly Guid ProviderA = Guid.Parse("9e814aad-3204-11d2-9a82-006008a86939");

    public static TableSpec Spec(TableView? view = null) => new(
        TableId,
        "Hook Cost",
        "CPU spent inside syscall hooks, per process",
        "HiddenCost",
        [Process, Pid, Start, End, Duration, HookCpu, Calls, Share, Provider, Signed],
        view ?? new TableView(["Process"], "Hook CPU (ms)", ["Hook CPU (ms)", "Calls"]));

    /// <summary>Two rows; the second has an empty Process and an empty Calls cell.</summary>
    public static Table TwoRows()
    {
        var table = new Table(Spec());
        table.AddRow("svchost.exe", 1234L, 1_500L, 4_000L, 2_500L, 0.75, 12L, 40.0, ProviderA, true);
        table.AddRow(null, 88L, 9_000L, 9_250L, 250L, 1.25, null, 60.0, ProviderA, false);
        return table;
    }

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
