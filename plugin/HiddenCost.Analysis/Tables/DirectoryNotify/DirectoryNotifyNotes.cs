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

/// <summary>The notes of the two Directory Notify tables: what the trace lacks, and what could not be counted.</summary>
internal static class DirectoryNotifyNotes
{
    private const string RecordWith = "record with `wpr -start MultiProfile.wprp!DirNotify`";

    /// <summary>What the tracker could not count.</summary>
    public static void AddLosses(Table buffers, Table victims, DirectoryNotifyLosses losses)
    {
        if (losses.ImplausibleCompletions > 0)
            buffers.AddNote(TableNote.Warning("directory-notify.implausible-completions",
                $"{losses.ImplausibleCompletions:N0} completions returned more bytes than their watcher's buffer holds: another request " +
                "reused the IRP of a notify whose own completion was not logged (events lost?); they are not counted."));
        if (losses.UnnamedDirectories > 0)
        {
            const string Why = "watched directories were never named (no FileIo Name, FileCreate or FileRundown event for their file key): " +
                               "they show as 'FileKey 0x…', and changes inside them cannot be placed, so their victims are missing " +
                               "(" + RecordWith + ", which logs file names and their rundown).";
            var note = TableNote.Info("directory-notify.unnamed-directories", $"{losses.UnnamedDirectories:N0} {Why}");
            buffers.AddNote(note);
            victims.AddNote(note);
        }
        if (losses.SubtreeChanges > 0)
        {
            var note = TableNote.Info("directory-notify.subtree-changes",
                $"{losses.SubtreeChanges:N0} changes were in subdirectories of the watched directories, counted as if every watch covered its " +
                "subtree (FileSystemWatcher.IncludeSubdirectories, ReadDirectoryChangesW's bWatchSubtree), which the trace does not say: a watch of " +
                "its directory alone was told of none of them.");
            buffers.AddNote(note);
            victims.AddNote(note);
        }
        if (losses.DroppedChanges > 0)
            victims.AddNote(TableNote.Info("directory-notify.dropped-changes",
                $"{losses.DroppedChanges:N0} file changes could not be placed in a directory (the trace named neither the file nor its directory in time)."));
        if (losses.OverflowedChanges > 0)
            victims.AddNote(TableNote.Warning("directory-notify.overflowed-changes",
                $"{losses.OverflowedChanges:N0} file changes are not counted: while a watched directory had no name yet, every change waited for the end " +
                $"of the trace to be placed, and past {losses.MaxDeferredChanges:N0} waiting the rest were let go (Victims' counts are low)."));
    }

    /// <summary>What the trace lacks: the events the analysis counted none of (<paramref name="dirNotify"/> and the others are counts).</summary>
    /// <param name="notifyCpuKnown">True when kernel names resolved and Notify CPU was measured: no note says it is empty.</param>
    public static void AddMissingEvents(Table buffers, Table victims, long dirNotify, long operationEnd, long names, long demandZero, bool notifyCpuKnown = false)
    {
        if (dirNotify == 0)
        {
            var missing = new List<string> { "FileIo DirNotify" };
            if (operationEnd == 0) missing.Add("OperationEnd");
            if (names == 0) missing.Add("file-name events");
            if (demandZero == 0) missing.Add("DemandZero page faults");
            var note = TableNote.Info("directory-notify.no-watchers", $"The trace has no {string.Join(", ", missing)} events, so no directory watcher can be seen: " +
                                                                    RecordWith + ".");
            buffers.AddNote(note);
            victims.AddNote(note);
        }
        else
        {
            if (operationEnd == 0)
                buffers.AddNote(TableNote.Info("directory-notify.no-operation-end",
                    $"No FileIo OperationEnd events: completions and bytes returned cannot be counted ({RecordWith})."));
            if (demandZero == 0)
                victims.AddNote(TableNote.Info("directory-notify.no-demand-zero-faults",
                    $"No DemandZero page faults in the trace: the Demand-Zero Faults column is 0 for want of data ({RecordWith})."));
        }
        if (!notifyCpuKnown)
            victims.AddNote(TableNote.Info("directory-notify.no-notify-cpu",
                "Notify CPU (ms) needs kernel function names (FsRtlNotify*/memset), which HiddenCost does not read (no symbol files): " +
                "empty. In WPA, load symbols and see CPU Usage (Sampled) under the stack tag Directory Notify Buffer Zeroing."));
    }
}
