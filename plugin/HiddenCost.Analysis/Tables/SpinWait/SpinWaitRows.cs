using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>Turns the tracker's tallies into the two tables' rows, sorted. Spin figures are samples, each weighed by the profile interval in effect when it was taken.</summary>
internal static class SpinWaitRows
{
    public static IEnumerable<SpinWaitLockRow> PerLock(IEnumerable<LockTally> locks)
    {
        var rows = locks
            .OrderByDescending(l => l.SpinNs)
            .ThenByDescending(l => l.WaitNs)
            .ThenBy(l => l.Key.Process.Pid)
            .ThenBy(l => l.Key.Kind)
            .ThenBy(l => l.Key.Id)
            .ThenBy(l => l.Key.Site, StringComparer.Ordinal);
        foreach (var l in rows)
        {
            double wasted = Ms(l.WastedNs), successful = Ms(l.SuccessfulNs);
            double spin = Ms(l.SpinNs), wait = l.WaitNs / 1e6;
            yield return new SpinWaitLockRow(
                Process: l.Key.Process.Name,
                Pid: l.Key.Process.PidCell,
                LockId: l.Key.Kind == LockKeyKind.LockId ? unchecked((long)l.Key.Id) : null,
                Object: l.Key.Kind == LockKeyKind.Object ? unchecked((long)l.Key.Id) : l.Object is { } o ? unchecked((long)o) : null,
                CallSite: l.DescribeSites(),
                Contentions: l.Contentions,
                Threads: l.Threads.Count,
                WaitMs: wait,
                WastedSpinCpuMs: wasted,
                SuccessfulSpinCpuMs: successful,
                SpinCpuMs: spin,
                SpinSharePercent: spin + wait > 0 ? spin / (spin + wait) * 100.0 : null,
                LongestSpinMs: Ms(l.LongestRunNs),
                First: l.FirstNs,
                Last: l.LastNs
            );
        }
    }

    public static IEnumerable<SpinWaitProcessRow> ByProcess(IEnumerable<ProcessTally> processes, IEnumerable<LockTally> locks)
    {
        var lockSpin = locks.GroupBy(l => l.Key.Process).ToDictionary(g => g.Key, g => g.Sum(l => l.SpinNs));
        var lockThreads = locks.GroupBy(l => l.Key.Process).ToDictionary(g => g.Key, g => g.SelectMany(l => l.Threads).ToHashSet());
        var rows = processes
            .Select(p => (Tally: p, LockSpin: lockSpin.GetValueOrDefault(p.Process)))
            .Where(p => p.LockSpin > 0 || p.Tally.Contentions > 0 || p.Tally.Yields > 0 || p.Tally.DelaySwitches > 0 || p.Tally.OpenMpNs > 0)
            .OrderByDescending(p => p.LockSpin + p.Tally.OpenMpNs)
            .ThenByDescending(p => p.Tally.Yields)
            .ThenByDescending(p => p.Tally.DelaySwitches)
            .ThenBy(p => p.Tally.Process.Pid)
            .ThenBy(p => p.Tally.Process.StartNs);
        foreach (var (p, spinNs) in rows)
        {
            var threads = new HashSet<int>(p.Threads);
            if (lockThreads.TryGetValue(p.Process, out var spun)) threads.UnionWith(spun);
            string? hint = p.MainOpenMpModule is { } module
                ? OpenMpHint.For(module, p.OpenMpNs, p.CpuNs)
                : null;
            yield return new SpinWaitProcessRow(
                Process: p.Process.Name,
                Pid: p.Process.PidCell,
                Threads: threads.Count,
                LockSpinCpuMs: Ms(spinNs),
                Yields: p.Yields,
                YieldsPerSecond: ProcessTally.Rate(p.Yields, p.FirstYieldNs, p.LastYieldNs),
                DelaySwitches: p.DelaySwitches,
                OpenMPRuntimeCpuMs: Ms(p.OpenMpNs),
                Hint: hint
            );
        }
    }

    private static double Ms(long ns) => ns / 1e6;
}
