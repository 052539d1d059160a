using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>
/// The Spin-Wait analysis without ETW types: fed classified CPU samples, CLR contention events and context
/// switches in time order, it follows each thread's spin runs and contentions and builds the two tables.
/// <list type="bullet">
/// <item>A run of spin samples followed by the thread's next ContentionStart (or a block in a lock wait) before it
/// runs ordinary code is <b>wasted</b> spin for that lock; a run that ends in ordinary code is <b>successful</b>.</item>
/// <item>A successful run belongs to the lock it spun inside (after a wake-up), else to the lock that contended at
/// the same call site nearest in time, else to the call site alone. These are resolved at the end, when every
/// contention's call site is known.</item>
/// <item>Unnamed runtime code called from managed code (<see cref="SpinEvidence.PossibleSpin"/>) is spin when it
/// ends in a contention, or spins inside one. Elsewhere it counts only when it took a runtime code path (the return
/// addresses inside the runtime) that such proven spin took in the same process: without symbols, that is what
/// tells the runtime's spin loop from GC, JIT or any other call into the runtime. Runtime code sampled with no stack
/// at all counts only on threads that contend.</item>
/// </list>
/// </summary>
public sealed class SpinWaitTracker
{
    public const string UnattributedSite = "(unattributed)";

    public SpinWaitTracker() : this(SpinLogOptions.Default) { }

    /// <param name="options">Where runs waiting to be placed go beyond their chunk in memory (tests make the chunks tiny).</param>
    internal SpinWaitTracker(SpinLogOptions options) => _unplaced = new UnplacedRuns(options);

    /// <summary>Why runs waiting to be placed stayed in memory (their temporary file failed); null when none did.</summary>
    public string? SpillFailure => _unplaced.SpillFailure;

    /// <summary>Bytes of runs written to the temporary file (for tests; until <see cref="Build"/>).</summary>
    internal long SpilledBytes => _unplaced.SpilledBytes;

    private readonly Dictionary<int, ThreadSpinState> _threads = new();
    private readonly Dictionary<ProcessRef, ProcessTally> _processes = new();
    private readonly Dictionary<LockKey, LockTally> _locks = new();
    private readonly UnplacedRuns _unplaced;
    private readonly SampleIntervals _intervals = new();
    private long _orphanStops, _unstopped, _implausibleDurations, _setAsideNs, _unattributedNs, _samples;
    private readonly HashSet<List<(long Time, LockTally Lock)>> _unsortedSites = new(ReferenceEqualityComparer.Instance);

    /// <summary>
    /// A profile-interval event at <paramref name="t"/>: each sample weighs the interval in effect when it was taken
    /// (samples before the first such event, the first interval named), as in the Syscall Hook table.
    /// </summary>
    /// <param name="previousNs">SetInterval's OldInterval (0 if none): what samples before the trace's first such event were taken at.</param>
    public void ProfileInterval(long t, long intervalNs, long previousNs = 0) => _intervals.Set(t, intervalNs, previousNs);

    /// <summary>The whole trace's profile interval, when the time of its events does not matter (the first stated wins).</summary>
    public void ProfileInterval(long intervalNs)
    {
        if (_intervals.IsDefault) _intervals.Set(long.MinValue, intervalNs);
    }

    /// <summary>A CPU sample of <paramref name="threadId"/>, classified by <see cref="SpinClassifier"/>.</summary>
    public void Sample(long t, ProcessRef process, int threadId, in SampleClass sample)
    {
        if (threadId <= 0) return; // the idle thread
        var th = Thread(process, threadId, t);
        _samples++;
        long weight = _intervals.At(t);
        th.Tally.CpuNs += weight;
        switch (sample.Evidence)
        {
            case SpinEvidence.Spin or SpinEvidence.PossibleSpin:
                Spin(th, t, weight, sample);
                break;
            case SpinEvidence.OpenMp:
                th.Tally.OpenMpNs += weight;
                th.Tally.Threads.Add(threadId);
                var module = sample.Module is null ? "OpenMP runtime" : SpinCode.FileName(sample.Module).ToString();
                th.Tally.OpenMpModules[module] = th.Tally.OpenMpModules.GetValueOrDefault(module) + 1;
                RanOn(th, t);
                break;
            case SpinEvidence.NotSpin:
                RanOn(th, t);
                break;
        }
    }

