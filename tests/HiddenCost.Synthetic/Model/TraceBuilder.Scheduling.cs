using HiddenCost.Synthetic.Events;

namespace HiddenCost.Synthetic.Model;

public sealed partial class TraceBuilder
{
    private readonly List<RunSegment>[] _lanes;
    private readonly Dictionary<SyntheticThread, List<RunSegment>> _threadSegments = new(ReferenceEqualityComparer.Instance);
    private readonly List<(int Cpu, long Timestamp, SyntheticThread Thread)> _readies = [];

    /// <summary>Segments of one CPU in time order.</summary>
    public IReadOnlyList<RunSegment> Lane(int cpu) => _lanes[cpu];

    /// <summary>Segments of one thread in time order.</summary>
    public IReadOnlyList<RunSegment> SegmentsOf(SyntheticThread thread) =>
        _threadSegments.TryGetValue(thread, out var list) ? list : [];

    /// <summary>
    /// Runs <paramref name="thread"/> on <paramref name="cpu"/> over [start, end). Segments of a CPU, and of a
    /// thread, must be added in time order without overlap; a CPU with no segment runs the idle thread.
    /// Consecutive segments of one thread on one CPU are one stretch on the CPU (no context switch between them).
    /// </summary>
    public RunSegment Run(int cpu, SyntheticThread thread, long start, long end, Activity activity, SwitchOut? switchOut = null)
    {
        EnsureNotBuilt();
        if (cpu < 0 || cpu >= Settings.Cpus) throw new ArgumentException($"CPU {cpu} outside 0..{Settings.Cpus - 1}");
        if (ReferenceEquals(thread, IdleThread)) throw new ArgumentException("the idle thread runs implicitly");
        EnsureEven(start);
        EnsureEven(end);
        if (end <= start) throw new ArgumentException($"empty segment [{start}, {end})");
        if (start < ActivityStart) throw new ArgumentException($"segment starts at {start}, before the activity start {ActivityStart}");
        if (thread.StartQpc is { } born && start < born) throw new ArgumentException($"{thread} runs before it starts");
        if (thread.EndQpc is { } died && end > died) throw new ArgumentException($"{thread} runs after it ends");
        var lane = _lanes[cpu];
        if (lane.Count > 0 && lane[^1].End > start)
            throw new InvalidOperationException($"CPU {cpu}: segment at {start} overlaps or precedes the one ending at {lane[^1].End}");
        if (!_threadSegments.TryGetValue(thread, out var mine)) _threadSegments[thread] = mine = [];
        if (mine.Count > 0 && mine[^1].End > start)
            throw new InvalidOperationException($"{thread} would run on CPU {cpu} at {start} while still on CPU {mine[^1].Cpu} until {mine[^1].End}");
        var segment = new RunSegment(cpu, thread, start, end, activity, switchOut ?? SwitchOut.Preempted);
        lane.Add(segment);
        mine.Add(segment);
        return segment;
    }

    /// <summary>
    /// Logs a ReadyThread for <paramref name="readied"/> on <paramref name="cpu"/> (readied by whatever runs there).
    /// A thread that waited and is switched in again without an explicit ready gets one automatically just before.
    /// </summary>
    public void Ready(int cpu, long timestamp, SyntheticThread readied)
    {
        EnsureNotBuilt();
        EnsureEven(timestamp);
        _readies.Add((cpu, timestamp, readied));
    }

    /// <summary>The segment of <paramref name="thread"/> that contains <paramref name="timestamp"/>, if any.</summary>
    public RunSegment? SegmentAt(SyntheticThread thread, long timestamp)
    {
        if (!_threadSegments.TryGetValue(thread, out var list)) return null;
        var i = FindLast(list, timestamp);
        return i >= 0 && timestamp < list[i].End ? list[i] : null;
    }

    /// <summary>The segment running on <paramref name="cpu"/> at <paramref name="timestamp"/>, or null when idle.</summary>
    public RunSegment? SegmentOn(int cpu, long timestamp)
    {
        var lane = _lanes[cpu];
        var i = FindLast(lane, timestamp);
        return i >= 0 && timestamp < lane[i].End ? lane[i] : null;
    }

    private static int FindLast(List<RunSegment> list, long timestamp)
    {
        int lo = 0, hi = list.Count - 1, found = -1;
        while (lo <= hi)
        {
            var mid = (lo + hi) / 2;
            if (list[mid].Start <= timestamp)
            {
                found = mid;
                lo = mid + 1;
            }
            else
            {
                hi = mid - 1;
            }
        }
        return found;
    }

