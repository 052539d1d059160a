using HiddenCost.Dataset.Storage;

namespace HiddenCost.Dataset.Query;

/// <summary>A trace as the dataset's <c>traces</c> view records it (its newest committed run).</summary>
/// <param name="Status">ok, damaged, refused or failed (<see cref="Extract.TraceStatus"/>).</param>
/// <param name="Message">The error (refused, failed) or warning (damaged); null when ok.</param>
public sealed record StoredTrace(string TraceId, string Path, string Status, string? Message, string Version)
{
    /// <summary>Whether the trace's tables hold rows: refused and failed traces have none.</summary>
    public bool Analysed => Status is "ok" or "damaged";
}

/// <summary>
/// Finds a trace in a dataset by its id or an unambiguous prefix of it (at least <see cref="MinimumPrefix"/> hex
/// digits, as git takes a commit's), so a person can type the first digits `hiddencost query` showed.
/// </summary>
public static class StoredTraces
{
    public const int MinimumPrefix = 8;
    public const int IdLength = 64;

    /// <summary>How many matches an ambiguous prefix lists in its error.</summary>
    private const int Listed = 5;

    /// <summary>Whether <paramref name="text"/> can be a trace id or a prefix of one.</summary>
    public static bool IsIdPrefix(string text) => text.Length is >= MinimumPrefix and <= IdLength && text.All(Uri.IsHexDigit);

    /// <exception cref="DatasetException">The prefix is malformed, matches no trace, or more than one.</exception>
    public static StoredTrace Find(DatasetQuery query, string datasetName, string prefix)
    {
        if (!IsIdPrefix(prefix))
            throw new DatasetException($"{datasetName}@{prefix}: '{prefix}' is not a trace id: give {MinimumPrefix} to {IdLength} hex digits of the trace_id " +
                "the dataset's traces table shows");
        var result = query.Run("SELECT trace_id, path, status, message, hiddencost_version FROM traces WHERE starts_with(trace_id, $prefix) ORDER BY trace_id",
            new Dictionary<string, object> { ["prefix"] = prefix.ToLowerInvariant() });
        var matches = result.Rows.Select(r => new StoredTrace((string)r[0]!, r[1] as string ?? "", r[2] as string ?? "", r[3] as string, r[4] as string ?? "")).ToArray();
        return matches.Length switch
        {
            1 => matches[0],
            0 => throw new DatasetException($"{datasetName}@{prefix}: no trace in the dataset has an id starting {prefix.ToLowerInvariant()}"),
            _ => throw new DatasetException($"{datasetName}@{prefix}: {matches.Length} traces have ids starting {prefix.ToLowerInvariant()}; give more digits: " +
                string.Join(", ", matches.Take(Listed).Select(m => $"{m.TraceId} ({m.Path})")) + (matches.Length > Listed ? ", …" : "")),
        };
    }
}
