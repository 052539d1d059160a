using System.Globalization;

namespace HiddenCost.Dataset.Extract;

/// <summary>What an extract run did, and the exit code it earns.</summary>
public sealed record ExtractSummary(
    string RunId,
    IReadOnlyDictionary<TraceStatus, int> Counts,
    int InternalErrors,
    int Duplicates,
    int Ignored,
    long BytesRead,
    TimeSpan Elapsed,
    int PartFiles)
{
    public int Count(TraceStatus status) => Counts.TryGetValue(status, out var n) ? n : 0;

    /// <summary>Extracted in this run (not skipped).</summary>
    public int Extracted => Count(TraceStatus.Ok) + Count(TraceStatus.Damaged) + Count(TraceStatus.Refused) + Count(TraceStatus.Failed);

    /// <summary>
    /// As for single traces: 3 when an analysis failed unexpectedly, else 1 when a trace could not be read (refused or
    /// failed), else 4 when one was read only in part, else 0.
    /// </summary>
    public int ExitCode => InternalErrors > 0 ? 3
        : Count(TraceStatus.Refused) + Count(TraceStatus.Failed) > 0 ? 1
        : Count(TraceStatus.Damaged) > 0 ? 4 : 0;

    /// <summary>The one-line summary the CLI prints.</summary>
    public string Line()
    {
        var seconds = Math.Max(Elapsed.TotalSeconds, 1e-9);
        var parts = new List<string>
        {
            $"{Extracted} traces extracted ({Count(TraceStatus.Ok)} ok, {Count(TraceStatus.Damaged)} damaged, {Count(TraceStatus.Refused)} refused, {Count(TraceStatus.Failed)} failed)",
            $"{Count(TraceStatus.Skipped) - Duplicates} skipped (already in the dataset)",
        };
        if (Duplicates > 0) parts.Add($"{Duplicates} duplicates (same content as another file)");
        if (Ignored > 0) parts.Add($"{Ignored} non-.etl files ignored");
        parts.Add(string.Create(CultureInfo.InvariantCulture,
            $"{BytesRead / 1e6:0.0} MB in {Elapsed.TotalSeconds:0.0} s ({BytesRead / 1e6 / seconds:0.0} MB/s, {Extracted / seconds:0.0} traces/s)"));
        parts.Add(PartFiles == 0 ? "nothing committed" : $"run {RunId} committed ({PartFiles} files)");
        return string.Join("; ", parts);
    }
}