    /// <summary>Derives CSwitch and ReadyThread events from the lanes.</summary>
    private List<EmittedContextSwitch> EmitScheduling()
    {
        var switches = new List<EmittedContextSwitch>();
        var lastOut = new Dictionary<SyntheticThread, (long Time, SwitchOut How)>(ReferenceEqualityComparer.Instance);
        var switchIns = new List<(RunSegment Segment, long? WaitedSince, bool NeedsReady)>();
        var readyLists = new Dictionary<SyntheticThread, List<long>>(ReferenceEqualityComparer.Instance);
        foreach (var (_, timestamp, thread) in _readies)
        {
            if (!readyLists.TryGetValue(thread, out var list)) readyLists[thread] = list = [];
            list.Add(timestamp);
        }
        var readyTimes = new Dictionary<SyntheticThread, long[]>(ReferenceEqualityComparer.Instance);
        foreach (var (thread, list) in readyLists) readyTimes[thread] = [.. list.Order()];

        // Switch-in bookkeeping per thread (a thread's segments are in global time order).
        foreach (var (thread, segments) in _threadSegments.OrderBy(kv => kv.Key.Tid))
        {
            RunSegment? previous = null;
            foreach (var s in segments)
            {
                var contiguous = previous is not null && previous.Cpu == s.Cpu && previous.End == s.Start;
                if (!contiguous)
                {
                    var waited = previous is not null && previous.SwitchOut.IsWaiting;
                    var explicitReady = waited && readyTimes.TryGetValue(thread, out var times) && AnyIn(times, previous!.End, s.Start);
                    switchIns.Add((s, previous?.End, waited && !explicitReady));
                }
                previous = s;
            }
        }
        var switchInInfo = new Dictionary<RunSegment, (long? WaitedSince, bool NeedsReady)>(ReferenceEqualityComparer.Instance);
        foreach (var (segment, waitedSince, needsReady) in switchIns) switchInInfo[segment] = (waitedSince, needsReady);

        for (var cpu = 0; cpu < _lanes.Length; cpu++)
        {
            RunSegment? previous = null;
            foreach (var s in _lanes[cpu])
            {
                if (previous is not null && previous.End == s.Start && ReferenceEquals(previous.Thread, s.Thread))
                {
                    previous = s;
                    continue;
                }
                if (previous is not null && previous.End < s.Start)
                {
                    switches.Add(Switch(cpu, previous.End, IdleThread, previous.Thread, previous.SwitchOut, null));
                    previous = null;
                }
                var (waitedSince, needsReady) = switchInInfo.TryGetValue(s, out var info) ? info : (null, false);
                if (needsReady)
                {
                    var readyAt = Math.Max(waitedSince ?? s.Start, s.Start - 2);
                    _records.Add(ThreadEvents.ReadyThread(OnCpu(cpu, readyAt), (uint)s.Thread.Tid));
                }
                switches.Add(Switch(cpu, s.Start, s.Thread, previous?.Thread ?? IdleThread,
                    previous?.SwitchOut ?? new SwitchOut(WaitReason.Executive, KThreadState.Ready, 0), waitedSince));
                previous = s;
            }
            if (previous is not null)
                switches.Add(Switch(cpu, previous.End, IdleThread, previous.Thread, previous.SwitchOut, null));
        }

        foreach (var (cpu, timestamp, thread) in _readies)
            _records.Add(ThreadEvents.ReadyThread(OnCpu(cpu, timestamp), (uint)thread.Tid));
        return switches;
    }

    /// <summary>Whether a sorted array holds a value in (after, upTo].</summary>
    private static bool AnyIn(long[] sorted, long after, long upTo)
    {
        var i = Array.BinarySearch(sorted, after + 1);
        if (i < 0) i = ~i;
        return i < sorted.Length && sorted[i] <= upTo;
    }

    private EmittedContextSwitch Switch(int cpu, long timestamp, SyntheticThread newThread, SyntheticThread oldThread, SwitchOut how, long? newWaitedSince)
    {
        var waitMs = newWaitedSince is { } since ? (uint)Math.Min(uint.MaxValue, TicksToMs(timestamp - since)) : 0;
        var info = new CSwitchInfo((uint)newThread.Tid, (uint)oldThread.Tid)
        {
            NewThreadPriority = (sbyte)newThread.Priority,
            OldThreadPriority = (sbyte)oldThread.Priority,
            OldThreadWaitReason = how.WaitReason,
            OldThreadWaitMode = how.WaitMode,
            OldThreadState = how.State,
            OldThreadWaitIdealProcessor = (byte)cpu,
            NewThreadWaitTime = waitMs,
        };
        _records.Add(ThreadEvents.CSwitch(OnCpu(cpu, timestamp), info));
        return new EmittedContextSwitch(cpu, timestamp, newThread, oldThread, how);
    }
}

/// <summary>A context switch the builder wrote: <see cref="OldThread"/> left <see cref="Cpu"/> as <see cref="How"/> says.</summary>
public sealed record EmittedContextSwitch(int Cpu, long Timestamp, SyntheticThread NewThread, SyntheticThread OldThread, SwitchOut How);
