using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Model;
using HiddenCost.Etl.Decoding;

namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>
/// The Directory Notify analysis without ETW types: fed decoded FileIo and page-fault facts in time order,
/// it tracks every watch handle, matches completions to arms by IRP, attributes file changes in watched
/// directories to victim processes, and builds the two tables. Names may arrive late (file rundown comes at
/// the end of a trace), so changes it cannot place yet are kept, bounded, and placed at the end. So may processes
/// (WPR's memory mode describes them only in the rundown at the end): <see cref="Build"/> takes the mapping from
/// the processes it was given to the processes they turned out to be.
/// </summary>
public sealed class DirectoryNotifyTracker
{
    private const int MaxDeferredChanges = 4_000_000;

    private readonly Dictionary<ulong, string> _names = new();
    private readonly Dictionary<ulong, WatchHandle> _handles = new();
    private readonly Dictionary<ulong, WatchHandle> _pendingNotify = new();
    private readonly Dictionary<ulong, PendingCreate> _pendingCreates = new();
    private readonly Dictionary<ulong, PendingCreate> _deleteOnClose = new();
    private readonly List<WatchHandle> _allHandles = new();
    private readonly List<WatchHandle> _active = new();

    private readonly DemandZeroFaultTally _faults = new();
    private readonly DemandZeroFaultTally _notifyCpu = new();
    private bool _notifyCpuKnown;
    private readonly Dictionary<ulong, WatchedDirectory> _directoryOf = new();
    // Changes are counted by changer, directory and the processes watching it at the time, as the tracker was given
    // them: in WPR's memory mode a process older than the trace is a stand-in per thread until the rundown at the end
    // names it, so whether the changer was one of the watchers (not a victim of its own buffer) is decided only when
    // the table is built, with the processes they turned out to be.
    private readonly Dictionary<(ProcessRef Process, WatchedDirectory Directory, WatchingProcesses Watchers), VictimCounts> _changes = new();
    private readonly Dictionary<ProcessRef[], WatchingProcesses> _watcherSets = new(WatchingProcesses.ContentComparer);
    private readonly List<WatchingProcesses> _foundSets = new();
    private readonly List<ProcessRef> _setBuffer = new();
    private ProcessRef? _lastChanger;
    private WatchedDirectory? _lastDirectory;
    private WatchingProcesses? _lastWatchers;
    private VictimCounts? _lastCounts;
    private readonly Dictionary<(ProcessRef Process, WatchedDirectory Directory), VictimCounts> _victims = new();
    // Each watcher's victims: the processes that changed files in its directory while it watched (not while only others did).
    private readonly Dictionary<(ProcessRef Watcher, WatchedDirectory Directory), HashSet<ProcessRef>> _victimsOfWatcher = new();
    private readonly List<DeferredChange> _deferred = new();
    // Each fault or change stamps the directories it has counted, so one counted once per directory costs O(1) per
    // watch instead of a search of those already counted (which made a fault cost watches × directories).
    private long _countStamp;
    // The directories with active watches, by name, kept as watches start and end and directories are named; those
    // watched but not named yet are only counted (while there are any, changes wait for the end of the trace).
    private readonly DirectoryIndex<WatchedDirectory> _activeByName = new();
    private readonly List<WatchedDirectory> _found = new();
    private readonly List<DirectoryWatchCoverage> _foundPeriods = new();
    private int _activeUnnamed;
    private long _droppedChanges, _overflowedChanges, _implausibleCompletions, _subtreeChanges;
    private long _latestNs;