    /// <summary>ContentionStart: the thread stopped spinning and is about to block on a lock.</summary>
    /// <param name="lockId">LockID (v2, .NET 7+); null or 0 when the event has none.</param>
    /// <param name="objectId">AssociatedObjectID (v2); null or 0 when the event has none.</param>
    public void ContentionStart(long t, ProcessRef process, int threadId, ulong? lockId = null, ulong? objectId = null)
    {
        var th = Thread(process, threadId, t);
        th.Contended = true;
        th.Tally.Contentions++;
        th.Tally.Threads.Add(threadId);
        // The spin run names the contention's call site only when it ran right up to it: across a gap in sampling
        // (another tool took the kernel logger) the thread may have done anything before it contended.
        var site = th.Running && t - th.RunLastNs <= 2 * _intervals.At(th.RunLastNs) ? th.RunSite
            : th.AcquiredSite is not null && t - th.AcquiredSiteNs <= 2 * _intervals.At(th.AcquiredSiteNs) ? th.AcquiredSite : null;
        th.AcquiredSite = null;
        var tally = Lock(LockKey.For(process, lockId, objectId, site));
        if (objectId is > 0) tally.Object ??= objectId;
        tally.Contentions++;
        tally.Threads.Add(threadId);
        tally.Touch(t);
        if (site is not null) NoteSite(tally, site, t);
        if (th.Running) AddProven(tally, th, th.TakeRun(wasted: true));
        th.Open.Add(new OpenContention(t, tally));
    }

    /// <summary>ContentionStop: the thread acquired the lock (or, on CoreCLR's AwareLock, timed out).</summary>
    /// <param name="durationNs">DurationNs (v1, .NET 5+); null on .NET Framework's v0, which has none.</param>
    public void ContentionStop(long t, ProcessRef process, int threadId, double? durationNs = null)
    {
        var th = Thread(process, threadId, t);
        if (th.Open.Count == 0)
        {
            _orphanStops++;
            return;
        }
        var open = th.Open[^1];
        th.Open.RemoveAt(th.Open.Count - 1);
        // The runtime's own measure, unless it cannot be true: longer than the time since the ContentionStart
        // (1 ms of leeway for the two clocks) is a corrupt value, and the events' times are used instead.
        long measured = Math.Max(0, t - open.StartNs);
        long wait = measured;
        if (durationNs is { } d)
        {
            if (double.IsFinite(d) && d >= 0 && d <= measured + 1_000_000.0) wait = (long)Math.Round(d);
            else _implausibleDurations++;
        }
        open.Lock.WaitNs += wait;
        open.Lock.Touch(t);
        // The lock was acquired: a spin inside this contention (after a wake-up) paid off.
        if (th.Running && th.RunInside == open.Lock)
        {
            (th.AcquiredSite, th.AcquiredSiteNs) = (th.RunSite, th.RunLastNs);
            EndRun(th);
        }
    }

    /// <summary>A context switch away from <paramref name="oldThreadId"/> (CSwitch OldThreadWaitReason and OldThreadState).</summary>
    public void ContextSwitch(long t, ProcessRef oldProcess, int oldThreadId, byte waitReason, byte oldState)
    {
        if (oldThreadId <= 0) return;
        // Yields and delays only count per process, so they may be fed as they come while samples wait for
        // their stacks; only a wait that blocks touches the thread's spin run.
        if (KernelWait.IsYield(waitReason)) Process(oldProcess).Yield(t, oldThreadId);
        else if (KernelWait.IsSleepZero(waitReason, oldState)) Process(oldProcess).Delay(oldThreadId);
        else if (!_threads.TryGetValue(oldThreadId, out var th) || th.Process != oldProcess || !th.Running) return;
        else if (KernelWait.IsOtherWait(waitReason, oldState))
        {
            // Blocked on something no lock waits in (a queue, I/O): the spin stopped without blocking on its lock, so it
            // got it. (A wait a lock blocks in after a spin stays wasted: besides Monitor, which logs ContentionStart
            // first, SpinWait-based waits such as ManualResetEventSlim's block there when their spin did not pay off.)
            if (th.Open.Count > 0) return;
            th.LastSeenNs = t;
            EndRun(th);
        }
        else if (KernelWait.IsLockWait(waitReason, oldState))
        {
            // Spun, then blocked anyway without a contention event (a critical section, an SRW lock, or CoreCLR
            // waiting again after a wake-up): wasted spin.
            var inside = th.Open.Count > 0 ? th.Open[^1].Lock : th.RunInside;
            var run = th.TakeRun(wasted: true);
            th.LastSeenNs = t;
            if (inside is not null) AddProven(inside, th, run);
            else _unplaced.Add(th, run);
        }
    }

