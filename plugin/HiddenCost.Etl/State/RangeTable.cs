using System.Runtime.InteropServices;

namespace HiddenCost.Etl.State;

/// <summary>An address range with a lifetime (images, JIT methods).</summary>
internal interface IAddressRange
{
    ulong RangeStart { get; }
    ulong RangeLength { get; }
    long RangeLoad { get; }
    long RangeUnload { get; }
}

/// <summary>
/// Ranges of one address space, for "what covered this address at this time" lookups. Ranges may be reused
/// over time (unload, then load at the same address), so a lookup prefers the range alive at the time and falls
/// back to the range loaded most recently before that time. Two sorted lists: a small batch that takes new ranges
/// (cheap inserts) and the main list it is merged into when full, so a rundown of tens of thousands of ranges
/// costs O(n) per batch rather than per range, and lookups binary-search both.
/// </summary>
internal sealed class RangeTable<T> where T : class, IAddressRange
{
    private const int BatchSize = 1024;

    private readonly List<T> _main = new();
    private readonly List<T> _batch = new();
    private ulong _maxLength;

    // A range, once unloaded, is never live again. While each range at a start was added only after the one before
    // it there had been unloaded (how loads, rundowns and unloads add them), only the newest at a start can be live,
    // so finding the live one is one look. Starts where a range was added while an older one was still live (a
    // rundown naming another method at a JIT address) keep their possibly-live ranges here, newest last, and drop the
    // unloaded ones as they are found: a module loaded and unloaded at one base a hundred thousand times used to make
    // every load scan all the earlier ones.
    private readonly Dictionary<ulong, List<T>> _liveCandidates = new();

    // Runs of the main list where one start holds many ranges of one length, each unloaded before the next was
    // loaded (a module loaded and unloaded again and again at one base): at the run's last index, the index of its
    // first; -1 elsewhere. A lookup inside such a run finds the range of its time by binary search over the loads
    // instead of walking every range the start ever held.
    private const int MinOrderedRun = 8;
    private int[] _orderedRunFrom = Array.Empty<int>();

    /// <summary>How many runs of the main list are searched by time (for tests).</summary>
    internal int OrderedRuns { get; private set; }

    public int Count => _main.Count + _batch.Count;

    /// <summary>All ranges ordered by start address (ranges with equal starts in order of addition).</summary>
    public IReadOnlyList<T> Items
    {
        get
        {
            Merge();
            return _main;
        }
    }

    public void Add(T range)
    {
        ulong start = range.RangeStart;
        if (_liveCandidates.TryGetValue(start, out var candidates)) candidates.Add(range);
        else if (FindAt(start) is { } previous && IsLive(previous)) _liveCandidates[start] = new List<T>(2) { previous, range };
        _batch.Insert(UpperBound(_batch, range.RangeStart), range);
        if (range.RangeLength > _maxLength) _maxLength = range.RangeLength;
        if (_batch.Count >= BatchSize) Merge();
    }

    /// <summary>
    /// The range alive at <paramref name="timeNs"/> containing <paramref name="address"/>; else the one loaded most
    /// recently before that time; else the first one loaded after it. Those two fall-backs only among ranges alive at
    /// some time in [<paramref name="windowFrom"/>, <paramref name="windowTo"/>): the lifetime of the process
    /// instance asking, whose id an earlier or later process may have had.
    /// </summary>
    public T? Find(ulong address, long timeNs, long windowFrom = Lifetime.BeforeTrace, long windowTo = Lifetime.AfterTrace)
    {
        var window = new Window(windowFrom, windowTo);
        // The ordered runs' shortcut holds for a window around the time asked (as a process instance's lifetime is
        // around the time of the frame it asks about); any other window walks every range.
        bool shortcut = window.From <= timeNs && timeNs < window.To;
        T? before = null, after = null;
        if (Search(_batch, address, timeNs, window, false, ref before, ref after) is { } recent) return recent;
        return Search(_main, address, timeNs, window, shortcut, ref before, ref after) ?? before ?? after;
    }

    private readonly record struct Window(long From, long To)
    {
        public bool Overlaps(T range) => range.RangeUnload > From && range.RangeLoad < To;
    }

    /// <summary>The most recently added range starting exactly at <paramref name="start"/> that is still live, or null.</summary>
    public T? FindLiveAt(ulong start)
    {
        if (!_liveCandidates.TryGetValue(start, out var candidates)) return FindAt(start) is { } newest && IsLive(newest) ? newest : null;
        while (candidates.Count > 0 && !IsLive(candidates[^1])) candidates.RemoveAt(candidates.Count - 1);
        return candidates.Count > 0 ? candidates[^1] : null;
    }

    /// <summary>The most recently added range starting exactly at <paramref name="start"/>, live or not.</summary>
    public T? FindAt(ulong start) => At(_batch, start) ?? At(_main, start);

