using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;
using Microsoft.Performance.SDK;
using Microsoft.Performance.SDK.Processing;

namespace HiddenCost.Wpa;

/// <summary>A trace after analysis, as the processor serves it to WPA: tables by GUID, the error or warning, the timeline.</summary>
internal sealed class ProcessedTrace
{
    private readonly Dictionary<Guid, Table> _tables;

    private ProcessedTrace(IEnumerable<Table> tables, string? error, DataSourceInfo timeline, string? warning = null)
    {
        _tables = tables.ToDictionary(t => t.Spec.Id);
        Error = error;
        Warning = warning;
        Timeline = timeline;
        if (error is not null) Timeline.Errors.Add(new ErrorInfo("HiddenCost", error));
        if (warning is not null) Timeline.Errors.Add(new ErrorInfo("HiddenCost.Damaged", warning));
    }

    public string? Error { get; }

    /// <summary>Why the tables come from part of the trace only (damaged or cut short), or null.</summary>
    public string? Warning { get; }
    public DataSourceInfo Timeline { get; }

    public Table? Table(Guid id) => _tables.GetValueOrDefault(id);

    public static ProcessedTrace From(AnalysisResult result) => new(result.Tables, result.Error, TraceTimeline.For(result), result.Warning);

    /// <summary>Every catalog table, empty, carrying the error as its note.</summary>
    public static ProcessedTrace Failed(IReadOnlyList<TableSpec> catalog, string error) =>
        new(catalog.Select(spec =>
        {
            var table = Analysis.Model.Table.Empty(spec);
            table.AddNote(TableNote.Error(TraceNoteCodes.Unreadable, error));
            return table;
        }), error, new DataSourceInfo(0, 0, DateTime.UnixEpoch));
}
