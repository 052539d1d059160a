using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Decoding.Kernel;

namespace HiddenCost.Etl.State;

/// <summary>
/// FileKey → file name, from FileIo Name / FileCreate / FileRundown (FileDelete ends a name: the key is freed
/// and may be reused). Operation events carry only the key; a key that is never named stays a key.
/// </summary>
public sealed class FileNames
{
    private readonly Dictionary<ulong, string> _names = new();
    private readonly StringPool _strings;

    public FileNames(StringPool? strings = null) => _strings = strings ?? new StringPool();

    public int Count => _names.Count;

    /// <summary>Learns from a FileIo name event; true when <paramref name="e"/> was one.</summary>
    public bool Observe(in EtwEvent e)
    {
        if (!FileIoName.TryDecode(e, out var name, _strings)) return false;
        if (name.Opcode == FileIoTypes.FileDelete) _names.Remove(name.FileKey);
        else _names[name.FileKey] = name.FileName;
        return true;
    }

    public bool TryGetName(ulong fileKey, out string name) => _names.TryGetValue(fileKey, out name!);

    /// <summary>The name, or the key as <c>FileKey 0x…</c> when unnamed.</summary>
    public string NameOf(ulong fileKey) => _names.TryGetValue(fileKey, out var name) ? name : $"FileKey 0x{fileKey:X}";
}
