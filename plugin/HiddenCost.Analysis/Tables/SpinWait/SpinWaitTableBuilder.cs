using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>Turns the tracker's tallies into the two tables. Spin figures are sample counts × the profile interval.</summary>
internal static class SpinWaitTableBuilder
{
    public static Table PerLock(IEnumerable<LockTally> locks, long intervalNs)
    {
        var table = new Table(SpinWaitTables.PerLock);
        var rows = locks
            .OrderByDescending(l => l.SpinSamples)
            .ThenByDescending(l => l.WaitNs)
            .ThenBy(l => l.Key.Process.Pid)
            .ThenBy(l => l.Key.Kind)
            .ThenBy(l => l.Key.Id)
            .ThenBy(l => l.Key.Site, StringComparer.Ordinal);
        foreach (var l in rows)
        {
            double wasted = Ms(l.WastedSamples, intervalNs), successful = Ms(l.SuccessfulSamples, intervalNs);
            double spin = Ms(l.SpinSamples, intervalNs), wait = l.WaitNs / 1e6;
            table.AddRow(
                l.Key.Process.Name,
                (long)l.Key.Process.Pid,
                l.Key.Kind == LockKeyKind.LockId ? unchecked((long)l.Key.Id) : null,
                l.Key.Kind == LockKeyKind.Object ? unchecked((long)l.Key.Id) : l.Object is { } o ? unchecked((long)o) : null,
                l.DescribeSites(),
                l.Contentions,
                (long)l.Threads.Count,
                wait,
                wasted,
                successful,
                spin,
                spin + wait > 0 ? spin / (spin + wait) * 100.0 : null,
                Ms(l.LongestRunSamples, intervalNs),
                l.FirstNs,
                l.LastNs);
        }
        return table;
    }

    public static Table ByProcess(IEnumerable<ProcessTally> processes, IEnumerable<LockTally> locks, long intervalNs)
    {
        var lockSpin = locks.GroupBy(l => l.Key.Process).ToDictionary(g => g.Key, g => g.Sum(l => l.SpinSamples));
        var lockThreads = locks.GroupBy(l => l.Key.Process).ToDictionary(g => g.Key, g => g.SelectMany(l => l.Threads).ToHashSet());
        var table = new Table(SpinWaitTables.ByProcess);
        var rows = processes
            .Select(p => (Tally: p, LockSpin: lockSpin.GetValueOrDefault(p.Process)))
            .Where(p => p.LockSpin > 0 || p.Tally.Contentions > 0 || p.Tally.Yields > 0 || p.Tally.DelaySwitches > 0 || p.Tally.OpenMpSamples > 0)
            .OrderByDescending(p => p.LockSpin + p.Tally.OpenMpSamples)
            .ThenByDescending(p => p.Tally.Yields)
            .ThenByDescending(p => p.Tally.DelaySwitches)
            .ThenBy(p => p.Tally.Process.Pid)
            .ThenBy(p => p.Tally.Process.StartNs);
        foreach (var (p, spinSamples) in rows)
        {
            var threads = new HashSet<int>(p.Threads);
            if (lockThreads.TryGetValue(p.Process, out var spun)) threads.UnionWith(spun);
            string? hint = p.MainOpenMpModule is { } module
                ? OpenMpHint.For(module, p.OpenMpSamples * intervalNs, p.Samples * intervalNs)
                : null;
            table.AddRow(
                p.Process.Name,
                (long)p.Process.Pid,
                (long)threads.Count,
                Ms(spinSamples, intervalNs),
                p.Yields,
                ProcessTally.Rate(p.Yields, p.FirstYieldNs, p.LastYieldNs),
                p.DelaySwitches,
                Ms(p.OpenMpSamples, intervalNs),
                hint);
        }
        return table;
    }

    private static double Ms(long samples, long intervalNs) => samples * (double)intervalNs / 1e6;
}
