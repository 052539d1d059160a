using HiddenCost.Synthetic.Events;

namespace HiddenCost.Synthetic.Model;

/// <summary>A process of the synthetic machine.</summary>
public sealed class SyntheticProcess
{
    internal SyntheticProcess(int pid, int parentPid, string imageName, string commandLine, int pointerSize, byte[]? sid, long? startQpc)
    {
        Pid = pid;
        ParentPid = parentPid;
        ImageName = imageName;
        CommandLine = commandLine;
        PointerSize = pointerSize;
        UserSid = sid;
        StartQpc = startQpc;
    }

    public int Pid { get; }
    public int ParentPid { get; }

    /// <summary>File name as the process event's ImageFileName holds it, e.g. <c>svchost.exe</c>.</summary>
    public string ImageName { get; }

    public string CommandLine { get; }

    /// <summary>Pointer size of the process's user-mode code (4 for a WOW64 process on a 64-bit kernel).</summary>
    public int PointerSize { get; }

    public byte[]? UserSid { get; }
    public uint SessionId { get; init; } = 1;

    /// <summary>Null when the process exists before the trace (it appears in the start rundown).</summary>
    public long? StartQpc { get; }

    /// <summary>Set by <see cref="TraceBuilder.EndProcess"/>.</summary>
    public long? EndQpc { get; internal set; }

    public int ExitStatus { get; internal set; }

    public List<SyntheticThread> Threads { get; } = [];
    public List<SyntheticImage> Images { get; } = [];

    public override string ToString() => $"{ImageName} ({Pid})";
}

/// <summary>A thread of a synthetic process.</summary>
public sealed class SyntheticThread
{
    internal SyntheticThread(SyntheticProcess process, int tid, string name, long? startQpc)
    {
        Process = process;
        Tid = tid;
        Name = name;
        StartQpc = startQpc;
    }

    public SyntheticProcess Process { get; }
    public int Tid { get; }
    public string Name { get; }
    public long? StartQpc { get; }
    public long? EndQpc { get; internal set; }
    public byte Priority { get; init; } = 8;
    public ulong Win32StartAddress { get; init; }

    public override string ToString() => $"{Process.ImageName} ({Process.Pid}) thread {Tid}";
}

/// <summary>PDB identity written in DbgID_RSDS (synthetic GUIDs: ASCII "SYNTHETI" prefix, never a real PDB's).</summary>
public sealed record PdbIdentity(Guid Signature, uint Age, string PdbName);

/// <summary>An image mapped in a process (or a kernel module, in process 0).</summary>
public sealed class SyntheticImage
{
    internal SyntheticImage(SyntheticProcess process, string ntPath, ulong imageBase, ulong size, uint timeDateStamp, uint checksum, PdbIdentity pdb, long? loadQpc)
    {
        Process = process;
        NtPath = ntPath;
        Base = imageBase;
        Size = size;
        TimeDateStamp = timeDateStamp;
        Checksum = checksum;
        Pdb = pdb;
        LoadQpc = loadQpc;
    }

    public SyntheticProcess Process { get; }

    /// <summary>Path as image events carry it: <c>\SystemRoot\system32\ntoskrnl.exe</c> or <c>\Device\HarddiskVolume3\…</c>.</summary>
    public string NtPath { get; }

    public string FileName => NtPath[(NtPath.LastIndexOf('\\') + 1)..];
    public ulong Base { get; }
    public ulong Size { get; }
    public uint TimeDateStamp { get; }
    public uint Checksum { get; }
    public PdbIdentity Pdb { get; }
    public long? LoadQpc { get; }

    /// <summary>Address of an offset inside the image.</summary>
    public ulong At(ulong rva) => rva < Size ? Base + rva : throw new ArgumentOutOfRangeException(nameof(rva), $"0x{rva:X} outside {FileName} (size 0x{Size:X})");

    public bool Contains(ulong address) => address >= Base && address < Base + Size;

    public ImageInfo ToImageInfo() => new(Base, Size, (uint)Process.Pid, NtPath)
    {
        ImageChecksum = Checksum,
        TimeDateStamp = TimeDateStamp,
        DefaultBase = Base,
    };

    public override string ToString() => $"{FileName} @0x{Base:X} in {Process}";
}
