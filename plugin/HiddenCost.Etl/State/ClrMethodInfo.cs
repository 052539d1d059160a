namespace HiddenCost.Etl.State;

/// <summary>The code range of one JIT-compiled (or precompiled) .NET method in a process, from CLR method events.</summary>
public sealed class ClrMethodInfo : IAddressRange
{
    internal ClrMethodInfo(int processId, ulong start, uint size, string fullName, string signature, ulong methodId, ulong moduleId, long loadTimeNs)
    {
        ProcessId = processId;
        Start = start;
        Size = size;
        FullName = fullName;
        Signature = signature;
        MethodId = methodId;
        ModuleId = moduleId;
        LoadTimeNs = loadTimeNs;
    }

    public int ProcessId { get; }
    public ulong Start { get; }
    public uint Size { get; }

    /// <summary><c>Namespace.Type.Method</c>.</summary>
    public string FullName { get; }

    public string Signature { get; }
    public ulong MethodId { get; }
    public ulong ModuleId { get; }
    public long LoadTimeNs { get; }
    public long UnloadTimeNs { get; internal set; } = Lifetime.AfterTrace;

    public bool Contains(ulong address) => address >= Start && address - Start < Size;
    public bool IsLoaded(long timeNs) => Lifetime.Contains(LoadTimeNs, UnloadTimeNs, timeNs);

    public override string ToString() => $"{FullName} 0x{Start:X}+{Size}";

    ulong IAddressRange.RangeStart => Start;
    ulong IAddressRange.RangeLength => Size;
    long IAddressRange.RangeLoad => LoadTimeNs;
    long IAddressRange.RangeUnload => UnloadTimeNs;
}
