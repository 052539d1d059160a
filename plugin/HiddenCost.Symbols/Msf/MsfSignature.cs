namespace HiddenCost.Symbols.Msf;

/// <summary>What the first bytes of a file say it is: an MSF 7.0 PDB, or a container this reader refuses by name.</summary>
internal static class MsfSignature
{
    public static ReadOnlySpan<byte> Msf70 => "Microsoft C/C++ MSF 7.00\r\n\u001aDS\0\0\0"u8;

    /// <summary>Bytes enough to tell the formats apart.</summary>
    public const int ProbeLength = 32;

    /// <summary>Null for an MSF 7.0 file, else why it is not one (and whether it is a known but unsupported format).</summary>
    public static (string Message, bool Unsupported)? Check(ReadOnlySpan<byte> head)
    {
        if (head.StartsWith(Msf70)) return null;
        if (head.StartsWith("Microsoft MSFZ"u8))
            return ("an MSFZ (compressed) PDB container, which this reader does not support", true);
        if (head.StartsWith("Microsoft C/C++ program database 2.00"u8))
            return ("a PDB 2.0 (pre-2000) file, which this reader does not support", true);
        if (head.StartsWith("MSCF"u8)) return ("a cabinet (a compressed .pd_), not a PDB", true);
        if (head.StartsWith("BSJB"u8)) return ("a portable (managed) PDB, not a Windows PDB", true);
        return ("not a PDB: no MSF 7.0 signature", false);
    }
}
