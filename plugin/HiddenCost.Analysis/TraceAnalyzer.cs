using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Etl;

namespace HiddenCost.Analysis;

/// <summary>
/// Runs the analyses in one ordered pass over a trace: every one, or those that make the tables asked for, over a
/// session that builds only what they read (<see cref="AnalysisPlan"/>). Never throws for a bad trace: the error comes
/// back in <see cref="AnalysisResult.Error"/> with every table asked for present (empty, with the error as a note).
/// </summary>
public static class TraceAnalyzer
{
    public static AnalysisResult Analyze(string path, IProgress<double>? progress = null, CancellationToken cancellationToken = default) =>
        Analyze(new TraceFileName(path, path), tables: null, thresholds: null, progress, cancellationToken);

    /// <summary>Analyses the file <paramref name="trace"/> names; its <see cref="TraceFileName.Display"/> names it in every message.</summary>
    /// <param name="thresholds">Findings' thresholds; null for the defaults.</param>
    /// <param name="symbols">The run's symbol resolver (from the symbol path) to name native code; null: <c>module+0xRVA</c>.</param>
    public static AnalysisResult Analyze(TraceFileName trace, Tables.Findings.FindingThresholds? thresholds = null, IProgress<double>? progress = null,
        CancellationToken cancellationToken = default, Symbols.Resolution.SymbolResolver? symbols = null) =>
        Analyze(trace, tables: null, thresholds, progress, cancellationToken, symbols);

    /// <param name="tables">
    /// The ids of the tables to make (<see cref="TableCatalog.All"/>), or null for all: the result holds those tables
    /// only, in catalog order, each with the same rows and notes as a run of every analysis gives it.
    /// </param>
    public static AnalysisResult Analyze(string path, IEnumerable<Guid>? tables, IProgress<double>? progress = null, CancellationToken cancellationToken = default) =>
        Analyze(new TraceFileName(path, path), tables, thresholds: null, progress, cancellationToken);

    /// <inheritdoc cref="Analyze(string, IEnumerable{Guid}?, IProgress{double}?, CancellationToken)"/>
    /// <param name="thresholds">Findings' thresholds; null for the defaults.</param>
    /// <param name="symbols">The run's symbol resolver (from the symbol path) to name native code; null: <c>module+0xRVA</c>.</param>
    public static AnalysisResult Analyze(TraceFileName trace, IEnumerable<Guid>? tables, Tables.Findings.FindingThresholds? thresholds,
        IProgress<double>? progress = null, CancellationToken cancellationToken = default, Symbols.Resolution.SymbolResolver? symbols = null) =>
        Analyze(trace, AnalysisPlan.For(thresholds is null ? TableCatalog.Analyses : TableCatalog.AnalysesWith(thresholds), tables), progress,
            cancellationToken, symbols);

    /// <summary>Runs the analyses of <paramref name="plan"/> over a session that builds what they read.</summary>
    public static AnalysisResult Analyze(string path, AnalysisPlan plan, IProgress<double>? progress = null, CancellationToken cancellationToken = default) =>
        Analyze(new TraceFileName(path, path), plan, progress, cancellationToken);

    /// <inheritdoc cref="Analyze(string, AnalysisPlan, IProgress{double}?, CancellationToken)"/>
    public static AnalysisResult Analyze(TraceFileName trace, AnalysisPlan plan, IProgress<double>? progress = null, CancellationToken cancellationToken = default,
        Symbols.Resolution.SymbolResolver? symbols = null)
    {
        var path = trace.Display;
        var lanes = CreateLanes(plan, symbols);
        try
        {
            using var reader = EtlReader.Open(trace);
            if (lanes.Length > 1) reader.MergeAhead = true; // lanes run at once only behind a merge on a thread of its own
            progress?.Report(0);
            reader.Dispatch(lanes, progress, cancellationToken);
            cancellationToken.ThrowIfCancellationRequested();
            foreach (var lane in lanes) lane.Session.Complete();
            // Every lane saw every event: the first lane's count and times are the pass's, its session's undecodable
            // events every session's.
            var session = lanes[0].Session;
            long count = lanes[0].Count, first = count == 0 ? 0 : lanes[0].FirstNs, last = count == 0 ? 0 : lanes[0].LastNs;
            var analyses = InCatalogOrder(plan, lanes);
            var context = new AnalysisContext(path, reader.FileLength, reader.Header, reader.Health, count, first, last);
            var made = CompleteAll(analyses, context, cancellationToken).Where(table => plan.Wanted(table.Spec)).ToList();
            var damage = DamageNote(path, reader.Health);
            var undecodable = UndecodableReport.Summary(path, session.Undecodable, afterDamageNote: damage is not null);
            var warning = Join(Join(damage, undecodable), JoinedNote(path, reader.Header, reader.Health));
            var lostData = LostDataNote(reader.Header, reader.Health);
            foreach (var table in made)
            {
                if (warning is not null) table.AddNote(TableNote.Warning(TraceNoteCodes.Partial, warning));
                if (lostData is not null && !SaysLossItself(table.Spec)) table.AddNote(TableNote.Warning(TraceNoteCodes.EventsLost, lostData));
                if (UndecodableReport.TableNote(table.Spec.Name, session.Undecodable) is { } lost)
                    table.AddNote(TableNote.Warning(TraceNoteCodes.Undecodable, lost));
            }
            progress?.Report(1.0);
            return new AnalysisResult(path, made, null) { Warning = warning };
        }
        catch (EtlFormatException e)
        {
            return Failed(path, plan, e.Message);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return Failed(path, plan, $"{path}: {e.Message}");
        }
    }

