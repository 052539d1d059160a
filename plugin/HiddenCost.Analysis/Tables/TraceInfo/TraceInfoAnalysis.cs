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

    public static readonly TableDefinition<TraceInfoRow> Definition = new TableDefinitionBuilder<TraceInfoRow>(TableIds.TraceInfo, "Trace Info",
            "The trace's header and health: OS, processors, clock, extent, buffers and lost events.", "HiddenCost/Trace")
        .Column("OS Version", ColumnType.Text, r => r.OsVersion, description: "major.minor.build from the trace header")
        .Column("OS Build", ColumnType.Integer, r => r.OsBuild)
        .Column("Processors", ColumnType.Integer, r => r.Processors, ColumnUnit.Count)
        .Column("Pointer Size", ColumnType.Integer, r => r.PointerSize, ColumnUnit.Bytes)
        .Column("Clock Type", ColumnType.Text, r => r.ClockType)
        .Column("CPU Speed (MHz)", ColumnType.Integer, r => r.CpuSpeedMHz, ColumnUnit.Megahertz)
        .Column("Trace Start (UTC)", ColumnType.Text, r => r.TraceStartUtc, description: "ISO 8601")
        .Column("Start", ColumnType.Timestamp, r => r.Start, ColumnUnit.Nanoseconds, ColumnRole.StartTime, "first event")
        .Column("End", ColumnType.Timestamp, r => r.End, ColumnUnit.Nanoseconds, ColumnRole.EndTime, "last event")
        .Column("Duration", ColumnType.Duration, r => r.Duration, ColumnUnit.Nanoseconds, ColumnRole.Duration)
        .Column("Events", ColumnType.Integer, r => r.Events, ColumnUnit.Count)
        .Column("Buffers", ColumnType.Integer, r => r.Buffers, ColumnUnit.Count)
        .Column("Compressed Buffers", ColumnType.Integer, r => r.CompressedBuffers, ColumnUnit.Count)
        .Column("Events Lost", ColumnType.Integer, r => r.EventsLost, ColumnUnit.Count, description: "from the trace header")
        .Column("Buffers Lost", ColumnType.Integer, r => r.BuffersLost, ColumnUnit.Count, description: "from the trace header")
        .Column("Buffers Flagged Events Lost", ColumnType.Integer, r => r.BuffersFlaggedEventsLost, ColumnUnit.Count, description: "buffers ETW marked EVENTS_LOST")
        .Column("Reader Warnings", ColumnType.Integer, r => r.ReaderWarnings, ColumnUnit.Count, description: "damage the reader stepped over")
        .Column("File Mode", ColumnType.Text, r => r.FileMode, description: "LogFileMode, hex")
        .Column("Session Name", ColumnType.Text, r => r.SessionName)
        .Column("File Size (bytes)", ColumnType.Integer, r => r.FileSizeBytes, ColumnUnit.Bytes)
        .Build(new TableView(Array.Empty<string>()));

    public IReadOnlyList<TableSpec> Tables { get; } = new[] { Definition.Spec };

    public void OnEvent(in EtwEvent e) { }

    public IReadOnlyList<Table> Complete(AnalysisContext c)
    {
        var h = c.Header;
        var table = Definition.Table([new TraceInfoRow(
            OsVersion: h.OsVersion,
            OsBuild: h.Build,
            Processors: h.NumberOfProcessors,
            PointerSize: h.PointerSize,
            ClockType: h.ClockType.ToString(),
            CpuSpeedMHz: h.CpuSpeedMHz,
            TraceStartUtc: StartTime(h),
            Start: c.FirstEventNs,
            End: c.LastEventNs,
            Duration: c.LastEventNs - c.FirstEventNs,
            Events: c.EventCount,
            Buffers: c.Health.Buffers,
            CompressedBuffers: c.Health.CompressedBuffers,
            EventsLost: h.EventsLost,
            BuffersLost: h.BuffersLost,
            BuffersFlaggedEventsLost: c.Health.BuffersWithEventsLost,
            ReaderWarnings: c.Health.WarningCount,
            FileMode: $"0x{h.LogFileMode:X8}",
            SessionName: h.LoggerName,
            FileSizeBytes: c.FileLength
        )]);
        if (h.EventsLost > 0 || h.BuffersLost > 0 || c.Health.BuffersWithEventsLost > 0)
            table.AddNote(TableNote.Warning("trace-info.events-lost", $"ETW lost data while recording: {h.EventsLost} events and {h.BuffersLost} buffers lost " +
                $"({c.Health.BuffersWithEventsLost} buffers flagged); figures from this trace are lower bounds. " +
                "Record with larger or more buffers (MultiProfile.wprp sets them) or in file mode."));
        foreach (var w in c.Health.Warnings) table.AddNote(TableNote.Warning("trace-info.reader-warning", "reader: " + w));
        if (c.Health.WarningCount > c.Health.Warnings.Count)
            table.AddNote(TableNote.Warning("trace-info.more-reader-warnings", $"reader: {c.Health.WarningCount - c.Health.Warnings.Count} more warnings not shown"));
        if (c.Health.TimeInversions > 0)
            table.AddNote(TableNote.Warning("trace-info.time-inversions", $"{c.Health.TimeInversions} events are earlier than the event before them on the same processor (out of order in the file)."));
        return new[] { table };
    }

    /// <summary>Blank when the header holds no start time (0, damaged: the reader warns), rather than 0001-01-01.</summary>
    private static string StartTime(Etl.Header.TraceHeader h) =>
        h.StartTimeUtc == DateTime.MinValue ? "" : h.StartTimeUtc.ToString(StartTimeFormat, CultureInfo.InvariantCulture);
}
