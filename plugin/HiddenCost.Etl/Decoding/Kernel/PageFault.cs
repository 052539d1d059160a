using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Kernel;

/// <summary>
/// PageFault TransitionFault (10), DemandZeroFault (11), CopyOnWrite (12), GuardPageFault (13),
/// HardPageFault (14), AccessViolation (15): ptr VirtualAddress; ptr ProgramCounter.
/// </summary>
public readonly record struct PageFault(byte Opcode, ulong VirtualAddress, ulong ProgramCounter)
{
    public const byte TransitionFault = 10, DemandZeroFault = 11, CopyOnWrite = 12, GuardPageFault = 13,
        HardPageFault = 14, AccessViolation = 15;

    public static bool Matches(in EtwEvent e) =>
        e.IsKernel && e.Group == KernelGroups.PageFault && e.Opcode >= TransitionFault && e.Opcode <= AccessViolation;

    public static bool TryDecode(in EtwEvent e, out PageFault fault)
    {
        fault = default;
        if (!Matches(e) || e.Payload.Length < e.PointerSize) return false;
        int ptr = e.PointerSize;
        fault = new PageFault(e.Opcode, PayloadReader.Pointer(e.Payload, 0, ptr), PayloadReader.Pointer(e.Payload, ptr, ptr));
        return true;
    }
}

/// <summary>
/// PageFault HardFault (32): i64 InitialTime (raw clock at the start of the read); i64 ReadOffset;
/// ptr VirtualAddress; ptr FileObject; u32 TThreadId; u32 ByteCount. The event's timestamp is the completion.
/// </summary>
public readonly record struct HardFault(long InitialTime, long ReadOffset, ulong VirtualAddress, ulong FileObject, int ThreadId, uint ByteCount)
{
    public const byte Opcode = 32;

    public static bool Matches(in EtwEvent e) => e.Is(KernelGroups.PageFault, Opcode);

    public static bool TryDecode(in EtwEvent e, out HardFault fault)
    {
        fault = default;
        if (!Matches(e) || e.Payload.Length < 16 + e.PointerSize) return false;
        var p = e.Payload;
        int ptr = e.PointerSize;
        fault = new HardFault(PayloadReader.I64(p, 0), PayloadReader.I64(p, 8), PayloadReader.Pointer(p, 16, ptr),
            PayloadReader.Pointer(p, 16 + ptr, ptr), PayloadReader.I32(p, 16 + 2 * ptr), PayloadReader.U32(p, 20 + 2 * ptr));
        return true;
    }
}
