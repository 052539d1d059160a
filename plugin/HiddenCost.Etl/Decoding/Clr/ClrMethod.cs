using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Clr;

/// <summary>Which event announced a JIT-compiled (or precompiled) method's code range.</summary>
public enum ClrMethodEventKind : byte
{
    /// <summary>Runtime MethodLoadVerbose (143): the method was just compiled.</summary>
    Load,
    /// <summary>Runtime MethodUnloadVerbose (144): the code range is released.</summary>
    Unload,
    /// <summary>Rundown MethodDCStartVerbose (143): the method existed when the session started.</summary>
    DCStart,
    /// <summary>Rundown MethodDCEndVerbose (144): the method existed when the session ended.</summary>
    DCEnd,
}

/// <summary>
/// MethodLoadVerbose / MethodUnloadVerbose (runtime 143/144) and MethodDCStartVerbose / MethodDCEndVerbose
/// (rundown 143/144), versions 0–2: u64 MethodID; u64 ModuleID; u64 MethodStartAddress (8 bytes even in 32-bit
/// processes); u32 MethodSize; u32 MethodToken; u32 MethodFlags; UTF-16 MethodNamespace; UTF-16 MethodName;
/// UTF-16 MethodSignature; (v1+) u16 ClrInstanceID; (v2+) u64 ReJITID. The process is the event's header pid.
/// </summary>
public readonly record struct ClrMethod(
    ClrMethodEventKind Kind,
    ulong MethodId,
    ulong ModuleId,
    ulong MethodStartAddress,
    uint MethodSize,
    uint MethodToken,
    uint MethodFlags,
    string MethodNamespace,
    string MethodName,
    string MethodSignature,
    ushort ClrInstanceId,
    ulong ReJitId)
{
    public bool IsDynamic => (MethodFlags & 0x1) != 0;
    public bool IsGeneric => (MethodFlags & 0x2) != 0;
    public bool IsJitted => (MethodFlags & 0x8) != 0;

    /// <summary><c>Namespace.Type.Method</c>: MethodNamespace holds the declaring type's full name.</summary>
    public string FullName => MethodNamespace.Length == 0 ? MethodName : MethodNamespace + "." + MethodName;

    // Runtime and rundown number these alike (143 load / DCStart, 144 unload / DCEnd): the id, then one provider read.
    public static bool Matches(in EtwEvent e) => Matches(e, out _);

    private static bool Matches(in EtwEvent e, out bool rundown)
    {
        rundown = false;
        return e.EventId is ClrProviders.MethodLoadVerboseId or ClrProviders.MethodUnloadVerboseId && ClrProviders.IsEither(e, out rundown);
    }

    /// <summary>Where the UTF-16 MethodNamespace starts (the three names follow one another).</summary>
    internal const int NamesOffset = 36;

    /// <summary>
    /// The fixed part only (kind, method id, start, size), without reading or interning the names: for callers
    /// that need the names only for methods they have not seen yet.
    /// </summary>
    internal static bool TryDecodeRange(in EtwEvent e, out ClrMethodEventKind kind, out ulong methodId, out ulong start, out uint size)
    {
        kind = default;
        methodId = start = 0;
        size = 0;
        if (!Matches(e, out bool rundown)) return false;
        var p = e.Payload;
        if (p.Length < NamesOffset) return false;
        kind = e.EventId == 143
            ? (rundown ? ClrMethodEventKind.DCStart : ClrMethodEventKind.Load)
            : (rundown ? ClrMethodEventKind.DCEnd : ClrMethodEventKind.Unload);
        methodId = PayloadReader.U64(p, 0);
        start = PayloadReader.U64(p, 16);
        size = PayloadReader.U32(p, 24);
        return true;
    }

    /// <summary>Decodes the event with its names copied out; <see cref="ClrMethodView"/> reads them without copying.</summary>
    public static bool TryDecode(in EtwEvent e, out ClrMethod method, StringPool? strings = null)
    {
        method = default;
        if (!ClrMethodView.TryDecode(e, out var view)) return false;
        method = view.ToRecord(strings);
        return true;
    }
}
