namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>
/// The distinct runtime code paths (<see cref="SampleClass.RuntimePath"/>) one spin run took. Nearly every run
/// takes one, so the first is held inline and only further ones allocate.
/// </summary>
internal readonly struct RuntimePaths
{
    private const int MaxPaths = 16;
    private readonly ulong _first;
    private readonly ulong[]? _more;

    private RuntimePaths(ulong first, ulong[]? more)
    {
        _first = first;
        _more = more;
    }

    public bool IsEmpty => _first == 0;

    /// <summary>The first path taken (0: none).</summary>
    public ulong First => _first;

    /// <summary>More than one path taken (so more than <see cref="First"/> to keep).</summary>
    public bool HasSeveral => _more is not null;

    public RuntimePaths With(ulong path)
    {
        if (path == 0 || Contains(path)) return this;
        if (_first == 0) return new RuntimePaths(path, null);
        int n = _more?.Length ?? 0;
        if (n + 1 >= MaxPaths) return this;
        var more = new ulong[n + 1];
        _more?.CopyTo(more, 0);
        more[n] = path;
        return new RuntimePaths(_first, more);
    }

    public bool Contains(ulong path)
    {
        if (path == 0) return false;
        if (_first == path) return true;
        if (_more is not null)
            foreach (var p in _more)
                if (p == path) return true;
        return false;
    }

    /// <summary>True when any of these paths is in <paramref name="known"/>.</summary>
    public bool AnyIn(HashSet<ulong> known)
    {
        if (_first != 0 && known.Contains(_first)) return true;
        if (_more is not null)
            foreach (var p in _more)
                if (known.Contains(p)) return true;
        return false;
    }
}
