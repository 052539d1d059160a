namespace HiddenCost.Etl.State;

/// <summary>
/// A PDB's identity as recorded in an image's CodeView (RSDS) record: what a symbol server needs.
/// </summary>
public readonly record struct PdbIdentity(string PdbName, Guid Signature, uint Age)
{
    /// <summary>The symbol-server key: <c>name/GUIDAGE/name</c> (GUID as 32 upper-case hex digits, age in hex).</summary>
    public string SymbolServerKey
    {
        get
        {
            var file = Path.GetFileName(PdbName.Replace('\\', '/'));
            return $"{file}/{Signature.ToString("N").ToUpperInvariant()}{Age:X}/{file}";
        }
    }
}

/// <summary>
/// One image mapped into a process (kernel modules belong to process 0) for a time range. Rundown-only images
/// span the whole trace.
/// </summary>
public sealed class ImageInfo : IAddressRange
{
    internal ImageInfo(int processId, ulong imageBase, ulong imageSize, string filePath, uint checksum, uint timeDateStamp, long loadTimeNs)
    {
        ProcessId = processId;
        ImageBase = imageBase;
        ImageSize = imageSize;
        FilePath = filePath;
        FileName = FileNameOf(filePath);
        Checksum = checksum;
        TimeDateStamp = timeDateStamp;
        LoadTimeNs = loadTimeNs;
    }

    public int ProcessId { get; }
    public ulong ImageBase { get; }
    public ulong ImageSize { get; }
    public ulong ImageEnd => ImageBase + ImageSize;

    /// <summary>The path as logged (an NT path such as <c>\Device\HarddiskVolume2\Windows\System32\ntdll.dll</c>).</summary>
    public string FilePath { get; }

    /// <summary>The file name part of <see cref="FilePath"/> (e.g. <c>ntdll.dll</c>).</summary>
    public string FileName { get; }

    public uint Checksum { get; }
    public uint TimeDateStamp { get; }
    public long LoadTimeNs { get; }
    public long UnloadTimeNs { get; internal set; } = Lifetime.AfterTrace;

    /// <summary>PDB identity from KernelTraceControl DbgID_RSDS, when the trace carries it.</summary>
    public PdbIdentity? Pdb { get; internal set; }

    /// <summary>OriginalFileName from KernelTraceControl ImageID, when present.</summary>
    public string? OriginalFileName { get; internal set; }

    public bool IsKernel => ProcessId == 0;
    public bool Contains(ulong address) => address >= ImageBase && address - ImageBase < ImageSize;
    public bool IsLoaded(long timeNs) => Lifetime.Contains(LoadTimeNs, UnloadTimeNs, timeNs);

    public override string ToString() => $"{FileName} 0x{ImageBase:X}-0x{ImageEnd:X} (pid {ProcessId})";

    ulong IAddressRange.RangeStart => ImageBase;
    ulong IAddressRange.RangeLength => ImageSize;
    long IAddressRange.RangeLoad => LoadTimeNs;
    long IAddressRange.RangeUnload => UnloadTimeNs;

    internal static string FileNameOf(string path)
    {
        int slash = path.AsSpan().LastIndexOfAny('\\', '/'); // the array form allocated an array a call
        return slash < 0 ? path : path[(slash + 1)..];
    }
}