    /// <summary>
    /// A name event: FileKey (or FileObject) → NT path. A key is an address the kernel reuses once a file is
    /// closed, so a watched directory keeps the name it had while watched, not one its key is given later
    /// (a file rundown at the end names whatever holds the key then).
    /// </summary>
    /// <summary>
    /// A file key named by an event's payload text: made a string (from <paramref name="strings"/>) only when it names
    /// the key anew. Name events and rundowns repeat most keys' names, and naming a key as it is named changes nothing.
    /// </summary>
    public void FileName(ulong fileKey, ReadOnlySpan<char> name, StringPool strings)
    {
        if (fileKey == 0 || name.IsEmpty || (_names.TryGetValue(fileKey, out var old) && name.SequenceEqual(old))) return;
        FileName(fileKey, strings.Intern(name));
    }

    public void FileName(ulong fileKey, string name)
    {
        if (fileKey == 0 || name.Length == 0) return;
        // A watched key named anew: its watches keep the old name, and watches armed from now on are of another
        // directory (victims are counted per directory, so the two never merge).
        bool named = _names.TryGetValue(fileKey, out var old);
        if (named && old != name && _directoryOf.Remove(fileKey, out var watched))
            watched.Name ??= old;
        _names[fileKey] = name;
        // A watched directory named for the first time: from now on its changes are placed as they come.
        if (!named && _directoryOf.TryGetValue(fileKey, out var unnamed) && unnamed.ActiveWatches.Count > 0)
        {
            _activeUnnamed--;
            _activeByName.Add(name, unnamed);
        }
    }

    /// <summary>A DirNotify request: the watcher (re-)arms its buffer on a directory handle.</summary>
    public void Arm(long t, ulong irp, ulong fileObject, ulong fileKey, ProcessRef process, long bufferBytes)
    {
        _latestNs = Math.Max(_latestNs, t);
        // A watch belongs to the process that first armed it: re-arms come from whichever thread completed the last
        // request (a thread pool's), whose process may be known only at the end of the trace (a stand-in per thread).
        if (!_handles.TryGetValue(fileObject, out var handle) || handle.EndNs != long.MaxValue || handle.BufferBytes != bufferBytes)
        {
            // Another buffer size on a handle still watching: the old watch is over.
            if (handle is not null && handle.EndNs == long.MaxValue) End(handle, t);
            ulong key = fileKey != 0 ? fileKey : fileObject;
            if (!_directoryOf.TryGetValue(key, out var directory)) _directoryOf[key] = directory = new WatchedDirectory(key);
            handle = new WatchHandle(fileObject, directory, process, bufferBytes, t);
            _handles[fileObject] = handle;
            _allHandles.Add(handle);
            _faults.WatchesChanged(t);
            _notifyCpu.WatchesChanged(t);
            _active.Add(handle);
            if (directory.ActiveWatches.Count == 0)
            {
                if (NameOf(directory) is { } name) _activeByName.Add(name, directory);
                else _activeUnnamed++;
            }
            directory.ActiveWatches.Add(handle);
            directory.Watchers = null;
        }
        handle.Arms++;
        // An IRP is reused once its request completes: one still pending here had its completion lost.
        _pendingCreates.Remove(irp);
        _pendingNotify[irp] = handle;
    }

    /// <summary>FileIo OperationEnd: completes a pending DirNotify or Create with the same IRP.</summary>
    public void OperationEnd(long t, ulong irp, ulong information, uint status)
    {
        _latestNs = Math.Max(_latestNs, t);
        if (_pendingNotify.Remove(irp, out var handle))
        {
            if (information > (ulong)handle.BufferBytes)
            {
                // More than the buffer holds: not this notify's completion but another request that reused the IRP
                // after the notify's own completion went unlogged (events lost in a storm). Not counted.
                _implausibleCompletions++;
                return;
            }
            switch (status)
            {
                case NtStatus.Success:
                    handle.Completions++;
                    handle.BytesReturned += (long)information;
                    if (information > 0) handle.DataCompletions++;
                    handle.LargestBatch = Math.Max(handle.LargestBatch, (long)information);
                    handle.LastCompletionNs = t;
                    break;
                case NtStatus.NotifyEnumDir:
                    handle.Completions++;
                    handle.Overflows++;
                    handle.LastCompletionNs = t;
                    break;
                default:
                    // Cancelled, cleanup or an error: the watch ended without a change batch — unless its handle's
                    // Cleanup ended it already (a closed watcher's pending request completes with NOTIFY_CLEANUP
                    // after it), which must not end it twice.
                    if (handle.EndNs == long.MaxValue) End(handle, t);
                    break;
            }
            return;
        }
        if (_pendingCreates.Remove(irp, out var create))
        {
            // IoStatus.Information of a create: 0 superseded, 1 opened, 2 created, 3 overwritten — for a create that
            // succeeded; STATUS_REPARSE (sent on to another path: Information 0 or 2 then means IO_REPARSE or
            // IO_REPARSE_GLOBAL) and warnings or errors changed nothing.
            bool changed = status >> 30 == 0 && status != NtStatus.Reparse && information is 0 or 2 or 3;
            if (changed) Record(create.Time, FileChangeKind.Create, create.Process, create.Path, 0);
        }
    }

