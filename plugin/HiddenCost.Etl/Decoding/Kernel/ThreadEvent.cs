using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Kernel;

/// <summary>
/// Thread Start (1), End (2), DCStart (3), DCEnd (4): WMI_EXTENDED_THREAD_INFORMATION (v2/v3).
/// Layout: u32 ProcessId; u32 ThreadId; ptr StackBase; ptr StackLimit; ptr UserStackBase; ptr UserStackLimit;
/// ptr Affinity (StartAddr in v2); ptr Win32StartAddr; ptr TebBase; u32 SubProcessTag; u8 BasePriority;
/// u8 PagePriority; u8 IoPriority; u8 ThreadFlags. Fields past the record's end read as 0.
/// </summary>
public readonly record struct ThreadEvent(
    byte Opcode,
    int ProcessId,
    int ThreadId,
    ulong StackBase,
    ulong StackLimit,
    ulong UserStackBase,
    ulong UserStackLimit,
    ulong AffinityOrStartAddress,
    ulong Win32StartAddress,
    ulong TebBase,
    uint SubProcessTag,
    byte BasePriority,
    byte PagePriority,
    byte IoPriority,
    byte ThreadFlags)
{
    public const byte Start = 1, End = 2, DCStart = 3, DCEnd = 4;

    public bool IsStart => Opcode is Start or DCStart;
    public bool IsEnd => Opcode is End or DCEnd;

    public static bool Matches(in EtwEvent e) =>
        e.IsKernel && e.Group == KernelGroups.Thread && e.Opcode is Start or End or DCStart or DCEnd;

    public static bool TryDecode(in EtwEvent e, out ThreadEvent thread)
    {
        thread = default;
        if (!Matches(e)) return false;
        var p = e.Payload;
        if (p.Length < 8) return false;
        int ptr = e.PointerSize;
        int tail = 8 + 7 * ptr;
        thread = new ThreadEvent(e.Opcode, PayloadReader.I32(p, 0), PayloadReader.I32(p, 4),
            PayloadReader.Pointer(p, 8, ptr), PayloadReader.Pointer(p, 8 + ptr, ptr),
            PayloadReader.Pointer(p, 8 + 2 * ptr, ptr), PayloadReader.Pointer(p, 8 + 3 * ptr, ptr),
            PayloadReader.Pointer(p, 8 + 4 * ptr, ptr), PayloadReader.Pointer(p, 8 + 5 * ptr, ptr),
            PayloadReader.Pointer(p, 8 + 6 * ptr, ptr),
            PayloadReader.U32(p, tail), PayloadReader.U8(p, tail + 4), PayloadReader.U8(p, tail + 5),
            PayloadReader.U8(p, tail + 6), PayloadReader.U8(p, tail + 7));
        return true;
    }
}

/// <summary>Thread SetName (72): u32 ProcessId; u32 ThreadId; UTF-16 ThreadName.</summary>
public readonly record struct ThreadSetName(int ProcessId, int ThreadId, string ThreadName)
{
    public const byte Opcode = 72;

    public static bool Matches(in EtwEvent e) => e.Is(KernelGroups.Thread, Opcode);

    public static bool TryDecode(in EtwEvent e, out ThreadSetName name, StringPool? strings = null)
    {
        name = default;
        if (!Matches(e) || e.Payload.Length < 8) return false;
        int offset = 8;
        name = new ThreadSetName(PayloadReader.I32(e.Payload, 0), PayloadReader.I32(e.Payload, 4),
            PayloadStrings.Utf16(e.Payload, ref offset, strings));
        return true;
    }
}
