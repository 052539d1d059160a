using HiddenCost.Analysis.Common;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>What one process accumulated: its samples, contentions, yields, delay switches and OpenMP runtime samples.</summary>
internal sealed class ProcessTally(ProcessRef process)
{
    public ProcessRef Process { get; } = process;
    public readonly HashSet<int> Threads = new();
    public readonly Dictionary<string, long> OpenMpModules = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>Call site → the locks that contended there, in time order (to place successful spins).</summary>
    public readonly Dictionary<string, List<(long Time, LockTally Lock)>> SiteContentions = new(StringComparer.Ordinal);

    /// <summary>Runtime code paths proven to be spinning in this process (taken by runs that ended in or spun inside a contention).</summary>
    public readonly HashSet<ulong> SpinPaths = new();
    /// <summary>CPU time sampled (ns: samples weighed by the interval in effect), and of it in the OpenMP runtime.</summary>
    public long CpuNs, OpenMpNs;
    public long Contentions, Yields, DelaySwitches;
    public long FirstYieldNs = long.MaxValue, LastYieldNs = long.MinValue;

    public void Yield(long t, int threadId) => AddYields(1, t, t, threadId);

    /// <summary>A thread's <paramref name="count"/> yields, the first and last at those times.</summary>
    public void AddYields(long count, long firstNs, long lastNs, int threadId)
    {
        Yields += count;
        Threads.Add(threadId);
        FirstYieldNs = Math.Min(FirstYieldNs, firstNs);
        LastYieldNs = Math.Max(LastYieldNs, lastNs);
    }

    public void Delay(int threadId, long count = 1)
    {
        DelaySwitches += count;
        Threads.Add(threadId);
    }

    /// <summary>Events per second over the span from the first to the last; null for fewer than two or no span.</summary>
    public static double? Rate(long count, long firstNs, long lastNs) =>
        count >= 2 && lastNs > firstNs ? (count - 1) * 1e9 / (lastNs - firstNs) : null;

    /// <summary>The OpenMP module the process spent most samples in.</summary>
    public string? MainOpenMpModule => OpenMpModules.Count == 0 ? null
        : OpenMpModules.OrderByDescending(m => m.Value).ThenBy(m => m.Key, StringComparer.OrdinalIgnoreCase).First().Key;
}