    /// <summary>
    /// A thread's yields and Sleep(0) delay switches, counted apart from the stream (they only count per process):
    /// <paramref name="yields"/> between <paramref name="firstYieldNs"/> and <paramref name="lastYieldNs"/>.
    /// </summary>
    public void Switches(ProcessRef process, int threadId, long yields, long firstYieldNs, long lastYieldNs, long delays)
    {
        if (threadId <= 0) return;
        var tally = Process(process);
        if (yields > 0) tally.AddYields(yields, firstYieldNs, lastYieldNs, threadId);
        if (delays > 0) tally.Delay(threadId, delays);
    }

    /// <summary>Closes every run and wait at the end of the trace and builds both tables.</summary>
    public (Table<SpinWaitLockRow> PerLock, Table<SpinWaitProcessRow> ByProcess) Build(long traceEndNs)
    {
        foreach (var th in _threads.Values) Finish(th, Math.Max(traceEndNs, th.LastSeenNs));
        // Noted out of time order (spins inside a contention are noted when they end): sorted once, stably, for the
        // nearest-in-time search.
        foreach (var list in _unsortedSites)
        {
            var sorted = list.OrderBy(x => x.Time).ToList();
            list.Clear();
            list.AddRange(sorted);
        }
        _unsortedSites.Clear();
        _unplaced.PlaceAll((th, run) => Place(th, run));

        var perLock = SpinWaitTables.PerLock.Table(SpinWaitRows.PerLock(_locks.Values));
        var byProcess = SpinWaitTables.ByProcess.Table(SpinWaitRows.ByProcess(_processes.Values, _locks.Values));
        foreach (var note in SpinWaitNotes.Tracker(Counts()))
        {
            perLock.AddNote(note);
            byProcess.AddNote(note);
        }
        return (perLock, byProcess);
    }

    private SpinWaitCounts Counts() =>
        new(_samples > 0 && _intervals.IsDefault, _unattributedNs, _setAsideNs, _unstopped, _implausibleDurations, _orphanStops);

    private void Spin(ThreadSpinState th, long t, long weight, in SampleClass sample)
    {
        // A spin sample naming another call site means the thread got the first lock and spins for another.
        if (th.Running && sample.CallSite is not null && th.RunSite is not null && sample.CallSite != th.RunSite)
            EndRun(th);
        if (!th.Running)
        {
            th.AcquiredSite = null; // a new spin: the acquisition before it names no later contention
            th.RunStartNs = t;
            th.RunInside = th.Open.Count > 0 ? th.Open[^1].Lock : null;
        }
        th.RunCpuNs += weight;
        th.RunLastNs = t;
        th.RunSite ??= sample.CallSite;
        th.RunNamed |= sample.Evidence == SpinEvidence.Spin;
        th.AddPath(sample.RuntimePath);
        th.RunInside ??= th.Open.Count > 0 ? th.Open[^1].Lock : null;
    }

    /// <summary>The thread ran ordinary code: its spin run succeeded, and it no longer waits in any contention.</summary>
    private void RanOn(ThreadSpinState th, long t)
    {
        th.AcquiredSite = null;
        if (th.Running) EndRun(th);
        CloseUnstopped(th, t);
    }

    private void EndRun(ThreadSpinState th)
    {
        var inside = th.RunInside;
        var run = th.TakeRun(wasted: false);
        if (inside is not null)
        {
            if (run.Site is not null) NoteSite(inside, run.Site, run.EndNs);
            AddProven(inside, th, run);
        }
        else _unplaced.Add(th, run);
    }

