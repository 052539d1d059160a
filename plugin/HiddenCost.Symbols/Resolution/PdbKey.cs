namespace HiddenCost.Symbols.Resolution;

/// <summary>
/// Which PDB an image needs, as its RSDS record (and the trace's DbgID_RSDS event) names it: the PDB's file name,
/// GUID and age. The name is compared without regard to case, as Windows and symbol servers do.
/// </summary>
public readonly struct PdbKey : IEquatable<PdbKey>
{
    /// <summary>Takes the file name part of <paramref name="pdbPath"/> (RSDS records often hold the build machine's full path).</summary>
    public PdbKey(string pdbPath, Guid guid, uint age)
    {
        int slash = pdbPath.AsSpan().LastIndexOfAny('\\', '/'); // the array form allocated an array a call
        PdbName = slash < 0 ? pdbPath : pdbPath[(slash + 1)..];
        Guid = guid;
        Age = age;
    }

    public string PdbName { get; }
    public Guid Guid { get; }
    public uint Age { get; }

    /// <summary>The store folder's name: the GUID as 32 upper-case hex digits, then the age in hex (<c>C637F76B554FA2DF4C4C44205044422E1</c>).</summary>
    public string Signature => Guid.ToString("N").ToUpperInvariant() + Age.ToString("X");

    /// <summary>The symbol-store path: <c>name.pdb/SIGNATURE/name.pdb</c>.</summary>
    public string StorePath => $"{PdbName}/{Signature}/{PdbName}";

    public bool Equals(PdbKey other) =>
        Guid == other.Guid && Age == other.Age && string.Equals(PdbName, other.PdbName, StringComparison.OrdinalIgnoreCase);

    public override bool Equals(object? obj) => obj is PdbKey other && Equals(other);
    public override int GetHashCode() => HashCode.Combine(Guid, Age, StringComparer.OrdinalIgnoreCase.GetHashCode(PdbName ?? ""));
    public static bool operator ==(PdbKey a, PdbKey b) => a.Equals(b);
    public static bool operator !=(PdbKey a, PdbKey b) => !a.Equals(b);
    public override string ToString() => StorePath;
}
