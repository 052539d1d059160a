using HiddenCost.Analysis.Model;

namespace HiddenCost.PackTool.WpaProfiles;

/// <summary>A column of one of our tables as a preset shows it.</summary>
public sealed record ShapeColumn(string Name, Aggregation Aggregation, string? TimeRole = null);

/// <summary>
/// The columns, pivots and graphed figure of one of our tables. For a table the plugin already has, the shape
/// comes from its <see cref="TableSpec"/>; for one not built yet, from the column list of its issue
/// (<see cref="PlannedTables"/>), so the preset starts working the day the table ships.
/// </summary>
public sealed record TableShape(string TableName, IReadOnlyList<ShapeColumn> Columns, IReadOnlyList<string> Pivots, string? GraphColumn, bool FromPlugin)
{
    public static TableShape FromSpec(TableSpec spec)
    {
        var columns = spec.Columns.Select(c => new ShapeColumn(c.Name, AggregationOf(c), c.Role switch
        {
            ColumnRole.StartTime => "StartTime",
            ColumnRole.EndTime => "EndTime",
            ColumnRole.Duration => "Duration",
            _ => null,
        })).ToArray();
        return new TableShape(spec.Name, columns, spec.DefaultView.PivotColumns, spec.DefaultView.GraphColumn, true);
    }

    private static Aggregation AggregationOf(ColumnSpec c) => c.Summary switch
    {
        ColumnSummary.Sum => Aggregation.Sum,
        ColumnSummary.Min => Aggregation.Min,
        ColumnSummary.Max => Aggregation.Max,
        _ => Aggregation.None,
    };
}

/// <summary>
/// Column lists of the problem tables exactly as their issues name them (issues 8–11), with the pivots and
/// graphed figure each issue asks for. Used until the plugin's table catalogue has the table.
/// </summary>
public static class PlannedTables
{
    private static ShapeColumn Text(string n) => new(n, Aggregation.None);
    private static ShapeColumn Sum(string n) => new(n, Aggregation.Sum);
    private static ShapeColumn Max(string n) => new(n, Aggregation.Max);
    private static ShapeColumn First(string n) => new(n, Aggregation.Min, "StartTime");
    private static ShapeColumn Last(string n) => new(n, Aggregation.Max, "EndTime");

    public static IReadOnlyList<TableShape> All { get; } =
    [
        new("Syscall Hook Overhead",
            [Text("Culprit Module"), Text("Vendor"), Text("Product"), Text("Category"), Text("Process"), Text("PID"), Text("Syscall"),
             Sum("Syscalls"), Max("Syscalls per Second"), Sum("Total Syscall Time (ms)"), Max("Mean Syscall Time (µs)"),
             Sum("Samples in Syscalls"), Sum("Hook CPU (ms)"), Max("Hook Overhead per Syscall (µs)"), Max("Inflation (×)"),
             First("First"), Last("Last")],
            ["Culprit Module", "Process", "Syscall"], "Hook CPU (ms)", false),
        new("Profiling Gaps",
            [First("Start"), Last("End"), Sum("Duration (ms)"), Sum("Events During Gap"), Text("Likely Cause")],
            ["Likely Cause"], "Duration (ms)", false),
        new("Spin-Wait Cost per Lock",
            [Text("Process"), Text("PID"), Text("Lock ID"), Text("Object"), Text("Call Site"), Sum("Contentions"), Sum("Threads"),
             Sum("Wait (ms)"), Sum("Wasted Spin CPU (ms)"), Sum("Successful Spin CPU (ms)"), Sum("Spin CPU (ms)"),
             Max("Spin Share (%)"), Max("Longest Spin (ms)"), First("First"), Last("Last")],
            ["Process", "Lock ID", "Call Site"], "Spin CPU (ms)", false),
        new("Spin-Wait by Process",
            [Text("Process"), Text("PID"), Sum("Threads"), Sum("Lock Spin CPU (ms)"), Sum("Yields"), Max("Yields per Second"),
             Sum("Delay Switches"), Sum("OpenMP Runtime CPU (ms)"), Text("Hint")],
            ["Process"], "Lock Spin CPU (ms)", false),
        new("Directory Notify Buffers",
            [Text("Process"), Text("PID"), Text("Directory"), Max("Buffer (bytes)"), Sum("Arms"), Sum("Completions"), Sum("Overflows"),
             Sum("Bytes Returned"), Max("Mean Bytes per Completion"), Max("Utilisation (%)"), Sum("Bytes Zeroed"),
             Text("Victim Processes"), Max("Recommended Buffer (bytes)"), First("First Arm"), Last("Last Completion")],
            ["Process", "Directory"], "Completions", false),
        new("Directory Notify Victims",
            [Text("Process"), Text("PID"), Text("Directory"), Sum("File Operations"), Sum("Creates"), Sum("Deletes"), Sum("Renames"),
             Sum("Demand-Zero Faults"), Text("Watchers"), Sum("Notify CPU (ms)")],
            ["Directory", "Process"], "File Operations", false),
        new("Event Log Render Cost",
            [Text("Process"), Text("PID"), Text("On Behalf Of"), Text("On Behalf Of PID"), Text("Log"), Sum("Renders"), Sum("Queries"),
             Sum("Service CPU (ms)"), Max("CPU per Message (ms)"), Sum("Registry Ops"), Max("Registry Ops per Message"),
             Sum("Evtx Read (MB)"), Max("Messages per Second"), Text("WMI Query"), First("First"), Last("Last")],
            ["Log", "Process"], "Service CPU (ms)", false),
    ];

    public static TableShape? Find(string tableName) => All.FirstOrDefault(t => t.TableName == tableName);
}
