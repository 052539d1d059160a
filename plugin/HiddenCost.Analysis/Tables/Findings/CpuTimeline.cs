using HiddenCost.Analysis.Common;
using HiddenCost.Etl;
using HiddenCost.Etl.Decoding.Kernel;

namespace HiddenCost.Analysis.Tables.Findings;

/// <summary>
/// The trace's sampled CPU over time, for the Share of CPU column: non-idle CPU samples counted in 10 ms buckets, each
/// weighed by the profile interval in effect. Null shares when the trace has no samples.
/// </summary>
public sealed class CpuTimeline
{
    private const long BucketNs = 10_000_000;

    /// <summary>More buckets than this (a trace longer than about 115 days) and later samples count into the last.</summary>
    private const int MaximumBuckets = 1 << 20;

    private readonly List<int> _samples = new();
    private readonly SampleIntervals _intervals = new();
    private long _total;

    /// <summary>Feeds one event: CPU samples and profile-interval events are kept, the rest ignored.</summary>
    public void Observe(in EtwEvent e)
    {
        if (!e.IsKernel || e.Group != KernelGroups.PerfInfo) return;
        if (e.Opcode == SampledProfile.Opcode && SampledProfile.TryDecode(e, out var sample))
        {
            if (sample.ThreadId == 0 || e.TimeNs < 0) return; // the idle threads: a processor with nothing to run
            int bucket = (int)Math.Min(e.TimeNs / BucketNs, MaximumBuckets - 1);
            while (_samples.Count <= bucket) _samples.Add(0);
            _samples[bucket]++;
            _total++;
        }
        else if (e.Opcode is ProfileInterval.SetInterval or ProfileInterval.CollectionStart or ProfileInterval.CollectionEnd
                 && ProfileInterval.TryDecode(e, out var interval) && interval.Source == 0)
        {
            _intervals.Set(e.TimeNs, interval.IntervalNs, interval.PreviousIntervalNs);
        }
    }

    /// <summary>Busy CPU in ms between two times (buckets cut in proportion), or null when the trace has no samples.</summary>
    public double? BusyMs(long startNs, long endNs)
    {
        if (_total == 0 || endNs < startNs) return null;
        double busyNs = 0;
        long first = Math.Max(0, startNs / BucketNs), last = Math.Min(_samples.Count - 1, endNs / BucketNs);
        for (long b = first; b <= last; b++)
        {
            long from = Math.Max(startNs, b * BucketNs), to = Math.Min(endNs, (b + 1) * BucketNs);
            double part = endNs == startNs ? 1 : Math.Max(0, to - from) / (double)BucketNs;
            busyNs += _samples[(int)b] * part * _intervals.At(b * BucketNs);
        }
        return busyNs / 1e6;
    }

    /// <summary>Cost as a share of the busy CPU over its interval, or null when either is unknown.</summary>
    public double? SharePercent(double? costMs, long? startNs, long? endNs) =>
        costMs is { } cost && startNs is { } s && endNs is { } e && BusyMs(s, e) is { } busy && busy > 0 ? cost / busy * 100 : null;
}
