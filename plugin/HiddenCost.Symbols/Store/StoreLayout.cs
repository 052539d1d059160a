using HiddenCost.Symbols.Resolution;

namespace HiddenCost.Symbols.Store;

/// <summary>What a folder holds for a PDB: the PDB itself, a compressed copy (<c>name.pd_</c>), or a <c>file.ptr</c> naming where it is.</summary>
internal enum StoreEntryKind { Pdb, Compressed, FilePointer }

internal readonly record struct StoreEntry(string Path, StoreEntryKind Kind);

/// <summary>
/// Where a folder keeps a PDB: directly (<c>DIR/name.pdb</c>, a flat folder) or in a symbol-store layout
/// (<c>DIR/name.pdb/SIGNATURE/name.pdb</c>, or <c>name.pd_</c> or <c>file.ptr</c> in that folder). Names are matched
/// without regard to case, as on Windows, also on case-sensitive file systems.
/// </summary>
internal static class StoreLayout
{
    public const string FilePointerName = "file.ptr";

    public static string CompressedName(string pdbName) => pdbName[..^1] + "_";

    /// <summary>The path a store keeps the PDB at (where a download or an expanded <c>.pd_</c> is written).</summary>
    public static string StoredPath(string store, PdbKey key) => Path.Combine(store, key.PdbName, key.Signature, key.PdbName);

    public static IEnumerable<StoreEntry> Find(string folder, PdbKey key, bool flat)
    {
        if (!Directory.Exists(folder)) yield break;
        if (flat && FindIgnoringCase(folder, true, key.PdbName) is { } direct) yield return new StoreEntry(direct, StoreEntryKind.Pdb);
        if (FindIgnoringCase(folder, false, key.PdbName, key.Signature) is not { } keyed) yield break;
        if (FindIgnoringCase(keyed, true, key.PdbName) is { } pdb) yield return new StoreEntry(pdb, StoreEntryKind.Pdb);
        else if (FindIgnoringCase(keyed, true, CompressedName(key.PdbName)) is { } compressed) yield return new StoreEntry(compressed, StoreEntryKind.Compressed);
        else if (FindIgnoringCase(keyed, true, FilePointerName) is { } pointer) yield return new StoreEntry(pointer, StoreEntryKind.FilePointer);
    }

    /// <summary>The file (or folder) <paramref name="parts"/> below <paramref name="folder"/>, each part matched exactly or else without regard to case.</summary>
    private static string? FindIgnoringCase(string folder, bool file, params string[] parts)
    {
        string current = folder;
        for (int i = 0; i < parts.Length; i++)
        {
            bool last = file && i == parts.Length - 1;
            var exact = Path.Combine(current, parts[i]);
            if (last ? File.Exists(exact) : Directory.Exists(exact))
            {
                current = exact;
                continue;
            }
            string? match = null;
            try
            {
                var entries = last ? Directory.EnumerateFiles(current) : Directory.EnumerateDirectories(current);
                match = entries.FirstOrDefault(e => string.Equals(Path.GetFileName(e), parts[i], StringComparison.OrdinalIgnoreCase));
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
            }
            if (match is null) return null;
            current = match;
        }
        return current;
    }
}