    /// <summary>
    /// The plan's lanes (<see cref="AnalysisPlan.Lanes"/>), each over a session that builds what its analyses read. The
    /// first lane's session counts the undecodable events (every lane sees the same ones). Every session gets the
    /// symbols: only the lane that resolves frames looks names up, but every table may say whether a symbol path was given.
    /// </summary>
    private static AnalysisLane[] CreateLanes(AnalysisPlan plan, Symbols.Resolution.SymbolResolver? symbols) =>
        plan.Lanes.Select((entries, i) => new AnalysisLane(new TraceSession(AnalysisPlan.NeedsOf(entries), symbols, countsUndecodable: i == 0), entries))
            .ToArray();

    /// <summary>The lanes' analyses in the plan's (catalog) order, which is the order their tables are given back in.</summary>
    private static ITraceAnalysis[] InCatalogOrder(AnalysisPlan plan, AnalysisLane[] lanes)
    {
        var byEntry = new Dictionary<AnalysisEntry, ITraceAnalysis>(ReferenceEqualityComparer.Instance);
        foreach (var lane in lanes)
            for (int i = 0; i < lane.Entries.Count; i++) byEntry.Add(lane.Entries[i], lane.Analyses[i]);
        return plan.Entries.Select(entry => byEntry[entry]).ToArray();
    }

    /// <summary>Every analysis's tables in catalog order; those that read tables are completed last, from the others'.</summary>
    private static List<Table> CompleteAll(ITraceAnalysis[] analyses, AnalysisContext context, CancellationToken cancellationToken)
    {
        var byAnalysis = new IReadOnlyList<Table>[analyses.Length];
        for (int i = 0; i < analyses.Length; i++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (analyses[i] is not ITableReadingAnalysis) byAnalysis[i] = analyses[i].Complete(context);
        }
        var built = byAnalysis.Where(t => t is not null).SelectMany(t => t).ToArray();
        for (int i = 0; i < analyses.Length; i++)
            if (analyses[i] is ITableReadingAnalysis reading)
            {
                cancellationToken.ThrowIfCancellationRequested();
                byAnalysis[i] = reading.Complete(context, built);
            }
        return byAnalysis.SelectMany(t => t).ToList();
    }

    /// <summary>
    /// Said on every table of a damaged trace: without it, a table emptied by the damage would read like a recording
    /// that lacked its events, and its note would send the user to record again.
    /// </summary>
    private static string? DamageNote(string path, Etl.Reading.TraceHealth health)
    {
        if (health.FirstDamage is not { } first) return null;
        var extent = new List<string> { first.ToString() };
        if (health.DamagedBuffers > 0) extent.Add($"{health.DamagedBuffers:N0} damaged buffers or records");
        if (health.EventsOutOfTime > 0) extent.Add($"{health.EventsOutOfTime:N0} event{(health.EventsOutOfTime == 1 ? "" : "s")} stamped far outside the trace's start and end left out");
        if (health.Truncated) extent.Add("the file ends early");
        return $"{path} is damaged ({string.Join("; ", extent)}): only what could be read was analysed, so a figure may be low, and a table that is empty " +
               "or says the trace lacks events may show the damage, not the recording (Trace Info lists every warning).";
    }

    private static string? Join(string? first, string? second) => first is null ? second : second is null ? first : $"{first} {second}";

    /// <summary>
    /// Said on every table of a file that holds more buffers than its header says were written: joined traces count
    /// twice (or count another trace's events), and nothing in the tables themselves would show it.
    /// </summary>
    private static string? JoinedNote(string path, Etl.Header.TraceHeader header, Etl.Reading.TraceHealth health) =>
        health.BuffersBeyondWritten == 0 ? null
            : $"{path} holds {health.BuffersBeyondWritten:N0} more buffers than its trace header says were written ({header.BuffersWritten:N0}): " +
              "traces joined together, or a recording whose header was not updated when it stopped. Every buffer was read, so figures may " +
              "count another trace's events, or the same events twice.";

    /// <summary>Trace Info and Trace Readiness count ETW's losses in their own rows and notes.</summary>
    private static bool SaysLossItself(TableSpec spec) =>
        spec == Tables.TraceInfo.TraceInfoAnalysis.Definition.Spec || spec == Tables.TraceReadiness.TraceReadinessAnalysis.Definition.Spec;

    /// <summary>
    /// Said on every table of a trace that ETW could not record in full: its figures are lower bounds, and events
    /// paired across a loss may pair wrongly, which no table could tell from the events themselves.
    /// </summary>
    private static string? LostDataNote(Etl.Header.TraceHeader header, Etl.Reading.TraceHealth health)
    {
        if (header.EventsLost == 0 && header.BuffersLost == 0 && health.BuffersWithEventsLost == 0) return null;
        return $"ETW lost {header.EventsLost:N0} events and {header.BuffersLost:N0} buffers while this trace was recorded ({health.BuffersWithEventsLost:N0} " +
               "buffers flagged): figures here are lower bounds, and what is paired across a loss (a call's start and stop, a syscall's enter and exit, " +
               "the thread a processor runs) may be paired wrongly. Record with larger or more buffers (MultiProfile.wprp sets them) or in file mode.";
    }

    private static AnalysisResult Failed(string path, AnalysisPlan plan, string error)
    {
        var tables = plan.Tables.Select(spec =>
        {
            var t = Table.Empty(spec);
            t.AddNote(TableNote.Error(TraceNoteCodes.Unreadable, error));
            return t;
        }).ToArray();
        return new AnalysisResult(path, tables, error);
    }
}
