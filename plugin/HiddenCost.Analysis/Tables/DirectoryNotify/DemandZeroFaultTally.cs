using HiddenCost.Analysis.Common;

namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>
/// Demand-zero faults (or, in a second instance, notify-path CPU nanoseconds) per process, counted per period between
/// changes of the set of active watches (a fault only increments a counter: a machine with hundreds of watches takes
/// millions of faults). When the table is built, each victim's counts go to the directories another process watched
/// in those periods. Spreading them over every active directory as they came made memory and time grow with
/// processes × watches.
/// </summary>
internal sealed class DemandZeroFaultTally
{
    private readonly Dictionary<ProcessRef, long> _sinceChange = new();
    private readonly Dictionary<ProcessRef, List<(long Start, long Faults)>> _periods = new();
    private long _changeNs = long.MinValue;

    /// <summary>A demand-zero fault in <paramref name="process"/> while some watch is active.</summary>
    public void Fault(ProcessRef process) => _sinceChange[process] = _sinceChange.GetValueOrDefault(process) + 1;

    /// <summary>When the current period (set of active watches) began.</summary>
    public long PeriodStart => _changeNs;

    /// <summary>
    /// Adds <paramref name="amount"/> to the period that began at <paramref name="periodStart"/> (a <see cref="PeriodStart"/>
    /// read then): for figures known only after the pass, such as samples whose stacks complete at its end.
    /// </summary>
    public void AddToPeriod(ProcessRef process, long periodStart, long amount)
    {
        if (!_periods.TryGetValue(process, out var periods)) _periods[process] = periods = new();
        if (periods.Count > 0 && periods[^1].Start == periodStart) periods[^1] = (periodStart, periods[^1].Faults + amount);
        else periods.Add((periodStart, amount));
    }

    /// <summary>The set of active watches changes at <paramref name="t"/>: the faults since the last change form one period.</summary>
    public void WatchesChanged(long t)
    {
        foreach (var (process, faults) in _sinceChange)
        {
            if (!_periods.TryGetValue(process, out var periods)) _periods[process] = periods = new();
            periods.Add((_changeNs, faults));
        }
        _sinceChange.Clear();
        _changeNs = t;
    }

    /// <summary>
    /// Gives each victim (a process whose changes a directory's watcher saw) the faults it took while another process
    /// watched that directory: one fault counts once per directory. <paramref name="final"/> maps the processes the
    /// faults were logged under to those they turned out to be, as the victims' keys already are.
    /// </summary>
    public void CountInto(IReadOnlyDictionary<(ProcessRef Process, WatchedDirectory Directory), VictimCounts> victims,
        IReadOnlyDictionary<WatchedDirectory, (ProcessRef Process, WatchCoverage Periods)[]> watchers, Func<ProcessRef, ProcessRef> final,
        Action<VictimCounts, long>? add = null)
    {
        add ??= static (c, faults) => c.DemandZeroFaults += faults;
        var byProcess = new Dictionary<ProcessRef, List<(long Start, long Faults)>>();
        foreach (var (process, periods) in _periods)
        {
            var p = final(process);
            if (byProcess.TryGetValue(p, out var list)) list.AddRange(periods);
            else byProcess[p] = new List<(long, long)>(periods);
        }
        foreach (var ((process, directory), c) in victims)
        {
            if (c.Operations == 0 || !byProcess.TryGetValue(process, out var periods)) continue;
            var others = watchers[directory];
            foreach (var (start, faults) in periods)
                foreach (var (watcher, watched) in others)
                    if (watcher != process && watched.Covers(start))
                    {
                        add(c, faults);
                        break;
                    }
        }
    }
}
