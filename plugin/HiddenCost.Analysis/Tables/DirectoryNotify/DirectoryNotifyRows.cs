using HiddenCost.Analysis.Common;

namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>
/// Turns the tracker's watches and victim counts (processes already resolved) into the two tables' rows, sorted;
/// watches still active at <c>traceEndNs</c> end there.
/// </summary>
internal static class DirectoryNotifyRows
{
    public static IEnumerable<NotifyBufferRow> Buffers(IReadOnlyList<WatchHandle> handles,
        IReadOnlyDictionary<(ProcessRef Watcher, WatchedDirectory Directory), HashSet<ProcessRef>> victimsOfWatcher,
        Func<WatchedDirectory, string> directoryName, long traceEndNs)
    {
        var rows = handles.GroupBy(h => (h.Process, h.Directory, h.BufferBytes, Name: directoryName(h.Directory)))
            .OrderByDescending(g => g.Sum(h => h.Completions) * g.Key.BufferBytes)
            .ThenBy(g => g.Key.Process.Pid).ThenBy(g => g.Key.Name, StringComparer.Ordinal);
        foreach (var g in rows)
        {
            long completions = g.Sum(h => h.Completions), overflows = g.Sum(h => h.Overflows);
            long bytes = g.Sum(h => h.BytesReturned), dataCompletions = g.Sum(h => h.DataCompletions);
            long largest = g.Max(h => h.LargestBatch);
            double? mean = dataCompletions > 0 ? (double)bytes / dataCompletions : null;
            long? last = g.Max(h => h.LastCompletionNs) is var l && l >= 0 ? l : null;
            // The processes whose changes this watcher's buffer reported: those made while it watched.
            var seen = victimsOfWatcher.GetValueOrDefault((g.Key.Process, g.Key.Directory)) ?? (IEnumerable<ProcessRef>)Array.Empty<ProcessRef>();
            yield return new NotifyBufferRow(
                Process: g.Key.Process.Name,
                Pid: g.Key.Process.PidCell,
                Directory: g.Key.Name,
                BufferBytes: g.Key.BufferBytes,
                Arms: g.Sum(h => h.Arms),
                Completions: completions,
                Overflows: overflows,
                BytesReturned: bytes,
                MeanBytesPerCompletion: mean,
                UtilisationPercent: mean / g.Key.BufferBytes * 100.0,
                BytesZeroed: completions * g.Key.BufferBytes,
                VictimProcesses: string.Join(", ", seen.OrderBy(p => p.Name, StringComparer.OrdinalIgnoreCase).ThenBy(p => p.Pid)),
                RecommendedBufferBytes: BufferRecommendation.For(g.Key.BufferBytes, completions, overflows, largest),
                FirstArm: g.Min(h => h.FirstArmNs),
                LastCompletion: last,
                WatchEnd: g.Max(h => Math.Min(h.EndNs, traceEndNs))
            );
        }
    }

    public static IEnumerable<NotifyVictimRow> Victims(IReadOnlyList<WatchHandle> handles,
        IReadOnlyDictionary<(ProcessRef Process, WatchedDirectory Directory), VictimCounts> victims, Func<WatchedDirectory, string> directoryName,
        bool notifyCpuKnown = false)
    {
        var watcherCount = handles.GroupBy(h => h.Directory).ToDictionary(g => g.Key, g => (long)g.Select(h => (h.Process, h.BufferBytes)).Distinct().Count());
        // Every victim's changes were seen by another process's watch (Resolve kept only those).
        var victimsByDirectory = victims
            .GroupBy(v => v.Key.Directory)
            .ToDictionary(g => g.Key, g => g.ToArray());
        // Two directories may bear one name (a file key reused, a handle without one): the one watched first comes first.
        var firstArm = handles.GroupBy(h => h.Directory).ToDictionary(g => g.Key, g => g.Min(h => h.FirstArmNs));
        foreach (var (directory, list) in victimsByDirectory.OrderBy(d => directoryName(d.Key), StringComparer.Ordinal)
                     .ThenBy(d => firstArm[d.Key]).ThenBy(d => d.Key.Key))
        {
            long watchers = watcherCount[directory];
            foreach (var (key, c) in list.OrderByDescending(v => v.Value.Operations).ThenBy(v => v.Key.Process.Pid))
                yield return new NotifyVictimRow(
                    Process: key.Process.Name,
                    Pid: key.Process.PidCell,
                    Directory: directoryName(directory),
                    FileOperations: c.Operations,
                    Creates: c.Creates,
                    Deletes: c.Deletes,
                    Renames: c.Renames,
                    DemandZeroFaults: c.DemandZeroFaults,
                    Watchers: watchers,
                    NotifyCpuMs: notifyCpuKnown ? c.NotifyCpuNs / 1e6 : null
                );
        }
    }
}
