namespace HiddenCost.Symbols;

/// <summary>
/// A symbol file (PDB, cabinet, file.ptr) that cannot be read: truncated, corrupt, hostile, or in a format this
/// reader does not support (<see cref="Unsupported"/>). The message names the file and, where known, the offset.
/// </summary>
public sealed class SymbolFormatException : Exception
{
    public SymbolFormatException(string file, string message, long offset = -1, bool unsupported = false)
        : base(offset >= 0 ? $"{file}: {message} (at offset 0x{offset:X})" : $"{file}: {message}")
    {
        FilePath = file;
        Offset = offset;
        Unsupported = unsupported;
    }

    /// <summary>The file's path (or the name it was opened under).</summary>
    public string FilePath { get; }

    /// <summary>Byte offset in the file (or in the stream named by the message) where reading failed; -1 when not tied to one.</summary>
    public long Offset { get; }

    /// <summary>True when the file is well formed but in a format this reader does not read (MSFZ, PDB 2.0, LZX cabinets).</summary>
    public bool Unsupported { get; }
}
