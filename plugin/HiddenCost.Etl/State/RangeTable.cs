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
/// Ranges of one address space sorted by start, for "what covered this address at this time" lookups.
/// Ranges may be reused over time (unload then load at the same address), so a lookup prefers the range alive at
/// the time and falls back to the latest range that ever covered the address. Insertion keeps the order
/// (binary search + insert), which suits rundown bursts and interleaved lookups alike.
/// </summary>
internal sealed class RangeTable<T> where T : class, IAddressRange
{
    private readonly List<T> _ranges = new();
    private ulong _maxLength;

    public int Count => _ranges.Count;
    public IReadOnlyList<T> Items => _ranges;

    public void Add(T range)
    {
        int i = UpperBound(range.RangeStart);
        _ranges.Insert(i, range);
        if (range.RangeLength > _maxLength) _maxLength = range.RangeLength;
    }

    /// <summary>The range alive at <paramref name="timeNs"/> containing <paramref name="address"/>; else the latest one that ever did.</summary>
    public T? Find(ulong address, long timeNs)
    {
        int i = UpperBound(address) - 1;
        T? fallback = null;
        for (; i >= 0; i--)
        {
            var r = _ranges[i];
            if (address - r.RangeStart >= _maxLength) break;
            if (address - r.RangeStart >= r.RangeLength) continue;
            if (Lifetime.Contains(r.RangeLoad, r.RangeUnload, timeNs)) return r;
            if (fallback is null || r.RangeLoad > fallback.RangeLoad) fallback = r;
        }
        return fallback;
    }

    /// <summary>The live range starting exactly at <paramref name="start"/> (the most recently added one), or null.</summary>
    public T? FindLiveAt(ulong start, Func<T, bool>? match = null)
    {
        int i = UpperBound(start) - 1;
        for (; i >= 0 && _ranges[i].RangeStart == start; i--)
        {
            var r = _ranges[i];
            if (r.RangeUnload == Lifetime.AfterTrace && (match is null || match(r))) return r;
        }
        return null;
    }

    /// <summary>The most recently added range starting exactly at <paramref name="start"/>, live or not.</summary>
    public T? FindAt(ulong start)
    {
        int i = UpperBound(start) - 1;
        return i >= 0 && _ranges[i].RangeStart == start ? _ranges[i] : null;
    }

    /// <summary>Index of the first range starting after <paramref name="address"/>.</summary>
    private int UpperBound(ulong address)
    {
        int lo = 0, hi = _ranges.Count;
        while (lo < hi)
        {
            int mid = (lo + hi) >>> 1;
            if (_ranges[mid].RangeStart <= address) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
}
