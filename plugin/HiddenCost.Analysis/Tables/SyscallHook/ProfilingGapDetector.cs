using HiddenCost.Analysis.Common;

namespace HiddenCost.Analysis.Tables.SyscallHook;

/// <summary>
/// Finds spans where CPU samples stop or pause for more than <see cref="IntervalMultiple"/>× the sample interval
/// while other kernel events go on: another tool taking over (or reconfiguring) the kernel logger makes the
/// profiling vanish mid-recording. Samples from all processors count together: one processor still being
/// sampled means profiling is alive. The start of the trace is not a gap (rundowns come before sampling).
/// </summary>
public sealed class ProfilingGapDetector
{
    public const int IntervalMultiple = 10;

    /// <summary>The smallest interval Windows allows (0.1221 ms): spacings shorter than 10× it are never gaps, whatever interval the trace names later.</summary>
    private const long SmallestIntervalNs = 122_100;
    private const int MaxCandidates = 1_000_000;

    private readonly List<Gap> _candidates = new();
    private long _lastSampleNs = -1;
    private long? _intervalAtLastSample;
    private long _events, _eventsAtLastSample, _eventsAtLastActivity;
    private long _activity, _activityAtLastSample, _lastActivityNs = -1;

    public long Samples { get; private set; }

    /// <summary>The time of the latest sample, -1 before the first: events after it and before the next share its epoch.</summary>
    public long LastSampleNs => _lastSampleNs;

    /// <summary>
    /// Whether the span between the sample at <paramref name="sampleNs"/> and the one after it, both seen, is kept as a
    /// possible gap (<see cref="Finish"/> decides). Candidates are added in time order.
    /// </summary>
    public bool IsCandidate(long sampleNs)
    {
        int lo = 0, hi = _candidates.Count;
        while (lo < hi)
        {
            int mid = (lo + hi) >>> 1;
            if (_candidates[mid].Start < sampleNs) lo = mid + 1;
            else hi = mid;
        }
        return lo < _candidates.Count && _candidates[lo].Start == sampleNs;
    }

    /// <summary>A CPU sample; <paramref name="knownIntervalNs"/> is the interval in effect when known.</summary>
    public void Sample(long t, long? knownIntervalNs)
    {
        Samples++;
        if (_lastSampleNs >= 0)
        {
            // While the interval is unknown, keep every spacing that could be a gap; Finish decides with the final
            // interval. One changed during the gap is judged by the smaller of the two: Finish takes the one at its
            // start, and an interval raised in the gap must not hide it here.
            long? interval = knownIntervalNs is { } now && _intervalAtLastSample is { } before ? Math.Min(now, before) : null;
            long threshold = IntervalMultiple * (interval ?? SmallestIntervalNs);
            if (t - _lastSampleNs > threshold && _activity > _activityAtLastSample && _candidates.Count < MaxCandidates)
                _candidates.Add(new Gap(_lastSampleNs, t, _events - _eventsAtLastSample, Resumed: true));
        }
        _lastSampleNs = t;
        _intervalAtLastSample = knownIntervalNs;
        _eventsAtLastSample = _events;
        _activityAtLastSample = _activity;
    }

    /// <summary>
    /// A kernel event other than a sample. Only activity (not a stack, which belongs to another event, nor a
    /// rundown, which a logger writes when it starts or stops) shows that the kernel logger kept working;
    /// every event counts in <see cref="Gap.EventsDuring"/>.
    /// </summary>
    public void Event(long t, bool isActivity)
    {
        _events++;
        if (!isActivity) return;
        _activity++;
        _eventsAtLastActivity = _events;
        if (t > _lastActivityNs) _lastActivityNs = t;
    }

    /// <summary>The gaps longer than 10× the interval in effect at their start, including one running to the end of the trace.</summary>
    public IReadOnlyList<Gap> Finish(SampleIntervals intervals)
    {
        var gaps = _candidates.Where(g => g.End - g.Start > IntervalMultiple * intervals.At(g.Start)).ToList();
        if (_lastSampleNs >= 0)
        {
            if (_activity > _activityAtLastSample && _lastActivityNs - _lastSampleNs > IntervalMultiple * intervals.At(_lastSampleNs))
                gaps.Add(new Gap(_lastSampleNs, _lastActivityNs, _eventsAtLastActivity - _eventsAtLastSample, Resumed: false));
        }
        return gaps;
    }

    /// <summary>A span without samples: from the last sample before it to the first after it (or the last activity event, which it counts).</summary>
    public readonly record struct Gap(long Start, long End, long EventsDuring, bool Resumed);
}