    private void CloseUnstopped(ThreadSpinState th, long t)
    {
        for (int i = th.Open.Count - 1; i >= 0; i--)
        {
            var open = th.Open[i];
            open.Lock.WaitNs += Math.Max(0, t - open.StartNs);
            open.Lock.Touch(t);
            _unstopped++;
        }
        th.Open.Clear();
    }

    private void Finish(ThreadSpinState th, long endNs)
    {
        if (th.Running) EndRun(th);
        CloseUnstopped(th, endNs);
    }

    /// <summary>Gives a run not spun inside a known contention to a lock, by its call site.</summary>
    private void Place(ThreadSpinState th, in SpinRun run)
    {
        LockTally? target = null;
        if (run.Site is not null)
        {
            if (!run.Named && !TookSpinPath(th, run)) target = null;
            else if (th.Tally.SiteContentions.TryGetValue(run.Site, out var list)) target = Nearest(list, run.EndNs);
            else target = Lock(LockKey.For(th.Process, null, null, run.Site));
        }
        else if (run.Named || th.Contended)
        {
            target = Lock(LockKey.Unattributed(th.Process));
            _unattributedNs += run.CpuNs;
        }
        if (target is null) _setAsideNs += run.CpuNs;
        else target.AddRun(run, th.ThreadId);
    }

    /// <summary>
    /// A run that certainly spun (it ended in or spun inside a contention) teaches its process the runtime's spin path:
    /// the one its last sample took, right before the contention. Earlier samples of the run may be other runtime work
    /// at the same call site (an allocation's GC, a JIT call) that the thread did before it began to spin; taught as
    /// spin, every later sample on that path anywhere in the process would count as spin.
    /// </summary>
    private void AddProven(LockTally tally, ThreadSpinState th, in SpinRun run)
    {
        if (tally.Key.Kind == LockKeyKind.Unattributed) _unattributedNs += run.CpuNs; // the note counts all of it
        if (run.LastPath != 0) th.Tally.SpinPaths.Add(run.LastPath);
        tally.AddRun(run, th.ThreadId);
    }

    private static bool TookSpinPath(ThreadSpinState th, in SpinRun run) => run.Paths.AnyIn(th.Tally.SpinPaths);

    private static LockTally Nearest(List<(long Time, LockTally Lock)> list, long t)
    {
        int lo = 0, hi = list.Count;
        while (lo < hi)
        {
            int mid = (lo + hi) >>> 1;
            if (list[mid].Time < t) lo = mid + 1;
            else hi = mid;
        }
        if (lo == list.Count) return list[^1].Lock;
        if (lo == 0) return list[0].Lock;
        return t - list[lo - 1].Time <= list[lo].Time - t ? list[lo - 1].Lock : list[lo].Lock;
    }

    private void NoteSite(LockTally tally, string site, long t)
    {
        tally.Sites[site] = tally.Sites.GetValueOrDefault(site) + 1;
        var sites = Process(tally.Key.Process).SiteContentions;
        if (!sites.TryGetValue(site, out var list)) sites[site] = list = new();
        if (list.Count > 0 && list[^1].Lock == tally && list[^1].Time == t) return;
        // Spins inside a contention are noted when they end, a little after later contentions of other threads:
        // appended, and the list sorted once before the search (inserting in order cost threads × contentions).
        if (list.Count > 0 && list[^1].Time > t) _unsortedSites.Add(list);
        list.Add((t, tally));
    }

    private LockTally Lock(LockKey key)
    {
        if (!_locks.TryGetValue(key, out var tally)) _locks[key] = tally = new LockTally(key);
        return tally;
    }

    private ProcessTally Process(ProcessRef process)
    {
        if (!_processes.TryGetValue(process, out var tally)) _processes[process] = tally = new ProcessTally(process);
        return tally;
    }

    private ThreadSpinState Thread(ProcessRef process, int threadId, long t)
    {
        if (!_threads.TryGetValue(threadId, out var th) || th.Process != process)
        {
            // A thread id seen in another process: the old thread has exited and its id was reused.
            if (th is not null) Finish(th, th.LastSeenNs);
            _threads[threadId] = th = new ThreadSpinState(process, threadId, Process(process));
        }
        th.LastSeenNs = t;
        return th;
    }
}
