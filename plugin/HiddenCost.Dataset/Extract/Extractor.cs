using System.Collections.Concurrent;
using System.Diagnostics;
using System.Reflection;
using DuckDB.NET.Data;
using HiddenCost.Analysis;
using HiddenCost.Dataset.Adapter;
using HiddenCost.Dataset.Query;
using HiddenCost.Dataset.Schema;
using HiddenCost.Dataset.Storage;

namespace HiddenCost.Dataset.Extract;

/// <summary>
/// One extract run: analyses traces in parallel (each streams as a single-trace run does, so memory is bounded per
/// worker), writes their rows as hidden part files, and commits them by writing the run's manifest last (see the
/// README's commit protocol). A trace that cannot be read is recorded with its error and the run goes on.
/// </summary>
public sealed class Extractor
{
    /// <summary>The HiddenCost version recorded with every trace; a trace extracted by this version already is skipped.</summary>
    public static string Version { get; } =
        typeof(TraceAnalyzer).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion
        ?? typeof(TraceAnalyzer).Assembly.GetName().Version?.ToString() ?? "unknown";

    private readonly DatasetFolder _dataset;
    private readonly int _workers;
    private readonly IProgress<ExtractProgress>? _progress;
    private readonly Action<string> _report;

    /// <param name="report">Told each trace that was not analysed whole (one line, naming the file), and lock waits.</param>
    public Extractor(DatasetFolder dataset, int workers, IProgress<ExtractProgress>? progress, Action<string> report)
    {
        _dataset = dataset;
        _workers = Math.Max(1, workers);
        _progress = progress;
        _report = report;
    }

    /// <summary>Test hook: called after the part files are written and before the manifest commits them.</summary>
    internal Action? BeforeCommit { get; init; }

    /// <summary>Test hook: called after the manifest commits the run and before its files get their visible names.</summary>
    internal Action? AfterCommit { get; init; }

    /// <exception cref="OperationCanceledException">Cancelled: nothing of this run is committed, its files are removed.</exception>
    /// <exception cref="DatasetException">The dataset could not be written (a full disk …): nothing of this run is committed.</exception>
    public ExtractSummary Run(TraceInputs inputs, CancellationToken cancellation = default)
    {
        var clock = Stopwatch.StartNew();
        using var held = DatasetLock.Acquire(_dataset, () => _report($"waiting: another extract is writing {_dataset.Root} (it holds {DatasetFolder.LockName})"), cancellation);
        var committed = RunManifest.ReadAll(_dataset);
        Recovery.Run(_dataset, committed);
        var known = KnownTraces(committed);
        var runId = NewRunId(committed);
        var started = DateTime.UtcNow;

        var counts = new ConcurrentDictionary<TraceStatus, int>();
        int internalErrors = 0, done = 0, failed = 0, duplicates = 0;
        long bytesDone = 0, bytesRead = 0;
        long bytesTotal = inputs.Files.Sum(SizeOrZero);
        var seen = new ConcurrentDictionary<string, string>(StringComparer.Ordinal);
        var writer = new PartWriter(_dataset, runId);
        bool madeCommit = false;
        try
        {
            _progress?.Report(new ExtractProgress(0, inputs.Files.Count, 0, 0, bytesTotal));
            ForEach(inputs.Files, cancellation, path =>
            {
                var outcome = Extract(path, runId, known, seen, cancellation);
                if (outcome.Rows is { } rows)
                    lock (writer)
                        foreach (var (table, tableRows) in rows) writer.Append(table, tableRows);
                counts.AddOrUpdate(outcome.Status, 1, (_, n) => n + 1);
                if (outcome.Internal) Interlocked.Increment(ref internalErrors);
                if (outcome.Duplicate) Interlocked.Increment(ref duplicates);
                if (outcome.Status is TraceStatus.Refused or TraceStatus.Failed) Interlocked.Increment(ref failed);
                if (outcome.Status != TraceStatus.Skipped) Interlocked.Add(ref bytesRead, outcome.Size);
                if (outcome.Message is { } message)
                    _report($"{outcome.Status switch { TraceStatus.Damaged => "warning", TraceStatus.Skipped => "note", _ => "error" }}: {message}");
                var progress = new ExtractProgress(Interlocked.Increment(ref done), inputs.Files.Count, Volatile.Read(ref failed),
                    Interlocked.Add(ref bytesDone, outcome.Size), bytesTotal);
                _progress?.Report(progress);
            });
            int traces = counts.Where(c => c.Key != TraceStatus.Skipped).Sum(c => c.Value);
            IReadOnlyList<string> files = Array.Empty<string>();
            if (traces > 0)
            {
                writer.Finish();
                files = writer.Files;
                BeforeCommit?.Invoke();
                var manifest = new RunManifest(runId, Version, started, DateTime.UtcNow, traces, files);
                manifest.Commit(_dataset);
                madeCommit = true;
                AfterCommit?.Invoke();
                Recovery.Run(_dataset, [.. committed, manifest]); // the commit is made: now give the files their visible names
            }
            return new ExtractSummary(runId, new Dictionary<TraceStatus, int>(counts), internalErrors, duplicates, inputs.Ignored, bytesRead, clock.Elapsed, files.Count);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or DuckDBException)
        {
            Abandon(writer);
            throw new DatasetException($"cannot write the dataset {_dataset.Root}: {e.Message}; " + (madeCommit
                ? "the run had committed: the next run gives its files their names"
                : "nothing of this run was committed, and earlier runs are untouched"), e);
        }
        catch
        {
            Abandon(writer);
            throw;
        }
        finally
        {
            writer.Dispose();
        }
    }

    private sealed record Outcome(TraceStatus Status, long Size, string? Message, bool Internal, IReadOnlyList<(DatasetTable, IEnumerable<object?[]>)>? Rows)
    {
        public bool Duplicate { get; init; }
    }

