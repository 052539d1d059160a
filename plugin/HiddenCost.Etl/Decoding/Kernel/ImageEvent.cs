using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Kernel;

/// <summary>
/// Image Load (10), Unload (2), DCStart (3), DCEnd (4): WMI_IMAGELOAD_INFORMATION. Windows logs the Load under the
/// Process group's hook (0x030A); the reader gives it the Image group, as TDH does.
/// v2+: ptr ImageBase; ptr ImageSize; u32 ProcessId; u32 ImageChecksum; u32 TimeDateStamp; u8 SignatureLevel;
/// u8 SignatureType; u16 Reserved0; ptr DefaultBase; u32 Reserved1..4; UTF-16 FileName (an NT path).
/// v0/v1: ptr ImageBase; ptr ImageSize; u32 ProcessId; UTF-16 FileName.
/// Kernel modules are logged with ProcessId 0.
/// </summary>
public readonly record struct ImageEvent(
    byte Opcode,
    ulong ImageBase,
    ulong ImageSize,
    int ProcessId,
    uint ImageChecksum,
    uint TimeDateStamp,
    byte SignatureLevel,
    byte SignatureType,
    ulong DefaultBase,
    string FileName)
{
    public const byte Load = 10, Unload = 2, DCStart = 3, DCEnd = 4;

    public bool IsLoad => Opcode is Load or DCStart;

    public static bool Matches(in EtwEvent e) =>
        e.IsKernel && e.Group == KernelGroups.Image && e.Opcode is Load or Unload or DCStart or DCEnd;

    /// <summary>
    /// True when <see cref="TryDecode"/> decodes the event: it is of this kind and holds the fixed part; the fields and file name after
    /// it are read leniently and never fail. Checks what TryDecode checks without reading (or interning) them.
    /// </summary>
    public static bool Fits(in EtwEvent e) => Matches(e) && e.Payload.Length >= 2 * e.PointerSize + 4;

    public static bool TryDecode(in EtwEvent e, out ImageEvent image, StringPool? strings = null)
    {
        image = default;
        if (!Fits(e)) return false;
        var p = e.Payload;
        int ptr = e.PointerSize;
        int pid = 2 * ptr;
        if (e.Version < 2)
        {
            int nameAt = pid + 4;
            image = new ImageEvent(e.Opcode, PayloadReader.Pointer(p, 0, ptr), PayloadReader.Pointer(p, ptr, ptr),
                PayloadReader.I32(p, pid), 0, 0, 0, 0, 0, PayloadStrings.Utf16(p, ref nameAt, strings));
            return true;
        }
        int name = 3 * ptr + 32;
        image = new ImageEvent(e.Opcode, PayloadReader.Pointer(p, 0, ptr), PayloadReader.Pointer(p, ptr, ptr),
            PayloadReader.I32(p, pid), PayloadReader.U32(p, pid + 4), PayloadReader.U32(p, pid + 8),
            PayloadReader.U8(p, pid + 12), PayloadReader.U8(p, pid + 13), PayloadReader.Pointer(p, pid + 16, ptr),
            PayloadStrings.Utf16(p, ref name, strings));
        return true;
    }
}
