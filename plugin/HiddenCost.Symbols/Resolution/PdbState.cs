namespace HiddenCost.Symbols.Resolution;

/// <summary>What became of an image's PDB.</summary>
public enum PdbState
{
    /// <summary>Not looked for yet (no frame of the image was asked about).</summary>
    NotLoaded,

    /// <summary>Found, matching, read: its publics name the image's frames.</summary>
    Loaded,

    /// <summary>No file of that name anywhere on the symbol path (or no symbol path).</summary>
    NotFound,

    /// <summary>Files of that name were found, but none with the GUID and age the image wants.</summary>
    Mismatched,

    /// <summary>The matching file is corrupt or in an unsupported format (the message says which).</summary>
    Unreadable,
}

/// <summary>One image's PDB as the resolver found it: for a Symbols table, and for notes naming what is missing.</summary>
public sealed record PdbStatus(
    string ImageFileName, PdbKey Pdb, PdbState State, string? Message, string? Source, int Publics, double LoadMilliseconds, long FramesResolved);
