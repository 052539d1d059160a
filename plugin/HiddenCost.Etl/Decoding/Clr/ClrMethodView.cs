using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Clr;

/// <summary>
/// A method load/unload/rundown event (<see cref="ClrMethod"/>'s layout) decoded without copying its names: they are
/// views over the payload, valid while the event is. Managed traces hold tens of thousands of method rundowns, each
/// with three names, and most consumers keep none of them (a rundown repeats methods already known) or build one
/// name of their own from two of them; those that keep them call <see cref="ToRecord"/>.
/// </summary>
public readonly ref struct ClrMethodView
{
    private ClrMethodView(ClrMethodEventKind kind, ReadOnlySpan<byte> p, ReadOnlySpan<char> ns, ReadOnlySpan<char> name,
        ReadOnlySpan<char> signature, ushort clrInstanceId, ulong reJitId)
    {
        Kind = kind;
        MethodId = PayloadReader.U64(p, 0);
        ModuleId = PayloadReader.U64(p, 8);
        MethodStartAddress = PayloadReader.U64(p, 16);
        MethodSize = PayloadReader.U32(p, 24);
        MethodToken = PayloadReader.U32(p, 28);
        MethodFlags = PayloadReader.U32(p, 32);
        MethodNamespace = ns;
        MethodName = name;
        MethodSignature = signature;
        ClrInstanceId = clrInstanceId;
        ReJitId = reJitId;
    }

    public ClrMethodEventKind Kind { get; }
    public ulong MethodId { get; }
    public ulong ModuleId { get; }
    public ulong MethodStartAddress { get; }
    public uint MethodSize { get; }
    public uint MethodToken { get; }
    public uint MethodFlags { get; }

    /// <summary>The declaring type's full name.</summary>
    public ReadOnlySpan<char> MethodNamespace { get; }
    public ReadOnlySpan<char> MethodName { get; }
    public ReadOnlySpan<char> MethodSignature { get; }

    /// <summary>0 before version 1.</summary>
    public ushort ClrInstanceId { get; }

    /// <summary>0 before version 2.</summary>
    public ulong ReJitId { get; }

    /// <summary>
    /// True when <see cref="TryDecode"/> decodes the event: it is of this kind and holds the fixed part; the names, instance and ReJIT ids after
    /// it are read leniently and never fail. Checks what TryDecode checks without reading (or interning) them.
    /// </summary>
    public static bool Fits(in EtwEvent e) => ClrMethod.TryDecodeRange(e, out _, out _, out _, out _);

    public static bool TryDecode(in EtwEvent e, out ClrMethodView method)
    {
        method = default;
        if (!ClrMethod.TryDecodeRange(e, out var kind, out _, out _, out _)) return false;
        var p = e.Payload;
        int offset = ClrMethod.NamesOffset;
        var ns = PayloadStrings.Utf16Span(p, ref offset);
        var name = PayloadStrings.Utf16Span(p, ref offset);
        var signature = PayloadStrings.Utf16Span(p, ref offset);
        ushort instance = e.Version >= 1 ? PayloadReader.U16(p, offset) : (ushort)0;
        ulong rejit = e.Version >= 2 ? PayloadReader.U64(p, offset + 2) : 0;
        method = new ClrMethodView(kind, p, ns, name, signature, instance, rejit);
        return true;
    }

    /// <summary>The event as a record that outlives it: its names copied out (interned when <paramref name="strings"/> is given).</summary>
    public ClrMethod ToRecord(StringPool? strings = null) =>
        new(Kind, MethodId, ModuleId, MethodStartAddress, MethodSize, MethodToken, MethodFlags,
            Text(MethodNamespace, strings), Text(MethodName, strings), Text(MethodSignature, strings), ClrInstanceId, ReJitId);

    private static string Text(ReadOnlySpan<char> text, StringPool? strings) =>
        text.IsEmpty ? "" : strings is null ? new string(text) : strings.Intern(text);
}
