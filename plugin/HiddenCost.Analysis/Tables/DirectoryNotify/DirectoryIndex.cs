namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>
/// Items filed under directory names (NT paths, compared ignoring case, trailing backslashes ignored), found from a
/// file's path by looking up each of its ancestors: a change costs a lookup per path level, not a comparison per
/// watched directory (a machine may hold thousands of watches, and a notify storm makes millions of changes).
/// </summary>
internal sealed class DirectoryIndex<T> where T : class
{
    private readonly Dictionary<PathPrefix, List<T>> _byDirectory = new(PathPrefixComparer.Instance);
    // No ancestor longer than the longest name filed can match: a path thousands of levels deep costs no more.
    private int _longest = -1;

    public int Count { get; private set; }

    public void Add(string directory, T item)
    {
        var key = new PathPrefix(directory, directory.TrimEnd('\\').Length);
        if (!_byDirectory.TryGetValue(key, out var items)) _byDirectory[key] = items = new List<T>(1);
        items.Add(item);
        _longest = Math.Max(_longest, key.Length);
        Count++;
    }

    /// <summary>Takes <paramref name="item"/> (the same instance) from under <paramref name="directory"/>; false when it is not there.</summary>
    public bool Remove(string directory, T item)
    {
        var key = new PathPrefix(directory, directory.TrimEnd('\\').Length);
        if (!_byDirectory.TryGetValue(key, out var items)) return false;
        int at = items.Count - 1;
        while (at >= 0 && !ReferenceEquals(items[at], item)) at--;
        if (at < 0) return false;
        items.RemoveAt(at);
        if (items.Count == 0) _byDirectory.Remove(key);
        Count--;
        return true;
    }

    /// <summary>
    /// Appends to <paramref name="into"/> the items of every directory that holds <paramref name="path"/> (the path is
    /// inside it, not the directory itself), the outermost directory first.
    /// </summary>
    public void Containing(string path, List<T> into)
    {
        if (_byDirectory.Count == 0) return;
        // The same test as "path starts with the directory, then a backslash, then something": each backslash
        // that has a character after it ends one ancestor.
        for (int i = path.IndexOf('\\'); i >= 0 && i <= _longest && i < path.Length - 1; i = path.IndexOf('\\', i + 1))
            if (_byDirectory.TryGetValue(new PathPrefix(path, i), out var items)) into.AddRange(items);
    }

    /// <summary>The first <see cref="Length"/> characters of <see cref="Text"/>, without copying them out.</summary>
    private readonly record struct PathPrefix(string Text, int Length)
    {
        public ReadOnlySpan<char> Span => Text.AsSpan(0, Length);
    }

    private sealed class PathPrefixComparer : IEqualityComparer<PathPrefix>
    {
        public static readonly PathPrefixComparer Instance = new();

        public bool Equals(PathPrefix x, PathPrefix y) => x.Span.Equals(y.Span, StringComparison.OrdinalIgnoreCase);

        public int GetHashCode(PathPrefix p) => string.GetHashCode(p.Span, StringComparison.OrdinalIgnoreCase);
    }
}
