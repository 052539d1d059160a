using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Kernel;

/// <summary>
/// PerfInfo SysClEnter (51): ptr SysCallAddress, the kernel address of the system service routine (resolve it
/// against the kernel modules). The calling thread is the one running on the event's CPU.
/// </summary>
public readonly record struct SystemCallEnter(ulong SysCallAddress)
{
    public const byte Opcode = 51;

    public static bool Matches(in EtwEvent e) => e.Is(KernelGroups.PerfInfo, Opcode);

    public static bool TryDecode(in EtwEvent e, out SystemCallEnter value)
    {
        value = default;
        if (!Matches(e) || e.Payload.Length < e.PointerSize) return false;
        value = new SystemCallEnter(PayloadReader.Pointer(e.Payload, 0, e.PointerSize));
        return true;
    }
}

/// <summary>PerfInfo SysClExit (52): u32 SysCallNtStatus. Pair it with the thread's last SysClEnter.</summary>
public readonly record struct SystemCallExit(uint NtStatus)
{
    public const byte Opcode = 52;

    public static bool Matches(in EtwEvent e) => e.Is(KernelGroups.PerfInfo, Opcode);

    public static bool TryDecode(in EtwEvent e, out SystemCallExit value)
    {
        value = default;
        if (!Matches(e) || e.Payload.Length < 4) return false;
        value = new SystemCallExit(PayloadReader.U32(e.Payload, 0));
        return true;
    }
}
