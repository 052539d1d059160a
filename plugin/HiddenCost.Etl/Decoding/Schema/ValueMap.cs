namespace HiddenCost.Etl.Decoding.Schema;

/// <summary>
/// A manifest value map (value → name) or bit map (each set bit → name), from an EVENT_MAP_INFO.
/// </summary>
public sealed class ValueMap
{
    private readonly Dictionary<uint, string> _names;
    private readonly (uint Value, string Name)[] _ordered;

    public ValueMap(string name, bool isBitMap, IEnumerable<(uint Value, string Name)> entries)
    {
        Name = name;
        IsBitMap = isBitMap;
        _ordered = entries.ToArray();
        _names = new Dictionary<uint, string>(_ordered.Length);
        foreach (var (value, text) in _ordered) _names.TryAdd(value, text);
    }

    public string Name { get; }
    public bool IsBitMap { get; }
    public int Count => _ordered.Length;
    public IReadOnlyList<(uint Value, string Name)> Entries => _ordered;

    /// <summary>The value's name (bit map: the names of its set bits joined by " | "), or null when it has none.</summary>
    public string? Format(ulong value)
    {
        if (!IsBitMap) return _names.TryGetValue((uint)value, out var name) ? name : null;
        if (value == 0) return _names.TryGetValue(0, out var zero) ? zero : null;
        var parts = new List<string>();
        ulong rest = value;
        foreach (var (bit, text) in _ordered)
        {
            if (bit != 0 && (value & bit) == bit)
            {
                parts.Add(text);
                rest &= ~(ulong)bit;
            }
        }
        if (parts.Count == 0) return null;
        if (rest != 0) parts.Add($"0x{rest:X}");
        return string.Join(" | ", parts);
    }
}

/// <summary>Finds a provider's value map by name.</summary>
public interface IValueMapSource
{
    ValueMap? FindMap(Guid providerId, string mapName);
}
