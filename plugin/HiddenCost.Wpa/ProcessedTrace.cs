using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;
using Microsoft.Performance.SDK;
using Microsoft.Performance.SDK.Processing;

namespace HiddenCost.Wpa;

/// <summary>A trace after analysis, as the processor serves it to WPA: tables by GUID, the error, the timeline.</summary>
internal sealed class ProcessedTrace
{
    private readonly Dictionary<Guid, Table> _tables;

    private ProcessedTrace(IEnumerable<Table> tables, string? error, DataSourceInfo timeline)
    {
        _tables = tables.ToDictionary(t => t.Spec.Id);
        Error = error;
        Timeline = timeline;
        if (error is not null) Timeline.Errors.Add(new ErrorInfo("HiddenCost", error));
    }

    public string? Error { get; }
    public DataSourceInfo Timeline { get; }

    public Table? Table(Guid id) => _tables.GetValueOrDefault(id);

    public static ProcessedTrace From(AnalysisResult result) => new(result.Tables, result.Error, TraceTimeline.For(result));

    /// <summary>Every catalog table, empty, carrying the error as its note.</summary>
    public static ProcessedTrace Failed(IReadOnlyList<TableSpec> catalog, string error) =>
        new(catalog.Select(spec =>
        {
            var table = new Table(spec);
            table.AddNote(error);
            return table;
        }), error, new DataSourceInfo(0, 0, DateTime.UnixEpoch));
}
