using System.Globalization;
using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables;
using HiddenCost.Wpa.Mapping;
using Microsoft.Performance.SDK.Processing;

namespace HiddenCost.Wpa;

/// <summary>How a trace is analysed for the tables named by id; <see cref="TraceAnalyzer.Analyze(string, IEnumerable{Guid}?, IProgress{double}?, CancellationToken)"/> in WPA.</summary>
internal delegate AnalysisResult AnalyzeTrace(string path, IEnumerable<Guid>? tables, IProgress<double>? progress, CancellationToken cancellationToken);

/// <summary>
/// Analyses one trace when WPA processes it, for the tables enabled by then (WPA enables none after processing) and
/// Trace Info, which gives the timeline its extent; then serves each enabled table through the generic mapping.
/// Nothing thrown inside escapes to WPA: a failure is logged to the host, shown to the user, and every table
/// comes back empty with the error as its note. Only cancellation by the host ends the task as cancelled.
/// </summary>
internal sealed class HiddenCostDataProcessor : CustomDataProcessor
{
    private readonly IReadOnlyList<string> _paths;
    private readonly IReadOnlyList<TableSpec> _catalog;
    private readonly AnalyzeTrace _analyze;
    private ProcessedTrace? _trace;

    public HiddenCostDataProcessor(
        IReadOnlyList<string> paths,
        IReadOnlyList<TableSpec> catalog,
        AnalyzeTrace analyze,
        ProcessorOptions options,
        IApplicationEnvironment applicationEnvironment,
        IProcessorEnvironment processorEnvironment)
        : base(options, applicationEnvironment, processorEnvironment)
    {
        _paths = paths;
        _catalog = catalog;
        _analyze = analyze;
    }

    public override DataSourceInfo GetDataSourceInfo() => _trace?.Timeline ?? new DataSourceInfo(0, 0, DateTime.UnixEpoch);

    protected override Task ProcessAsyncCore(IProgress<int> progress, CancellationToken cancellationToken) =>
        Task.Run(() =>
        {
            _trace = Analyze(progress, cancellationToken);
            Report(_trace);
        }, cancellationToken);

    protected override void BuildTableCore(TableDescriptor tableDescriptor, ITableBuilder tableBuilder)
    {
        try
        {
            var trace = _trace ?? ProcessedTrace.Failed(_catalog, "HiddenCost: the trace was not processed before its tables were built");
            if (trace.Table(tableDescriptor.Guid) is not { } table)
            {
                Logger.Error("HiddenCost has no table {0}", tableDescriptor);
                return;
            }
            TableBuilding.Build(table, tableBuilder, table.Notes);
        }
        catch (Exception e)
        {
            Logger.Error(e, "HiddenCost could not build table {0}", tableDescriptor);
        }
    }

    private ProcessedTrace Analyze(IProgress<int> progress, CancellationToken cancellationToken)
    {
        if (_paths.Count == 0) return ProcessedTrace.Failed(_catalog, "HiddenCost was given no .etl file to analyse");
        var path = _paths[0];
        try
        {
            return ProcessedTrace.From(_analyze(path, TablesToAnalyse(), new PercentProgress(progress), cancellationToken));
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            throw;
        }
        catch (Exception e)
        {
            Logger.Error(e, "HiddenCost analysis of {0} failed", path);
            return ProcessedTrace.Failed(_catalog, $"{path}: analysis failed: {e.GetType().Name}: {e.Message}");
        }
    }

    /// <summary>The enabled tables, and Trace Info for the timeline (<see cref="TraceTimeline"/>).</summary>
    private Guid[] TablesToAnalyse() => EnabledTables.Select(table => table.Guid).Append(TableIds.TraceInfo).Distinct().ToArray();

    /// <summary>
    /// Errors and warnings go to WPA's log, and to the user in a message when one is there to read it (not in a batch
    /// export or a headless engine, where the log and the data source's errors carry them); what the trace lacks goes
    /// to the log.
    /// </summary>
    private void Report(ProcessedTrace trace)
    {
        try
        {
            bool show = HostIsInteractive();
            if (_paths.Count > 1)
            {
                // Shown, not only logged: the user opened several traces and would otherwise take these tables for all.
                Logger.Warn("HiddenCost analyses one trace per processor: analysed {0}, not {1}", _paths[0], string.Join(", ", _paths.Skip(1)));
                if (show) ApplicationEnvironment.DisplayMessage(MessageType.Warning, CultureInfo.InvariantCulture,
                    "HiddenCost analysed only {0}; open {1} on its own to see its tables.", _paths[0], string.Join(", ", _paths.Skip(1)));
            }
            if (trace.Error is { } error)
            {
                Logger.Error("{0}", error);
                if (show) ApplicationEnvironment.DisplayMessage(MessageType.Error, CultureInfo.InvariantCulture, "HiddenCost: {0}", error);
            }
            if (trace.Warning is { } warning)
            {
                // Shown, not only logged: every table of a damaged trace may be short, whichever the user opens.
                Logger.Warn("{0}", warning);
                if (show) ApplicationEnvironment.DisplayMessage(MessageType.Warning, CultureInfo.InvariantCulture, "HiddenCost: {0}", warning);
            }
            foreach (var spec in _catalog)
                foreach (var note in trace.Table(spec.Id)?.Notes ?? [])
                    Log(spec, note);
        }
        catch (Exception e)
        {
            Logger.Error(e, "HiddenCost could not report the analysis of {0}", string.Join(", ", _paths));
        }
    }

    /// <summary>
    /// A table's note at its severity's level. The trace's error and warning, said on every table, were reported once
    /// above; so is ETW's loss of events, which every table but two repeats.
    /// </summary>
    private void Log(TableSpec spec, TableNote note)
    {
        if (note.Code is TraceNoteCodes.Unreadable or TraceNoteCodes.Partial) return;
        switch (note.Severity)
        {
            case NoteSeverity.Error: Logger.Error("{0}: {1}", spec.Name, note.Text); break;
            case NoteSeverity.Warning: Logger.Warn("{0}: {1}", spec.Name, note.Text); break;
            default: Logger.Info("{0}: {1}", spec.Name, note.Text); break;
        }
    }

    /// <summary>
    /// The host's <see cref="IApplicationEnvironment.IsInteractive"/>, read apart: were a host's SDK ever without it, the
    /// call would fail where it is compiled, and that must not take the report (or WPA's task) with it.
    /// </summary>
    private bool HostIsInteractive()
    {
        try
        {
            return ReadIsInteractive();
        }
        catch (Exception)
        {
            return true; // as before there was a flag to read: show
        }
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private bool ReadIsInteractive() => ApplicationEnvironment.IsInteractive;
}
