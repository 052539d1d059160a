using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Kernel;

/// <summary>
/// PerfInfo SampledProfile (46): ptr InstructionPointer; u32 ThreadId; u16 Count; u8 Flags (bit 0 executing
/// a DPC, bit 1 an ISR, bits 3–7 priority); u8 Rank. The payload's ThreadId is the sampled thread.
/// </summary>
public readonly record struct SampledProfile(ulong InstructionPointer, int ThreadId, ushort Count, byte Flags, byte Rank)
{
    public const byte Opcode = 46;

    public bool ExecutingDpc => (Flags & 0x1) != 0;
    public bool ExecutingIsr => (Flags & 0x2) != 0;
    public int Priority => Flags >> 3;

    /// <summary>
    /// Whether the processor was running user-mode code: the instruction pointer is below the kernel's half of the
    /// address space (the upper half of 64-bit addresses; of 32-bit ones from 0x80000000, so a 32-bit system booted
    /// with a 3 GB user space shows its upper user gigabyte as kernel).
    /// </summary>
    public bool IsUserMode(int pointerSize) => InstructionPointer < (pointerSize == 8 ? 0x8000_0000_0000_0000UL : 0x8000_0000UL);

    public static bool Matches(in EtwEvent e) => e.Is(KernelGroups.PerfInfo, Opcode);

    /// <summary>True when <see cref="TryDecode"/> decodes the event (its kind, and the pointer and thread id present), without reading it.</summary>
    public static bool Fits(in EtwEvent e) => Matches(e) && e.Payload.Length >= e.PointerSize + 4;

    public static bool TryDecode(in EtwEvent e, out SampledProfile sample)
    {
        sample = default;
        if (!Fits(e)) return false;
        var p = e.Payload;
        int ptr = e.PointerSize;
        sample = new SampledProfile(PayloadReader.Pointer(p, 0, ptr), PayloadReader.I32(p, ptr),
            PayloadReader.U16(p, ptr + 4), PayloadReader.U8(p, ptr + 6), PayloadReader.U8(p, ptr + 7));
        return true;
    }
}

/// <summary>
/// PerfInfo sample-interval events: SetInterval (72), CollectionStart (73), CollectionEnd (74).
/// u32 Source (0 = timer); u32 NewInterval; u32 OldInterval (both in 100 ns units); (v3) UTF-16 SourceName.
/// </summary>
public readonly record struct ProfileInterval(byte Opcode, uint Source, uint NewInterval, uint OldInterval, string SourceName)
{
    public const byte SetInterval = 72, CollectionStart = 73, CollectionEnd = 74;

    /// <summary>The sampling interval in nanoseconds (NewInterval is in 100 ns units).</summary>
    public long IntervalNs => NewInterval * 100L;

    /// <summary>The interval a SetInterval replaced, in nanoseconds; 0 for the rundowns (CollectionStart/End), which replace none.</summary>
    public long PreviousIntervalNs => Opcode == SetInterval ? OldInterval * 100L : 0;

    public static bool Matches(in EtwEvent e) =>
        e.IsKernel && e.Group == KernelGroups.PerfInfo && e.Opcode is SetInterval or CollectionStart or CollectionEnd;

    public static bool TryDecode(in EtwEvent e, out ProfileInterval interval, StringPool? strings = null)
    {
        interval = default;
        if (!Matches(e) || e.Payload.Length < 8) return false;
        var p = e.Payload;
        int name = 12;
        interval = new ProfileInterval(e.Opcode, PayloadReader.U32(p, 0), PayloadReader.U32(p, 4), PayloadReader.U32(p, 8),
            PayloadStrings.Utf16(p, ref name, strings));
        return true;
    }
}