    /// <summary>A FileIo Create; counted as a change when its disposition can create or replace a file.</summary>
    /// <param name="deleteOnClose">
    /// FILE_DELETE_ON_CLOSE: the file goes when its last handle is closed (its Cleanup), with no Delete or SetInfo
    /// event, and the directory's watchers are told of it then.
    /// </param>
    public void Create(long t, ulong irp, ulong fileObject, ProcessRef process, string path, int disposition, bool deleteOnClose = false)
    {
        _latestNs = Math.Max(_latestNs, t);
        if (fileObject != 0)
        {
            if (deleteOnClose && _deleteOnClose.Count < MaxDeferredChanges) _deleteOnClose[fileObject] = new PendingCreate(t, process, path);
            else _deleteOnClose.Remove(fileObject); // the file object is another file's now
        }
        // 0 Supersede, 2 Create, 3 OpenIf, 4 Overwrite, 5 OverwriteIf can change the directory; 1 Open never does.
        if (irp != 0) _pendingNotify.Remove(irp); // the IRP is reused: a notify still pending on it lost its completion
        if (disposition is not (0 or 2 or 3 or 4 or 5)) return;
        if (irp != 0) _pendingCreates[irp] = new PendingCreate(t, process, path);
        else if (disposition != 3) Record(t, FileChangeKind.Create, process, path, 0);
        if (_pendingCreates.Count > MaxDeferredChanges) _pendingCreates.Clear();
    }

    /// <summary>A delete, rename or write of the file with <paramref name="fileKey"/>.</summary>
    public void Change(long t, FileChangeKind kind, ulong fileKey, ProcessRef process)
    {
        _latestNs = Math.Max(_latestNs, t);
        _names.TryGetValue(fileKey, out var path);
        Record(t, kind, process, path, fileKey);
    }

    /// <summary>FileIo Cleanup/Close of a file object: ends a watch on that handle.</summary>
    public void Cleanup(long t, ulong fileObject)
    {
        _latestNs = Math.Max(_latestNs, t);
        if (_handles.TryGetValue(fileObject, out var handle) && handle.EndNs == long.MaxValue) End(handle, t);
        if (_deleteOnClose.Remove(fileObject, out var doomed)) Record(t, FileChangeKind.Delete, doomed.Process, doomed.Path, 0);
    }

    /// <summary>
    /// The period of the current set of active watches, or null when none is active: a CPU sample taken now may be a
    /// victim's notify-buffer work, to be given to <see cref="NotifyCpu"/> with this period once its stack is known.
    /// </summary>
    public long? WatchPeriod => _active.Count > 0 ? _notifyCpu.PeriodStart : null;

    /// <summary>
    /// Says that Notify CPU can be known (kernel names resolve); <paramref name="ns"/> of CPU, sampled in
    /// <paramref name="process"/> in the kernel's notify-buffer path during <paramref name="period"/> (<see cref="WatchPeriod"/>), when positive.
    /// </summary>
    public void NotifyCpu(ProcessRef? process, long period, long ns)
    {
        _notifyCpuKnown = true;
        if (process is not null && ns > 0) _notifyCpu.AddToPeriod(process, period, ns);
    }

