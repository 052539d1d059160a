namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>What one lock accumulated: contentions, waits, spin runs (in samples), threads and call sites.</summary>
internal sealed class LockTally(LockKey key)
{
    public LockKey Key { get; } = key;
    public ulong? Object;
    public readonly Dictionary<string, int> Sites = new(StringComparer.Ordinal);
    public readonly HashSet<int> Threads = new();
    public long Contentions, WaitNs, WastedSamples, SuccessfulSamples, LongestRunSamples;
    public long FirstNs = long.MaxValue, LastNs = long.MinValue;

    public long SpinSamples => WastedSamples + SuccessfulSamples;

    public void Touch(long t)
    {
        if (t < FirstNs) FirstNs = t;
        if (t > LastNs) LastNs = t;
    }

    public void AddRun(in SpinRun run, int threadId)
    {
        if (run.Wasted) WastedSamples += run.Samples;
        else SuccessfulSamples += run.Samples;
        LongestRunSamples = Math.Max(LongestRunSamples, run.Samples);
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
internal readonly record struct SpinRun(long StartNs, long EndNs, long Samples, string? Site, bool Named, bool Wasted, RuntimePaths Paths);
