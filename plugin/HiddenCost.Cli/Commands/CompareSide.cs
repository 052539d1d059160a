using HiddenCost.Analysis;
using HiddenCost.Analysis.Tables.Findings;
using HiddenCost.Cli.Input;
using HiddenCost.Dataset.Adapter;
using HiddenCost.Dataset.Query;
using HiddenCost.Dataset.Storage;
using HiddenCost.Etl;

namespace HiddenCost.Cli.Commands;

/// <summary>What one side of a comparison came to: its findings, or null after an internal error (exit 3).</summary>
/// <param name="Unreadable">The trace could not be read (exit 1): nothing to compare.</param>
/// <param name="Partial">It was read only in part (exit 4).</param>
internal sealed record SideFindings(IReadOnlyList<Finding>? Findings, bool Unreadable, bool Partial);

/// <summary>
/// One side of `compare`: a trace file, or `DATASET@TRACEID` — a dataset folder and a trace id (or a prefix of at
/// least 8 hex digits) in it. An argument that names an existing file is a trace, whatever its name holds; otherwise,
/// one whose part before the last '@' is an existing folder is a dataset side.
/// </summary>
internal abstract class CompareSide(string label)
{
    /// <summary>How the output names this side.</summary>
    public virtual string Label => label;

    public static CompareSide Parse(string argument)
    {
        int at = argument.LastIndexOf('@');
        if (File.Exists(argument) || at <= 0 || !Directory.Exists(argument[..at])) return new TraceSide(argument);
        return new DatasetSide(argument[..at], argument[(at + 1)..]);
    }

    /// <summary>Checks what can be checked before any trace is read (the dataset, the id): null, or the error (exit 2).</summary>
    public virtual string? Prepare() => null;

    public abstract SideFindings Assess(FindingThresholds thresholds, TextWriter err, CancellationToken cancellation);
}

/// <summary>A trace file, analysed as the main command analyses it.</summary>
internal sealed class TraceSide(string path) : CompareSide(path)
{
    private string Path => Label;

    public override SideFindings Assess(FindingThresholds thresholds, TextWriter err, CancellationToken cancellation)
    {
        AnalysisResult result;
        try
        {
            result = TraceAnalyzer.Analyze(new TraceFileName(DisplayName.Of(Path), Path), thresholds, cancellationToken: cancellation);
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            err.WriteLine($"error: {Path}: internal error, please report it with the trace if you can: {e}");
            return new SideFindings(null, false, false);
        }
        if (result.Error is not null) err.WriteLine($"error: {result.Error}");
        if (result.Warning is not null) err.WriteLine($"warning: {result.Warning}");
        return new SideFindings(FindingsEvaluator.Assess(ProblemFigures.From(result.Tables), thresholds), result.Error is not null, result.Warning is not null);
    }
}

/// <summary>
/// A trace already extracted into a dataset: its stored Trace Readiness and problem-table rows (newest committed run)
/// judged by the same rules as a trace's tables (<see cref="StoredProblemTables"/>).
/// </summary>
internal sealed class DatasetSide(string folder, string idPrefix) : CompareSide(folder + "@" + idPrefix)
{
    private string Folder => folder;
    private string IdPrefix => idPrefix;

    private DatasetFolder? _dataset;
    private StoredTrace? _trace;

    public override string? Prepare()
    {
        try
        {
            _dataset = DatasetFolder.Open(Folder);
            using var query = new DatasetQuery(_dataset);
            _trace = StoredTraces.Find(query, Folder, IdPrefix);
            return null;
        }
        catch (Exception e) when (e is DatasetException or DuckDB.NET.Data.DuckDBException or IOException or UnauthorizedAccessException)
        {
            return e is DatasetException ? e.Message : $"{Folder}: {e.Message}";
        }
    }

    /// <summary>With the full trace id once <see cref="Prepare"/> found it, so the output names exactly which trace was compared.</summary>
    public override string Label => _trace is { } t ? $"{Folder}@{t.TraceId}" : base.Label;

    public override SideFindings Assess(FindingThresholds thresholds, TextWriter err, CancellationToken cancellation)
    {
        var trace = _trace ?? throw new InvalidOperationException("Prepare first");
        var name = $"{Label} ({trace.Path})";
        if (!trace.Analysed)
        {
            err.WriteLine($"error: {name}: the dataset records it as {trace.Status}: {trace.Message}");
            return new SideFindings([], true, false);
        }
        if (trace.Status == "damaged") err.WriteLine($"warning: {name}: the dataset records it as read in part: {trace.Message}");
        try
        {
            cancellation.ThrowIfCancellationRequested();
            using var query = new DatasetQuery(_dataset!);
            var tables = StoredProblemTables.Read(query, trace.TraceId);
            return new SideFindings(FindingsEvaluator.Assess(ProblemFigures.From(tables), thresholds), false, trace.Status == "damaged");
        }
        catch (Exception e) when (e is DatasetException or DuckDB.NET.Data.DuckDBException or IOException or UnauthorizedAccessException)
        {
            err.WriteLine($"error: {name}: its rows cannot be read: {e.Message}");
            return new SideFindings([], true, false);
        }
    }
}