    /// <summary>A demand-zero page fault in <paramref name="process"/>.</summary>
    public void DemandZero(long t, ProcessRef process)
    {
        _latestNs = Math.Max(_latestNs, t);
        if (_active.Count > 0) _faults.Fault(process);
    }

    /// <param name="final">The process each process given to the tracker turned out to be (identity when null).</param>
    /// <param name="traceEndNs">Where watches still active end (the latest time the tracker was given when null).</param>
    public (Table<NotifyBufferRow> Buffers, Table<NotifyVictimRow> Victims) Build(Func<ProcessRef, ProcessRef>? final = null, long? traceEndNs = null)
    {
        _faults.WatchesChanged(long.MaxValue);
        if (_deferred.Count > 0)
        {
            var everyWatch = AllByName();
            foreach (var d in _deferred)
            {
                var path = d.Path ?? _names.GetValueOrDefault(d.FileKey);
                if (path is null) _droppedChanges++;
                else Place(d.Time, d.Kind, d.Process, Containing(everyWatch, path, d.Time, d.Process), path);
            }
        }
        _deferred.Clear();
        final ??= p => p;
        Resolve(final);
        var watchers = WatchersByDirectory();
        _faults.CountInto(_victims, watchers, final);
        _notifyCpu.CountInto(_victims, watchers, final, static (c, ns) => c.NotifyCpuNs += ns);

        long unnamed = _allHandles.Select(h => h.Directory).Distinct().LongCount(d => NameOf(d) is null);
        var losses = new DirectoryNotifyLosses(_implausibleCompletions, unnamed, _droppedChanges, _overflowedChanges, MaxDeferredChanges, _subtreeChanges);
        var buffers = DirectoryNotifyTables.Buffers.Table(
            DirectoryNotifyRows.Buffers(_allHandles, _victimsOfWatcher, DirectoryName, Math.Max(traceEndNs ?? _latestNs, _latestNs)));
        var victims = DirectoryNotifyTables.Victims.Table(DirectoryNotifyRows.Victims(_allHandles, _victims, DirectoryName, _notifyCpuKnown));
        DirectoryNotifyNotes.AddLosses(buffers, victims, losses);
        return (buffers, victims);
    }

    /// <summary>Puts every watch handle and victim count under the process it turned out to be, merging counts.</summary>
    private void Resolve(Func<ProcessRef, ProcessRef> final)
    {
        foreach (var h in _allHandles) h.Process = final(h.Process);
        // Built afresh from the changes (which stay as counted), so the table can be built again alike.
        _victims.Clear();
        _victimsOfWatcher.Clear();
        foreach (var ((process, directory, watchers), c) in _changes)
        {
            var changer = final(process);
            // A watcher's own change while only it watched (however many stand-ins it had) is nobody's victim.
            if (!watchers.Processes.Any(w => final(w) != changer)) continue;
            var key = (changer, directory);
            if (!_victims.TryGetValue(key, out var into)) _victims[key] = into = new VictimCounts();
            into.Add(c);
            foreach (var w in watchers.Processes)
            {
                var watcher = final(w);
                if (watcher == changer) continue;
                if (!_victimsOfWatcher.TryGetValue((watcher, directory), out var of)) _victimsOfWatcher[(watcher, directory)] = of = new HashSet<ProcessRef>();
                of.Add(changer);
            }
        }
    }

    private void Record(long t, FileChangeKind kind, ProcessRef process, string? path, ulong fileKey)
    {
        if (_active.Count == 0) return;
        if (path is not null && ActiveDirectoriesNamed())
        {
            Place(t, kind, process, ActiveContaining(path, t, process), path);
            return;
        }
        if (_deferred.Count < MaxDeferredChanges) _deferred.Add(new DeferredChange(t, kind, process, path, fileKey));
        else _overflowedChanges++;
    }

