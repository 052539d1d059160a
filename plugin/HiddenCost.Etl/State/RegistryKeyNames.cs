using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Decoding.Kernel;

namespace HiddenCost.Etl.State;

/// <summary>
/// KCB address → full key path, from the registry KCB events (KCBCreate, KCBRundownBegin/End carry the full
/// path; KCBDelete frees the address for reuse), so operation events can be named in full:
/// <see cref="FullKeyName"/> joins the KCB's path with the event's relative name (value events name the key
/// alone; their KeyName is the value name).
/// </summary>
public sealed class RegistryKeyNames
{
    private readonly Dictionary<ulong, string> _names = new();
    private readonly StringPool _strings;

    public RegistryKeyNames(StringPool? strings = null) => _strings = strings ?? new StringPool();

    public int Count => _names.Count;

    /// <summary>Learns from a KCB event (and from decoded registry events in general); true for registry events.</summary>
    public bool Observe(in EtwEvent e)
    {
        if (!RegistryEvent.TryDecode(e, out var r, _strings)) return false;
        Observe(r);
        return true;
    }

    public void Observe(in RegistryEvent r)
    {
        switch (r.Opcode)
        {
            case RegistryEvent.KcbCreate or RegistryEvent.KcbRundownBegin or RegistryEvent.KcbRundownEnd when r.KeyHandle != 0 && r.KeyName.Length > 0:
                _names[r.KeyHandle] = r.KeyName;
                break;
            case RegistryEvent.KcbDelete:
                _names.Remove(r.KeyHandle);
                break;
        }
    }

    public bool TryGetName(ulong kcb, out string name) => _names.TryGetValue(kcb, out name!);

    /// <summary>
    /// The full key path an operation refers to: KeyName when KeyHandle is 0 (already absolute), the KCB's path
    /// for value operations, else the KCB's path joined with the relative KeyName. An unknown KCB shows as
    /// <c>KCB 0x…</c>.
    /// </summary>
    public string FullKeyName(in RegistryEvent r)
    {
        if (r.KeyHandle == 0) return r.KeyName;
        string key = _names.TryGetValue(r.KeyHandle, out var known) ? known : $"KCB 0x{r.KeyHandle:X}";
        if (r.IsKcbEvent || r.NamesValue || r.KeyName.Length == 0) return r.IsKcbEvent && r.KeyName.Length > 0 ? r.KeyName : key;
        return key + "\\" + r.KeyName.TrimStart('\\');
    }

    /// <summary><c>\REGISTRY\MACHINE\…</c> as <c>HKLM\…</c> and <c>\REGISTRY\USER\…</c> as <c>HKU\…</c>.</summary>
    public static string ToHiveName(string path)
    {
        if (path.StartsWith(@"\REGISTRY\MACHINE", StringComparison.OrdinalIgnoreCase)) return "HKLM" + path[17..];
        if (path.StartsWith(@"\REGISTRY\USER", StringComparison.OrdinalIgnoreCase)) return "HKU" + path[14..];
        return path;
    }
}
