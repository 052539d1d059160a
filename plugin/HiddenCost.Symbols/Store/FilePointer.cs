namespace HiddenCost.Symbols.Store;

/// <summary>
/// A store's <c>file.ptr</c>: instead of the PDB, one line naming where it is (<c>PATH:\\server\share\…\name.pdb</c>,
/// a local path or a URL) or why it is not there (<c>MSG:…</c>).
/// </summary>
internal readonly record struct FilePointer(string? Target, string? Message)
{
    public const int MaxBytes = 4096;

    public static FilePointer Parse(string text)
    {
        var line = text.Trim().Split('\n')[0].Trim();
        if (line.StartsWith("PATH:", StringComparison.OrdinalIgnoreCase) && line.Length > 5) return new FilePointer(line[5..].Trim(), null);
        if (line.StartsWith("MSG:", StringComparison.OrdinalIgnoreCase)) return new FilePointer(null, line[4..].Trim());
        return new FilePointer(null, "file.ptr holds neither PATH: nor MSG:");
    }

    public bool IsUrl => Target is { } t && (t.StartsWith("http://", StringComparison.OrdinalIgnoreCase) || t.StartsWith("https://", StringComparison.OrdinalIgnoreCase));
}