    /// <summary>
    /// Counts a change once for each of <paramref name="directories"/> (those holding the file, watched at the time),
    /// with the processes then watching each (<see cref="_foundSets"/>, in the same order).
    /// </summary>
    private void Place(long t, FileChangeKind kind, ProcessRef process, List<WatchedDirectory> directories, string path)
    {
        long stamp = ++_countStamp;
        // A change below a watched directory's own entries counts only if the watch covers its subtree, which the
        // trace does not say (bWatchSubtree is no DirNotify field): counted, and the tables say how many.
        var parent = ParentOf(path);
        bool direct = false;
        for (int i = 0; i < directories.Count && !direct; i++)
            direct = NameOf(directories[i]) is { } name && parent.Equals(name.AsSpan().TrimEnd('\\'), StringComparison.OrdinalIgnoreCase);
        if (directories.Count > 0 && !direct) _subtreeChanges++;
        for (int i = 0; i < directories.Count; i++)
        {
            var directory = directories[i];
            if (directory.CountedStamp == stamp) continue; // one change, once per directory
            directory.CountedStamp = stamp;
            var c = Counts(process, directory, _foundSets[i]);
            c.Operations++;
            switch (kind)
            {
                case FileChangeKind.Create: c.Creates++; break;
                case FileChangeKind.Delete: c.Deletes++; break;
                case FileChangeKind.Rename: c.Renames++; break;
            }
        }
    }

    private bool ActiveDirectoriesNamed() => _activeUnnamed == 0;

    /// <summary>Changes waiting for the end of the trace to be placed (a watched directory had no name yet).</summary>
    internal int WaitingChanges => _deferred.Count;

    /// <summary>
    /// The directories holding <paramref name="path"/> with an active watch armed by <paramref name="t"/>, each with
    /// the processes watching it then (<see cref="_foundSets"/>), leaving out those only <paramref name="process"/>
    /// itself watched: a watcher is not a victim of its own buffer.
    /// </summary>
    private List<WatchedDirectory> ActiveContaining(string path, long t, ProcessRef process)
    {
        _found.Clear();
        _foundSets.Clear();
        _activeByName.Containing(path, _found);
        int kept = 0;
        for (int i = 0; i < _found.Count; i++)
        {
            var directory = _found[i];
            if (WatchersAt(directory, t) is not { } set || set.IsOnly(process)) continue;
            _found[kept++] = directory;
            _foundSets.Add(set);
        }
        _found.RemoveRange(kept, _found.Count - kept);
        return _found;
    }

    /// <summary>
    /// The processes with a watch on <paramref name="directory"/> armed by <paramref name="t"/> (a create is counted
    /// when it completes, a little after it began: a watch armed in between did not see it), or null for none.
    /// </summary>
    private WatchingProcesses? WatchersAt(WatchedDirectory directory, long t)
    {
        bool allArmed = true;
        foreach (var watch in directory.ActiveWatches) allArmed &= watch.FirstArmNs <= t;
        if (allArmed && directory.Watchers is { } cached) return cached;
        _setBuffer.Clear();
        foreach (var watch in directory.ActiveWatches)
            if (watch.FirstArmNs <= t && !_setBuffer.Contains(watch.Process)) _setBuffer.Add(watch.Process);
        var set = Intern(_setBuffer);
        if (allArmed) directory.Watchers = set;
        return set;
    }

    /// <summary>One instance per set of processes (in the order given), so counts keyed by it merge.</summary>
    private WatchingProcesses? Intern(List<ProcessRef> processes)
    {
        if (processes.Count == 0) return null;
        var key = processes.ToArray();
        if (!_watcherSets.TryGetValue(key, out var set)) _watcherSets[key] = set = new WatchingProcesses(key);
        return set;
    }

