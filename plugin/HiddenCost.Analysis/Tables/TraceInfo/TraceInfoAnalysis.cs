using System.Globalization;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Etl;

namespace HiddenCost.Analysis.Tables.TraceInfo;

/// <summary>Trace Info: one row describing the trace as its header and the reader saw it.</summary>
public sealed class TraceInfoAnalysis : ITraceAnalysis
{
    /// <summary>
    /// How "Trace Start (UTC)" is written: ISO 8601, always in the invariant culture (WPA runs in the user's, whose
    /// calendar or time separator would otherwise give a Buddhist-era year or "09.30.00"; the plugin reads it back).
    /// </summary>
    public const string StartTimeFormat = "yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'";

    public static readonly TableSpec Spec = new TableSpecBuilder(TableIds.TraceInfo, "Trace Info",
            "The trace's header and health: OS, processors, clock, extent, buffers and lost events.", "HiddenCost/Trace")
        .Column("OS Version", ColumnType.Text, description: "major.minor.build from the trace header")
        .Column("OS Build", ColumnType.Integer)
        .Column("Processors", ColumnType.Integer, ColumnUnit.Count)
        .Column("Pointer Size", ColumnType.Integer, ColumnUnit.Bytes)
        .Column("Clock Type", ColumnType.Text)
        .Column("CPU Speed (MHz)", ColumnType.Integer, ColumnUnit.Megahertz)
        .Column("Trace Start (UTC)", ColumnType.Text, description: "ISO 8601")
        .Column("Start", ColumnType.Timestamp, ColumnUnit.Nanoseconds, ColumnRole.StartTime, "first event")
        .Column("End", ColumnType.Timestamp, ColumnUnit.Nanoseconds, ColumnRole.EndTime, "last event")
        .Column("Duration", ColumnType.Duration, ColumnUnit.Nanoseconds, ColumnRole.Duration)
        .Column("Events", ColumnType.Integer, ColumnUnit.Count)
        .Column("Buffers", ColumnType.Integer, ColumnUnit.Count)
        .Column("Compressed Buffers", ColumnType.Integer, ColumnUnit.Count)
        .Column("Events Lost", ColumnType.Integer, ColumnUnit.Count, description: "from the trace header")
        .Column("Buffers Lost", ColumnType.Integer, ColumnUnit.Count, description: "from the trace header")
        .Column("Buffers Flagged Events Lost", ColumnType.Integer, ColumnUnit.Count, description: "buffers ETW marked EVENTS_LOST")
        .Column("Reader Warnings", ColumnType.Integer, ColumnUnit.Count, description: "damage the reader stepped over")
        .Column("File Mode", ColumnType.Text, description: "LogFileMode, hex")
        .Column("Session Name", ColumnType.Text)
        .Column("File Size (bytes)", ColumnType.Integer, ColumnUnit.Bytes)
        .Build(new TableView(Array.Empty<string>()));

    public IReadOnlyList<TableSpec> Tables { get; } = new[] { Spec };

    public void OnEvent(in EtwEvent e) { }

    public IReadOnlyList<Table> Complete(AnalysisContext c)
    {
        var table = new Table(Spec);
        var h = c.Header;
        table.AddRow(
            h.OsVersion, (long)h.Build, (long)h.NumberOfProcessors, (long)h.PointerSize, h.ClockType.ToString(),
            (long)h.CpuSpeedMHz, StartTime(h),
            c.FirstEventNs, c.LastEventNs, c.LastEventNs - c.FirstEventNs, c.EventCount,
            c.Health.Buffers, c.Health.CompressedBuffers, (long)h.EventsLost, (long)h.BuffersLost,
            c.Health.BuffersWithEventsLost, c.Health.WarningCount, $"0x{h.LogFileMode:X8}", h.LoggerName, c.FileLength);
        if (h.EventsLost > 0 || h.BuffersLost > 0 || c.Health.BuffersWithEventsLost > 0)
            table.AddNote($"ETW lost data while recording: {h.EventsLost} events and {h.BuffersLost} buffers lost " +
                $"({c.Health.BuffersWithEventsLost} buffers flagged); figures from this trace are lower bounds. " +
                "Record with larger or more buffers (MultiProfile.wprp sets them) or in file mode.");
        foreach (var w in c.Health.Warnings) table.AddNote("reader: " + w);
        if (c.Health.WarningCount > c.Health.Warnings.Count)
            table.AddNote($"reader: {c.Health.WarningCount - c.Health.Warnings.Count} more warnings not shown");
        if (c.Health.TimeInversions > 0)
            table.AddNote($"{c.Health.TimeInversions} events are earlier than the event before them on the same processor (out of order in the file).");
        return new[] { table };
    }

    /// <summary>Blank when the header holds no start time (0, damaged: the reader warns), rather than 0001-01-01.</summary>
    private static string StartTime(Etl.Header.TraceHeader h) =>
        h.StartTimeUtc == DateTime.MinValue ? "" : h.StartTimeUtc.ToString(StartTimeFormat, CultureInfo.InvariantCulture);
}
