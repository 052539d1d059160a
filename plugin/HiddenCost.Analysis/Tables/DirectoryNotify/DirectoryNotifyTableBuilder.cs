using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>What the tracker could not count, for the tables' notes.</summary>
/// <param name="ImplausibleCompletions">Completions that returned more than their watcher's buffer holds.</param>
/// <param name="UnnamedDirectories">Watched directories the trace never named.</param>
/// <param name="DroppedChanges">Changes whose file and directory were never named.</param>
/// <param name="OverflowedChanges">Changes let go past <paramref name="MaxDeferredChanges"/> waiting to be placed.</param>
/// <param name="SubtreeChanges">Changes counted only because a watch was taken to cover its directory's subtree.</param>
internal readonly record struct DirectoryNotifyLosses(long ImplausibleCompletions, long UnnamedDirectories, long DroppedChanges,
    long OverflowedChanges, int MaxDeferredChanges, long SubtreeChanges = 0);

/// <summary>
/// Turns the tracker's watches and victim counts (processes already resolved) into the two tables; watches still
/// active at <c>traceEndNs</c> end there.
/// </summary>
internal static class DirectoryNotifyTableBuilder
{
    public static (Table Buffers, Table Victims) Build(IReadOnlyList<WatchHandle> handles,
        IReadOnlyDictionary<(ProcessRef Process, WatchedDirectory Directory), VictimCounts> victims,
        IReadOnlyDictionary<(ProcessRef Watcher, WatchedDirectory Directory), HashSet<ProcessRef>> victimsOfWatcher,
        Func<WatchedDirectory, string> directoryName, DirectoryNotifyLosses losses, long traceEndNs)
    {
        var watcherCount = handles.GroupBy(h => h.Directory).ToDictionary(g => g.Key, g => (long)g.Select(h => (h.Process, h.BufferBytes)).Distinct().Count());
        // Every victim's changes were seen by another process's watch (Resolve kept only those).
        var victimsByDirectory = victims
            .GroupBy(v => v.Key.Directory)
            .ToDictionary(g => g.Key, g => g.ToArray());

        var buffers = new Table(DirectoryNotifyTables.Buffers);
        var rows = handles.GroupBy(h => (h.Process, h.Directory, h.BufferBytes, Name: directoryName(h.Directory)))
            .OrderByDescending(g => g.Sum(h => h.Completions) * g.Key.BufferBytes)
            .ThenBy(g => g.Key.Process.Pid).ThenBy(g => g.Key.Name, StringComparer.Ordinal);
        foreach (var g in rows)
        {
            long arms = g.Sum(h => h.Arms), completions = g.Sum(h => h.Completions), overflows = g.Sum(h => h.Overflows);
            long bytes = g.Sum(h => h.BytesReturned), dataCompletions = g.Sum(h => h.DataCompletions);
            long largest = g.Max(h => h.LargestBatch);
            double? mean = dataCompletions > 0 ? (double)bytes / dataCompletions : null;
            long? last = g.Max(h => h.LastCompletionNs) is var l && l >= 0 ? l : null;
            // The processes whose changes this watcher's buffer reported: those made while it watched.
            var seen = victimsOfWatcher.GetValueOrDefault((g.Key.Process, g.Key.Directory)) ?? (IEnumerable<ProcessRef>)Array.Empty<ProcessRef>();
            buffers.AddRow(g.Key.Process.Name, g.Key.Process.PidCell, g.Key.Name, g.Key.BufferBytes,
                arms, completions, overflows, bytes, mean, mean / g.Key.BufferBytes * 100.0,
                completions * g.Key.BufferBytes,
                string.Join(", ", seen.OrderBy(p => p.Name, StringComparer.OrdinalIgnoreCase).ThenBy(p => p.Pid)),
                BufferRecommendation.For(g.Key.BufferBytes, completions, overflows, largest),
                g.Min(h => h.FirstArmNs), last, g.Max(h => Math.Min(h.EndNs, traceEndNs)));
        }

        var victimTable = new Table(DirectoryNotifyTables.Victims);
        // Two directories may bear one name (a file key reused, a handle without one): the one watched first comes first.
        var firstArm = handles.GroupBy(h => h.Directory).ToDictionary(g => g.Key, g => g.Min(h => h.FirstArmNs));
        foreach (var (directory, list) in victimsByDirectory.OrderBy(d => directoryName(d.Key), StringComparer.Ordinal)
                     .ThenBy(d => firstArm[d.Key]).ThenBy(d => d.Key.Key))
        {
            long watchers = watcherCount[directory];
            foreach (var (key, c) in list.OrderByDescending(v => v.Value.Operations).ThenBy(v => v.Key.Process.Pid))
                victimTable.AddRow(key.Process.Name, key.Process.PidCell, directoryName(directory), c.Operations, c.Creates,
                    c.Deletes, c.Renames, c.DemandZeroFaults, watchers, null);
        }
        if (losses.ImplausibleCompletions > 0)
            buffers.AddNote($"{losses.ImplausibleCompletions:N0} completions returned more bytes than their watcher's buffer holds: another request " +
                            "reused the IRP of a notify whose own completion was not logged (events lost?); they are not counted.");
        if (losses.UnnamedDirectories > 0)
        {
            const string Why = "watched directories were never named (no FileIo Name, FileCreate or FileRundown event for their file key): " +
                               "they show as 'FileKey 0x…', and changes inside them cannot be placed, so their victims are missing " +
                               "(record with `wpr -start MultiProfile.wprp!DirNotify`, which logs file names and their rundown).";
            buffers.AddNote($"{losses.UnnamedDirectories:N0} {Why}");
            victimTable.AddNote($"{losses.UnnamedDirectories:N0} {Why}");
        }
        if (losses.SubtreeChanges > 0)
        {
            var subtree = $"{losses.SubtreeChanges:N0} changes were in subdirectories of the watched directories, counted as if every watch covered its " +
                          "subtree (FileSystemWatcher.IncludeSubdirectories, ReadDirectoryChangesW's bWatchSubtree), which the trace does not say: a watch of " +
                          "its directory alone was told of none of them.";
            buffers.AddNote(subtree);
            victimTable.AddNote(subtree);
        }
        if (losses.DroppedChanges > 0)
            victimTable.AddNote($"{losses.DroppedChanges:N0} file changes could not be placed in a directory (the trace named neither the file nor its directory in time).");
        if (losses.OverflowedChanges > 0)
            victimTable.AddNote($"{losses.OverflowedChanges:N0} file changes are not counted: while a watched directory had no name yet, every change waited for the end " +
                                $"of the trace to be placed, and past {losses.MaxDeferredChanges:N0} waiting the rest were let go (Victims' counts are low).");
        return (buffers, victimTable);
    }
}