    /// <summary>
    /// The directories in <paramref name="index"/> holding <paramref name="path"/> that were watched at
    /// <paramref name="t"/>, each with the processes watching it then (<see cref="_foundSets"/>), leaving out those
    /// only <paramref name="process"/> itself watched.
    /// </summary>
    private List<WatchedDirectory> Containing(DirectoryIndex<DirectoryWatchCoverage> index, string path, long t, ProcessRef process)
    {
        _foundPeriods.Clear();
        index.Containing(path, _foundPeriods);
        _found.Clear();
        _foundSets.Clear();
        foreach (var (directory, watchers) in _foundPeriods)
        {
            _setBuffer.Clear();
            foreach (var (watcher, periods) in watchers)
                if (periods.Covers(t)) _setBuffer.Add(watcher);
            if (Intern(_setBuffer) is not { } set || set.IsOnly(process)) continue;
            _found.Add(directory);
            _foundSets.Add(set);
        }
        return _found;
    }

    /// <summary>Every directory there ever was a watch on, by the name it has at the end of the trace.</summary>
    private DirectoryIndex<DirectoryWatchCoverage> AllByName()
    {
        var index = new DirectoryIndex<DirectoryWatchCoverage>();
        foreach (var (directory, watchers) in WatchersByDirectory())
            if (NameOf(directory) is { } name) index.Add(name, new DirectoryWatchCoverage(directory, watchers));
        return index;
    }

    /// <summary>For each watched directory, when each process watched it.</summary>
    private Dictionary<WatchedDirectory, (ProcessRef Process, WatchCoverage Periods)[]> WatchersByDirectory() =>
        _allHandles.GroupBy(h => h.Directory).ToDictionary(
            g => g.Key, g => g.GroupBy(h => h.Process).Select(p => (p.Key, Periods(p))).ToArray());

    private static WatchCoverage Periods(IEnumerable<WatchHandle> watches) => new(watches.Select(h => (h.FirstArmNs, h.EndNs)));

    private VictimCounts Counts(ProcessRef process, WatchedDirectory directory, WatchingProcesses watchers)
    {
        // A storm is one process changing one directory over and over: the last counts found answer most changes.
        if (_lastCounts is { } last && ReferenceEquals(_lastChanger, process) && ReferenceEquals(_lastDirectory, directory)
            && ReferenceEquals(_lastWatchers, watchers))
            return last;
        if (!_changes.TryGetValue((process, directory, watchers), out var c)) _changes[(process, directory, watchers)] = c = new VictimCounts();
        (_lastChanger, _lastDirectory, _lastWatchers, _lastCounts) = (process, directory, watchers, c);
        return c;
    }

    private string? NameOf(WatchedDirectory d) => d.Name ?? _names.GetValueOrDefault(d.Key);

    private static ReadOnlySpan<char> ParentOf(string path)
    {
        var p = path.AsSpan().TrimEnd('\\');
        int cut = p.LastIndexOf('\\');
        return cut < 0 ? ReadOnlySpan<char>.Empty : p[..cut];
    }

    private string DirectoryName(WatchedDirectory d) => NameOf(d) ?? $"FileKey 0x{d.Key:X}";

    private void End(WatchHandle handle, long t)
    {
        handle.EndNs = t;
        _faults.WatchesChanged(t);
        _notifyCpu.WatchesChanged(t);
        _active.Remove(handle);
        var directory = handle.Directory;
        directory.ActiveWatches.Remove(handle);
        directory.Watchers = null;
        if (directory.ActiveWatches.Count > 0) return;
        if (NameOf(directory) is { } name) _activeByName.Remove(name, directory);
        else _activeUnnamed--;
    }

    private readonly record struct PendingCreate(long Time, ProcessRef Process, string Path);

    private readonly record struct DeferredChange(long Time, FileChangeKind Kind, ProcessRef Process, string? Path, ulong FileKey);
}
