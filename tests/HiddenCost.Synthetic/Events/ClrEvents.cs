using HiddenCost.Synthetic.Etl;

namespace HiddenCost.Synthetic.Events;

/// <summary>A JIT-compiled (or precompiled) method as the CLR method events describe it.</summary>
public sealed record ClrMethod(ulong MethodId, ulong ModuleId, ulong StartAddress, uint Size, uint Token, string Namespace, string Name, string Signature)
{
    /// <summary>MethodFlags: 0x8 Jitted; tier bits (flags &gt;&gt; 7) &amp; 7 = 4 OptimizedTier1.</summary>
    public uint Flags { get; init; } = 0x8 | (4 << 7);

    /// <summary>Namespace.Type.Method as analyses name it.</summary>
    public string FullName => Namespace + "." + Name;

    public bool Contains(ulong address) => address >= StartAddress && address < StartAddress + Size;
}

/// <summary>
/// Microsoft-Windows-DotNETRuntime (e13c0d23-…) and its rundown provider (a669021c-…): EVENT_HEADER events,
/// packed payloads (event-payloads.md §1; ClrEtwAll.man; PerfView ClrTraceEventParser). Channel 0 as in the
/// samples' CLR events.
/// </summary>
public static class ClrEvents
{
    public const ushort MethodLoadVerboseId = 143;
    public const ushort MethodDCStartVerboseId = 143;
    public const ushort MethodDCEndVerboseId = 144;
    public const ushort ContentionStartId = 81;
    public const ushort ContentionStopId = 91;

    public const ulong JitKeyword = 0x10;
    public const ulong NGenKeyword = 0x20;
    public const ulong ContentionKeyword = 0x4000;
    public const ushort ClrInstanceId = 9;

    private const byte Informational = 4;
    private const ushort MethodTask = 9;
    private const ushort MethodRundownTask = 1;
    private const ushort ContentionTask = 8;

    /// <summary>
    /// MethodLoadVerbose (runtime 143, task 9 CLRMethod, opcode 37, keywords Jit|NGen, level 4); version 1 as in
    /// the .NET Framework sample, version 2 (adds ReJITID) on .NET Core. Payload: u64 MethodID; u64 ModuleID;
    /// u64 MethodStartAddress; u32 MethodSize; u32 MethodToken; u32 MethodFlags; UTF-16 Namespace; UTF-16 Name;
    /// UTF-16 Signature; u16 ClrInstanceID (v1+); u64 ReJITID (v2+).
    /// </summary>
    public static ManifestRecord MethodLoadVerbose(EventContext c, ClrMethod m, byte version = 2) =>
        Method(c, Providers.DotNetRuntime, new EventDescriptor(MethodLoadVerboseId, version, 0, Informational, 37, MethodTask, JitKeyword | NGenKeyword), m);

    /// <summary>MethodDCStartVerbose (rundown 143, task 1, opcode 39); same payload as MethodLoadVerbose.</summary>
    public static ManifestRecord MethodDCStartVerbose(EventContext c, ClrMethod m, byte version = 2) =>
        Method(c, Providers.DotNetRuntimeRundown, new EventDescriptor(MethodDCStartVerboseId, version, 0, Informational, 39, MethodRundownTask, JitKeyword | NGenKeyword), m);

    /// <summary>
    /// MethodDCEndVerbose (rundown 144, task 1, opcode 40, keywords 0x30 and level 4 as in the samples, which hold
    /// versions 1 and 2); same payload as MethodLoadVerbose.
    /// </summary>
    public static ManifestRecord MethodDCEndVerbose(EventContext c, ClrMethod m, byte version = 2) =>
        Method(c, Providers.DotNetRuntimeRundown, new EventDescriptor(MethodDCEndVerboseId, version, 0, Informational, 40, MethodRundownTask, JitKeyword | NGenKeyword), m);

    /// <summary>
    /// ContentionStart (81, task 8, opcode 1, keyword 0x4000, level 4). v1 (.NET Framework): u8 ContentionFlags;
    /// u16 ClrInstanceID (3 bytes). v2 (.NET 7+): adds ptr LockID; ptr AssociatedObjectID; u64 LockOwnerThreadID
    /// (pointers as wide as the process's pointer size).
    /// </summary>
    public static ManifestRecord ContentionStart(EventContext c, byte version, ulong lockId = 0, ulong associatedObjectId = 0, ulong lockOwnerThreadId = 0, byte contentionFlags = 0)
    {
        if (version is not (1 or 2)) throw new ArgumentException($"ContentionStart version must be 1 or 2, not {version}");
        var p = new PayloadBuilder(c.PointerSize).U8(contentionFlags).U16(ClrInstanceId);
        if (version == 2) p.Pointer(lockId).Pointer(associatedObjectId).U64(lockOwnerThreadId);
        return Manifest(c, Providers.DotNetRuntime, new EventDescriptor(ContentionStartId, version, 0, Informational, 1, ContentionTask, ContentionKeyword), p);
    }

    /// <summary>
    /// ContentionStop (91, task 8, opcode 2, keyword 0x4000). v0 (.NET Framework): u8 ContentionFlags; u16
    /// ClrInstanceID (3 bytes). v1: adds f64 DurationNs (11 bytes).
    /// </summary>
    public static ManifestRecord ContentionStop(EventContext c, byte version, double durationNs = 0, byte contentionFlags = 0)
    {
        if (version is not (0 or 1)) throw new ArgumentException($"ContentionStop version must be 0 or 1, not {version}");
        var p = new PayloadBuilder(c.PointerSize).U8(contentionFlags).U16(ClrInstanceId);
        if (version == 1) p.F64(durationNs);
        return Manifest(c, Providers.DotNetRuntime, new EventDescriptor(ContentionStopId, version, 0, Informational, 2, ContentionTask, ContentionKeyword), p);
    }

    private static ManifestRecord Method(EventContext c, Guid provider, EventDescriptor d, ClrMethod m)
    {
        if (d.Version > 2) throw new ArgumentException($"method event version must be 0..2, not {d.Version}");
        var p = new PayloadBuilder(c.PointerSize)
            .U64(m.MethodId).U64(m.ModuleId).U64(m.StartAddress).U32(m.Size).U32(m.Token).U32(m.Flags)
            .WString(m.Namespace).WString(m.Name).WString(m.Signature);
        if (d.Version >= 1) p.U16(ClrInstanceId);
        if (d.Version >= 2) p.U64(0);
        return Manifest(c, provider, d, p);
    }

    internal static ManifestRecord Manifest(EventContext c, Guid provider, EventDescriptor d, PayloadBuilder p) => new()
    {
        Cpu = c.Cpu,
        Timestamp = c.Timestamp,
        PointerSize = c.PointerSize,
        ProviderId = provider,
        Descriptor = d,
        ThreadId = c.ThreadId,
        ProcessId = c.ProcessId,
        Payload = p.ToArray(),
    };
}
