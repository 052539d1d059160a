namespace HiddenCost.Etl.State;

/// <summary>The code range of one JIT-compiled (or precompiled) .NET method in a process, from CLR method events.</summary>
public sealed class ClrMethodInfo : IAddressRange
{
    // What does not change from one instance of the method to the next: a process id reused again and again (a test
    // run in a loop, a repeated trace) loads the same methods at the same addresses in each of its instances, and each
    // instance needs a record of its own (its own lifetime), but they share this. 48 bytes a record instead of 80.
    private readonly MethodIdentity _identity;

    internal ClrMethodInfo(int processId, ulong start, uint size, string fullName, string signature, ulong methodId, ulong moduleId, long loadTimeNs)
        : this(new MethodIdentity(processId, size, fullName, signature, methodId, moduleId), start, loadTimeNs) { }

    /// <summary>Another instance of the method <paramref name="earlier"/> describes (same process id, range and names).</summary>
    internal ClrMethodInfo(ClrMethodInfo earlier, long loadTimeNs) : this(earlier._identity, earlier.Start, loadTimeNs) { }

    private ClrMethodInfo(MethodIdentity identity, ulong start, long loadTimeNs)
    {
        _identity = identity;
        Start = start;
        LoadTimeNs = loadTimeNs;
    }

    public int ProcessId => _identity.ProcessId;
    public ulong Start { get; }
    public uint Size => _identity.Size;

    /// <summary><c>Namespace.Type.Method</c>.</summary>
    public string FullName => _identity.FullName;

    public string Signature => _identity.Signature;
    public ulong MethodId => _identity.MethodId;
    public ulong ModuleId => _identity.ModuleId;
    public long LoadTimeNs { get; }
    public long UnloadTimeNs { get; internal set; } = Lifetime.AfterTrace;

    /// <summary>Whether this record describes the same method at the same range as the arguments (so can share with a new instance).</summary>
    internal bool IsSameMethod(int processId, ulong start, uint size, string fullName, string signature, ulong methodId, ulong moduleId) =>
        Start == start && _identity.ProcessId == processId && _identity.Size == size && _identity.MethodId == methodId && _identity.ModuleId == moduleId &&
        string.Equals(_identity.FullName, fullName, StringComparison.Ordinal) && string.Equals(_identity.Signature, signature, StringComparison.Ordinal);

    public bool Contains(ulong address) => address >= Start && address - Start < Size;
    public bool IsLoaded(long timeNs) => Lifetime.Contains(LoadTimeNs, UnloadTimeNs, timeNs);

    public override string ToString() => $"{FullName} 0x{Start:X}+{Size}";

    ulong IAddressRange.RangeStart => Start;
    ulong IAddressRange.RangeLength => _identity.Size;
    long IAddressRange.RangeLoad => LoadTimeNs;
    long IAddressRange.RangeUnload => UnloadTimeNs;

    private sealed record MethodIdentity(int ProcessId, uint Size, string FullName, string Signature, ulong MethodId, ulong ModuleId);
}