    private Outcome Extract(string path, string runId, IReadOnlyDictionary<string, string> known,
        ConcurrentDictionary<string, string> seen, CancellationToken cancellation)
    {
        long size = SizeOrZero(path);
        string traceId;
        try
        {
            traceId = TraceHasher.OfContent(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            traceId = TraceHasher.OfUnreadable(path);
            if (known.TryGetValue(traceId, out var failedVersion) && failedVersion == Version)
                return new Outcome(TraceStatus.Skipped, size, null, false, null); // recorded by an earlier run: still unreadable
            return Record(traceId, TraceStatus.Failed, $"{path}: cannot read the file: {e.Message}", internalError: false, null);
        }
        if (known.TryGetValue(traceId, out var version) && version == Version)
            return new Outcome(TraceStatus.Skipped, size, null, false, null);
        if (!seen.TryAdd(traceId, path))
            return new Outcome(TraceStatus.Skipped, size, $"{path}: same content as {seen[traceId]} (one trace): extracted once", false, null) { Duplicate = true };

        AnalysisResult result;
        try
        {
            // As a single-trace run analyses it (CliRunner): a bad trace comes back as an error result, never a throw.
            result = TraceAnalyzer.Analyze(path, cancellationToken: cancellation);
        }
        catch (Exception e) when (!(e is OperationCanceledException && cancellation.IsCancellationRequested))
        {
            return Record(traceId, TraceStatus.Failed, $"{path}: internal error, please report it with the trace if you can: {e}", internalError: true, null);
        }
        var status = result.Error is not null ? TraceStatus.Refused : result.Warning is not null ? TraceStatus.Damaged : TraceStatus.Ok;
        return Record(traceId, status, result.Error ?? result.Warning, internalError: false, result);

        Outcome Record(string id, TraceStatus s, string? message, bool internalError, AnalysisResult? analysed)
        {
            var facts = analysed is null ? new TraceFacts(null, null, null, null) : TableModelAdapter.Facts(analysed);
            object?[] trace =
            [
                id, runId, Path.GetFullPath(path), size, null, facts.OsBuild, facts.Processors, facts.StartUtc, facts.DurationNs,
                s.ToString().ToLowerInvariant(), message, Version, DateTime.UtcNow,
            ];
            var rows = new List<(DatasetTable, IEnumerable<object?[]>)> { (DatasetSchema.Traces, [trace]) };
            if (analysed is not null)
            {
                rows.Add((DatasetSchema.Notes, TableModelAdapter.Notes(analysed).Select(n => new object?[] { id, runId, n.Table, n.Text })));
                foreach (var (table, tableRows) in TableModelAdapter.Rows(analysed))
                    rows.Add((table, tableRows.Select(r => (object?[])[id, runId, .. r])));
            }
            return new Outcome(s, size, message, internalError, rows);
        }
    }

    /// <summary>The HiddenCost version of the newest committed run of every trace in the dataset.</summary>
    private Dictionary<string, string> KnownTraces(IReadOnlyList<RunManifest> committed)
    {
        var known = new Dictionary<string, string>(StringComparer.Ordinal);
        if (committed.Count == 0) return known;
        try
        {
            using var db = new DuckDBConnection("DataSource=:memory:");
            db.Open();
            DatasetViews.Create(db, _dataset, committed);
            using var command = db.CreateCommand();
            command.CommandText = "SELECT trace_id, hiddencost_version FROM traces";
            using var reader = command.ExecuteReader();
            while (reader.Read()) known[reader.GetString(0)] = reader.GetString(1);
            return known;
        }
        catch (DuckDBException e)
        {
            throw new DatasetException($"{_dataset.Root}: the committed traces cannot be read ({e.Message}); the dataset was changed by something other than HiddenCost", e);
        }
    }

    /// <summary>A run id later than every committed one: its UTC start, to the millisecond, and a random suffix.</summary>
    private static string NewRunId(IReadOnlyList<RunManifest> committed)
    {
        var now = DateTime.UtcNow;
        string Id(DateTime t) => t.ToString("yyyyMMdd'T'HHmmssfff'Z'", System.Globalization.CultureInfo.InvariantCulture) + "-" + Convert.ToHexStringLower(Guid.NewGuid().ToByteArray()[..4]);
        var id = Id(now);
        // A clock set back must not make this run older than one before it (the newest run's rows win).
        while (committed.Count > 0 && string.CompareOrdinal(id, committed[^1].RunId) <= 0) id = Id(now = now.AddMilliseconds(1));
        return id;
    }

    private void Abandon(PartWriter writer)
    {
        try
        {
            writer.Dispose();
            // Read again: when the manifest was written before the failure, the run did commit and its files are kept.
            Recovery.Run(_dataset, RunManifest.ReadAll(_dataset));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or DuckDBException or DatasetException)
        {
            // Left for the next run's recovery: hidden files are never read.
        }
    }

    /// <summary>
    /// Parallel.ForEach, throwing what a worker threw rather than an AggregateException: a cancellation as one, a full
    /// disk as the IOException the caller turns into a clear error.
    /// </summary>
    private void ForEach(IReadOnlyList<string> files, CancellationToken cancellation, Action<string> body)
    {
        try
        {
            Parallel.ForEach(files, new ParallelOptions { MaxDegreeOfParallelism = _workers, CancellationToken = cancellation }, body);
        }
        catch (AggregateException e)
        {
            var inner = e.Flatten().InnerExceptions;
            var first = inner.FirstOrDefault(x => x is not OperationCanceledException) ?? inner[0];
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(first);
        }
    }

    private static long SizeOrZero(string path)
    {
        try { return new FileInfo(path).Length; }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException) { return 0; }
    }
}
