namespace HiddenCost.Analysis.Common;

/// <summary>
/// The timer profile interval over the trace, from the PerfInfo profile-interval events (SetInterval and the
/// CollectionStart/End rundowns). A sample weighs the interval in effect when it was taken; samples before the
/// first interval event take the first interval the trace names (rundowns may come only at the end); a trace
/// that names none gets <see cref="DefaultNs"/>, the Windows default of 1 ms.
/// </summary>
public sealed class SampleIntervals
{
    public const long DefaultNs = 1_000_000;

    private readonly List<(long Time, long IntervalNs)> _changes = new();

    /// <summary>The interval in effect now, or null before the trace has named one.</summary>
    public long? Current { get; private set; }

    /// <summary>The first interval the trace named, or null.</summary>
    public long? First => _changes.Count > 0 ? _changes[0].IntervalNs : null;

    public bool IsDefault => _changes.Count == 0;

    public IReadOnlyList<(long Time, long IntervalNs)> Changes => _changes;

    /// <summary>An interval event; zero (an unset source) is ignored.</summary>
    /// <param name="previousNs">
    /// The interval it replaces (SetInterval's OldInterval), or 0. On the first interval event of a trace whose start
    /// names none (its rundown overwritten, in memory mode), it is what the samples before that event were taken at.
    /// </param>
    public void Set(long t, long intervalNs, long previousNs = 0)
    {
        if (_changes.Count == 0 && previousNs > 0 && previousNs != intervalNs && intervalNs > 0)
        {
            _changes.Add((long.MinValue, previousNs));
            Current = previousNs;
        }
        if (intervalNs <= 0 || Current == intervalNs) return;
        _changes.Add((t, intervalNs));
        Current = intervalNs;
    }

    /// <summary>The interval for samples taken before any interval event: the first one named, else the default.</summary>
    public long ForUnnamed => First ?? DefaultNs;

    /// <summary>The interval in effect at <paramref name="t"/> as the trace finally tells it.</summary>
    public long At(long t)
    {
        // The last change at or before t (changes come in time order): a binary search, since every sample asks.
        int lo = 0, hi = _changes.Count;
        while (lo < hi)
        {
            int mid = (lo + hi) >>> 1;
            if (_changes[mid].Time <= t) lo = mid + 1;
            else hi = mid;
        }
        return lo == 0 ? ForUnnamed : _changes[lo - 1].IntervalNs;
    }
}
