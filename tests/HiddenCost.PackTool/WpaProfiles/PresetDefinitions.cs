using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;

namespace HiddenCost.PackTool.WpaProfiles;

/// <summary>
/// The .wpaProfile files of the pack: an overview and one per problem, each putting our tables beside the WPA
/// tables that confirm them. Our tables' GUIDs come from hiddencost-tables.txt, WPA's from wpa-builtin-tables.txt;
/// our column GUIDs are the plugin's stable column ids (table GUID + column name).
/// </summary>
public static class PresetDefinitions
{
    /// <summary>The stack tags every profile references, relative to the wpaProfiles folder.</summary>
    public const string StackTagsReference = @"..\stacktags\HiddenCost.stacktags";

    public static IReadOnlyList<PresetFile> Build(TableList ours, TableList wpa)
    {
        PresetGraph Ours(string name, string color) => OurGraph(ours.Require(name), color);
        var sampled = BuiltInPresets.CpuSampledByStackTag(wpa.Require("CPU Usage (Sampled)").Id);
        var precise = BuiltInPresets.CpuPreciseByWaitReason(wpa.Require("CPU Usage (Precise)").Id);
        var fileIo = BuiltInPresets.FileIoByProcess(wpa.Require("File I/O").Id);
        // The SysCall and EventLog profiles record no CSwitch stacks, and EventLog no file stacks (wprp/MultiProfile.wprp):
        // their presets do not group by stacks those traces cannot have.
        var preciseNoStacks = BuiltInPresets.CpuPreciseByWaitReason(wpa.Require("CPU Usage (Precise)").Id, stacks: false);
        var fileIoNoStacks = BuiltInPresets.FileIoByProcess(wpa.Require("File I/O").Id, stacks: false);
        var registry = BuiltInPresets.RegistryByProcess(wpa.Require("Registry").Id);

        return
        [
            new("HiddenCost.wpaProfile", "Overview: the findings, the four HiddenCost problem tables, the trace's own description and symbols, CPU by function, and CPU by HiddenCost stack tag.",
            [
                new("HiddenCost: Findings", [Ours("Findings", "#FFD00000")]),
                new("HiddenCost: Problems",
                [
                    Ours("Syscall Hook Overhead", "#FFC00000"), Ours("Spin-Wait Cost per Lock", "#FFE07000"),
                    Ours("Directory Notify Buffers", "#FF0070C0"), Ours("Event Log Render Cost", "#FF7030A0"),
                ]),
                new("HiddenCost: Trace", [Ours("Trace Info", "#FF404040"), Ours("Trace Readiness", "#FF505050"), Ours("Event Counts", "#FF606060"), Ours("Symbols", "#FF707070")]),
                new("HiddenCost: CPU by Function", [Ours("CPU by Function", "#FF00A050")]),
                new("CPU by Stack Tag", [sampled, precise]),
            ]),
            new("SysCall.wpaProfile", "Syscall Hook Overhead: culprit driver, victims and cost, with sampled CPU by stack tag and context switches. (WPA's Syscalls table is not included: its GUID is not public; see wpa-builtin-tables.txt.)",
                [new("HiddenCost: Syscall Hook Overhead", [Ours("Syscall Hook Overhead", "#FFC00000"), Ours("Profiling Gaps", "#FF808080"), sampled, preciseNoStacks])]),
            new("SpinWait.wpaProfile", "Spin-Wait Cost per Lock and by Process, with sampled CPU by stack tag and context switches by wait reason.",
                [new("HiddenCost: Spin-Wait", [Ours("Spin-Wait Cost per Lock", "#FFE07000"), Ours("Spin-Wait by Process", "#FFFFB000"), sampled, precise])]),
            new("DirNotify.wpaProfile", "Directory Notify Buffers and Victims, with File I/O and sampled CPU by stack tag.",
                [new("HiddenCost: Directory Notify", [Ours("Directory Notify Buffers", "#FF0070C0"), Ours("Directory Notify Victims", "#FF00B0F0"), fileIo, sampled])]),
            new("EventLog.wpaProfile", "Event Log Render Cost, with context switches, Registry and File I/O.",
                [new("HiddenCost: Event Log Render Cost", [Ours("Event Log Render Cost", "#FF7030A0"), preciseNoStacks, registry, fileIoNoStacks])]),
        ];
    }

    /// <summary>The shape of one of our tables: the plugin's spec when the table exists there, else the issue's plan.</summary>
    public static TableShape ShapeOf(string tableName) =>
        TableCatalog.Find(tableName) is { } spec && spec.Name == tableName ? TableShape.FromSpec(spec)
        : PlannedTables.Find(tableName) ?? throw new InvalidOperationException(
            $"table '{tableName}' is neither in the plugin's table catalog nor in PlannedTables: no columns to show");

    private static PresetGraph OurGraph(TableEntry table, string color)
    {
        var shape = ShapeOf(table.Name);
        var byName = shape.Columns.ToDictionary(c => c.Name);
        var ordered = shape.Pivots.Select(p => byName[p])
            .Concat(shape.Columns.Where(c => !shape.Pivots.Contains(c.Name) && c.Name != shape.GraphColumn))
            .Concat(shape.GraphColumn is { } g && !shape.Pivots.Contains(g) ? [byName[g]] : [])
            .ToArray();
        var columns = ordered.Select(c => new PresetColumn(StableIds.Column(table.Id, c.Name), c.Name, c.Aggregation,
            Width: c.Aggregation == Aggregation.None ? 140 : 110, SortDescending: c.Name == shape.GraphColumn)).ToArray();
        var metadata = ordered.Where(c => c.TimeRole is not null)
            .Select(c => new PresetMetadata(StableIds.Column(table.Id, c.Name), c.Name, c.TimeRole!)).ToArray();
        // A graph needs a figure and a time axis to plot it along: a table without either (Trace Readiness, Event
        // Counts, Trace Info, the by-process and victims tables) opens as its table alone, not under an empty graph.
        bool graphed = shape.GraphColumn is not null && metadata.Any(m => m.Role == "StartTime");
        return new PresetGraph(table.Name, table.Id, "HiddenCost: " + table.Name, columns, shape.Pivots.Count, metadata, color, Graphed: graphed);
    }
}
