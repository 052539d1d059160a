namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>
/// When one directory was watched: the periods of all its watches (each from its first arm to its end), asked
/// whether any covers a time in O(log n). A directory may be watched by very many handles over a trace (a watcher
/// that re-opens it), and each change placed at the end asks once.
/// </summary>
internal sealed class WatchCoverage
{
    private readonly long[] _starts;
    // The latest end among the periods starting at or before each start: some period covers t exactly when the
    // latest end of those that started by t is after t.
    private readonly long[] _latestEnd;

    public WatchCoverage(IEnumerable<(long Start, long End)> periods)
    {
        var sorted = periods.OrderBy(p => p.Start).ToArray();
        _starts = new long[sorted.Length];
        _latestEnd = new long[sorted.Length];
        long latest = long.MinValue;
        for (int i = 0; i < sorted.Length; i++)
        {
            _starts[i] = sorted[i].Start;
            _latestEnd[i] = latest = Math.Max(latest, sorted[i].End);
        }
    }

    /// <summary>Whether some watch began at or before <paramref name="t"/> and ended after it.</summary>
    public bool Covers(long t)
    {
        int lo = 0, hi = _starts.Length;
        while (lo < hi)
        {
            int mid = (lo + hi) >>> 1;
            if (_starts[mid] <= t) lo = mid + 1;
            else hi = mid;
        }
        return lo > 0 && _latestEnd[lo - 1] > t;
    }
}
