using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.KernelTraceControl;

/// <summary>
/// KernelTraceControl ImageID (opcode 0): ptr ImageBase; ptr ImageSize; u32 ProcessId; u32 TimeDateStamp;
/// UTF-16 OriginalFileName (from the image's version resource).
/// </summary>
public readonly record struct ImageIdEvent(ulong ImageBase, ulong ImageSize, int ProcessId, uint TimeDateStamp, string OriginalFileName)
{
    public static bool Matches(in EtwEvent e) =>
        KernelTraceControlIds.IsClassic(e, KernelTraceControlIds.ImageIdTask, KernelTraceControlIds.ImageId);

    /// <summary>
    /// True when <see cref="TryDecode"/> decodes the event: it is of this kind and holds the fixed part; the original file name after
    /// it is read leniently and never fails. Checks what TryDecode checks without reading (or interning) it.
    /// </summary>
    public static bool Fits(in EtwEvent e) => Matches(e) && e.Payload.Length >= 2 * e.PointerSize + 8;

    public static bool TryDecode(in EtwEvent e, out ImageIdEvent image, StringPool? strings = null)
    {
        image = default;
        if (!Fits(e)) return false;
        var p = e.Payload;
        int ptr = e.PointerSize;
        int name = 2 * ptr + 8;
        image = new ImageIdEvent(PayloadReader.Pointer(p, 0, ptr), PayloadReader.Pointer(p, ptr, ptr),
            PayloadReader.I32(p, 2 * ptr), PayloadReader.U32(p, 2 * ptr + 4), PayloadStrings.Utf16(p, ref name, strings));
        return true;
    }
}

/// <summary>
/// KernelTraceControl DbgID_RSDS (opcode 0x24): ptr ImageBase; u32 ProcessId; GUID Signature; u32 Age;
/// UTF-8 PdbFileName — the CodeView record that names the image's PDB for a symbol server.
/// </summary>
public readonly record struct DbgIdRsds(ulong ImageBase, int ProcessId, Guid Signature, uint Age, string PdbFileName)
{
    public static bool Matches(in EtwEvent e) =>
        KernelTraceControlIds.IsClassic(e, KernelTraceControlIds.ImageIdTask, KernelTraceControlIds.DbgIdRsds);

    /// <summary>
    /// True when <see cref="TryDecode"/> decodes the event: it is of this kind and holds the fixed part; the PDB file name after
    /// it is read leniently and never fails. Checks what TryDecode checks without reading (or interning) it.
    /// </summary>
    public static bool Fits(in EtwEvent e) => Matches(e) && e.Payload.Length >= e.PointerSize + 24;

    public static bool TryDecode(in EtwEvent e, out DbgIdRsds rsds, StringPool? strings = null)
    {
        rsds = default;
        if (!Fits(e)) return false;
        var p = e.Payload;
        int ptr = e.PointerSize;
        int name = ptr + 24;
        rsds = new DbgIdRsds(PayloadReader.Pointer(p, 0, ptr), PayloadReader.I32(p, ptr), PayloadReader.Guid(p, ptr + 4),
            PayloadReader.U32(p, ptr + 20), PayloadStrings.Ansi(p, ref name, strings));
        return true;
    }
}

/// <summary>
/// SystemConfigEx VolumeMapping (35): UTF-16 NtPath (e.g. <c>\Device\HarddiskVolume2\</c>); UTF-16 DosPath (<c>C:\</c>).
/// </summary>
public readonly record struct VolumeMapping(string NtPath, string DosPath)
{
    public static bool Matches(in EtwEvent e) =>
        KernelTraceControlIds.IsClassic(e, KernelTraceControlIds.SystemConfigExTask, KernelTraceControlIds.VolumeMapping);

    public static bool TryDecode(in EtwEvent e, out VolumeMapping mapping)
    {
        mapping = default;
        if (!Matches(e)) return false;
        int offset = 0;
        var nt = PayloadStrings.Utf16(e.Payload, ref offset, null);
        var dos = PayloadStrings.Utf16(e.Payload, ref offset, null);
        if (nt.Length == 0) return false;
        mapping = new VolumeMapping(nt, dos);
        return true;
    }
}
