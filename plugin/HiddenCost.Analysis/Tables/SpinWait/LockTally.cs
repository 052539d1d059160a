namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>What one lock accumulated: contentions, waits, spin runs (CPU ns: each sample weighs the interval in effect when taken), threads and call sites.</summary>
internal sealed class LockTally(LockKey key)
{
    public LockKey Key { get; } = key;
    public ulong? Object;
    public readonly Dictionary<string, int> Sites = new(StringComparer.Ordinal);
    public readonly HashSet<int> Threads = new();
    public long Contentions, WaitNs, WastedNs, SuccessfulNs, LongestRunNs;
    public long FirstNs = long.MaxValue, LastNs = long.MinValue;

    public long SpinNs => WastedNs + SuccessfulNs;

    public void Touch(long t)
    {
        if (t < FirstNs) FirstNs = t;
        if (t > LastNs) LastNs = t;
    }

    public void AddRun(in SpinRun run, int threadId)
    {
        if (run.Wasted) WastedNs += run.CpuNs;
        else SuccessfulNs += run.CpuNs;
        LongestRunNs = Math.Max(LongestRunNs, run.CpuNs);
        Threads.Add(threadId);
        Touch(run.StartNs);
        Touch(run.EndNs);
    }

    /// <summary>The most frequent call site, with how many others there were; null when none is known.</summary>
    public string? DescribeSites()
    {
        if (Key.Kind == LockKeyKind.CallSite) return Key.Site;
        if (Key.Kind == LockKeyKind.Unattributed) return SpinWaitTracker.UnattributedSite;
        if (Sites.Count == 0) return null;
        var top = Sites.OrderByDescending(s => s.Value).ThenBy(s => s.Key, StringComparer.Ordinal).First().Key;
        return Sites.Count == 1 ? top : $"{top} (+{Sites.Count - 1} more)";
    }
}

/// <summary>A finished run of spin samples on one thread.</summary>
/// <param name="CpuNs">Its samples, each weighed by the profile interval in effect when it was taken.</param>
internal readonly record struct SpinRun(long StartNs, long EndNs, long CpuNs, string? Site, bool Named, bool Wasted, RuntimePaths Paths, ulong LastPath = 0);