    private T? Search(List<T> list, ulong address, long timeNs, Window window, bool useRuns, ref T? before, ref T? after)
    {
        bool main = useRuns && ReferenceEquals(list, _main);
        for (int i = UpperBound(list, address) - 1; i >= 0; i--)
        {
            var r = list[i];
            if (address - r.RangeStart >= _maxLength) break;
            if (main && _orderedRunFrom[i] >= 0)
            {
                // i is the run's last range (the walk enters a run from above): the whole run at once, then the run below.
                int first = _orderedRunFrom[i];
                if (address - r.RangeStart < r.RangeLength && SearchOrderedRun(first, i, timeNs, window, ref before, ref after) is { } hit) return hit;
                i = first;
                continue;
            }
            if (address - r.RangeStart >= r.RangeLength) continue;
            if (Lifetime.Contains(r.RangeLoad, r.RangeUnload, timeNs)) return r;
            if (!window.Overlaps(r)) continue;
            if (r.RangeLoad <= timeNs) { if (before is null || r.RangeLoad > before.RangeLoad) before = r; }
            else if (after is null || r.RangeLoad < after.RangeLoad) after = r;
        }
        return null;
    }

    /// <summary>
    /// What the walk over ranges <paramref name="first"/>..<paramref name="last"/> of an ordered run (newest first)
    /// would find: only the newest range loaded by <paramref name="timeNs"/> can be alive then; it is also the run's
    /// latest load before that time, and the newest of the earliest loads after it is its first one after. (The
    /// run's lifetimes follow one another, so when those two lie outside the window, so do all before and after them.)
    /// </summary>
    private T? SearchOrderedRun(int first, int last, long timeNs, Window window, ref T? before, ref T? after)
    {
        int k = LastLoadedBy(first, last, timeNs);
        if (k >= first)
        {
            var r = _main[k];
            if (Lifetime.Contains(r.RangeLoad, r.RangeUnload, timeNs)) return r;
            if (window.Overlaps(r) && (before is null || r.RangeLoad > before.RangeLoad)) before = r;
        }
        if (k < last)
        {
            var r = _main[LastLoadedBy(k + 1, last, _main[k + 1].RangeLoad)];
            if (window.Overlaps(r) && (after is null || r.RangeLoad < after.RangeLoad)) after = r;
        }
        return null;
    }

    /// <summary>The last index in <paramref name="first"/>..<paramref name="last"/> loaded at or before <paramref name="timeNs"/>; first − 1 when none.</summary>
    private int LastLoadedBy(int first, int last, long timeNs)
    {
        int lo = first, hi = last + 1;
        while (lo < hi)
        {
            int mid = (lo + hi) >>> 1;
            if (_main[mid].RangeLoad <= timeNs) lo = mid + 1;
            else hi = mid;
        }
        return lo - 1;
    }

    private static bool IsLive(T range) => range.RangeUnload == Lifetime.AfterTrace;

    private static T? At(List<T> list, ulong start)
    {
        int i = UpperBound(list, start) - 1;
        return i >= 0 && list[i].RangeStart == start ? list[i] : null;
    }

    /// <summary>
    /// Merges the batch into the main list (older ranges first among equal starts), in place from the end: a second
    /// list as large as the main one would hold 8 more bytes a range for as long as the trace is read.
    /// </summary>
    private void Merge()
    {
        if (_batch.Count == 0) return;
        int m = _main.Count - 1, b = _batch.Count - 1;
        CollectionsMarshal.SetCount(_main, _main.Count + _batch.Count);
        var merged = CollectionsMarshal.AsSpan(_main);
        // Ties take the batch's range: it is newer, so it goes after the main list's ranges at that start.
        for (int w = merged.Length - 1; b >= 0; w--)
            merged[w] = m >= 0 && merged[m].RangeStart > _batch[b].RangeStart ? merged[m--] : _batch[b--];
        _batch.Clear();
        IndexOrderedRuns();
    }

    private void IndexOrderedRuns()
    {
        if (_orderedRunFrom.Length < _main.Count) _orderedRunFrom = new int[Math.Max(_main.Count, 2 * _orderedRunFrom.Length)];
        OrderedRuns = 0;
        for (int first = 0; first < _main.Count;)
        {
            int last = first;
            while (last + 1 < _main.Count && _main[last + 1].RangeStart == _main[first].RangeStart) last++;
            for (int j = first; j <= last; j++) _orderedRunFrom[j] = -1;
            if (last - first + 1 >= MinOrderedRun && IsOrderedRun(first, last))
            {
                _orderedRunFrom[last] = first;
                OrderedRuns++;
            }
            first = last + 1;
        }
    }

    /// <summary>
    /// One length throughout, and each range but the last unloaded (so its times are final) no earlier than it was
    /// loaded and no later than the next one was loaded: lifetimes one after another, loads in order.
    /// </summary>
    private bool IsOrderedRun(int first, int last)
    {
        for (int j = first; j < last; j++)
        {
            T r = _main[j], next = _main[j + 1];
            if (r.RangeLength != next.RangeLength || IsLive(r) || r.RangeUnload < r.RangeLoad || r.RangeUnload > next.RangeLoad) return false;
        }
        return true;
    }

    /// <summary>Index of the first range in <paramref name="list"/> starting after <paramref name="address"/>.</summary>
    private static int UpperBound(List<T> list, ulong address)
    {
        int lo = 0, hi = list.Count;
        while (lo < hi)
        {
            int mid = (lo + hi) >>> 1;
            if (list[mid].RangeStart <= address) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
}
