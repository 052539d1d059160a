using HiddenCost.Synthetic.Etl;

namespace HiddenCost.Synthetic.Events;

/// <summary>PerfInfo group (0x0F): CPU samples, system calls and the sample interval.</summary>
public static class PerfInfoEvents
{
    public const byte SampledProfileType = 46;
    public const byte SysClEnterType = 51;
    public const byte SysClExitType = 52;
    public const byte CollectionStartType = 73;
    public const byte CollectionEndType = 74;

    /// <summary>
    /// SampledProfile (46), PERFINFO header, version 2 — kind, version and 16-byte size as in the PerfView samples.
    /// Layout (PerfView SampledProfileTraceData; MS "SampledProfile" MOF): ptr InstructionPointer; u32 ThreadId;
    /// u16 Count; u8 Flags (bit0 DPC, bit1 ISR, bits 3–7 priority); u8 Rank.
    /// </summary>
    public static KernelRecord SampledProfile(EventContext c, ulong instructionPointer, uint threadId, byte priority = 8, byte flags = 0)
    {
        var p = new PayloadBuilder(c.PointerSize)
            .Pointer(instructionPointer).U32(threadId).U16(1).U8((byte)((priority << 3) | (flags & 0x7))).U8(0);
        return Kernel(c, RecordKind.PerfInfo, SampledProfileType, 2, p);
    }

    /// <summary>
    /// SysClEnter (51): ptr SysCallAddress (MS "SysCallEnter" MOF; phnt PERFINFO_SYSCALL_ENTER_DATA).
    /// PERFINFO header, version 2: no sample holds syscalls; the kind follows PerfInfoLogSysCallEntry logging
    /// through the PerfInfo path (no thread id, which is why analyses take the thread from context switches).
    /// </summary>
    public static KernelRecord SysClEnter(EventContext c, ulong systemCallAddress) =>
        Kernel(c, RecordKind.PerfInfo, SysClEnterType, 2, new PayloadBuilder(c.PointerSize).Pointer(systemCallAddress));

    /// <summary>SysClExit (52): u32 SysCallNtStatus (MS "SysCallExit" MOF; phnt PERFINFO_SYSCALL_EXIT_DATA). PERFINFO, version 2.</summary>
    public static KernelRecord SysClExit(EventContext c, uint ntStatus) =>
        Kernel(c, RecordKind.PerfInfo, SysClExitType, 2, new PayloadBuilder(c.PointerSize).U32(ntStatus));

    /// <summary>
    /// SampledProfileInterval CollectionStart (73) / CollectionEnd (74): u32 Source; u32 NewInterval;
    /// u32 OldInterval (100 ns units); UTF-16 SourceName. SYSTEM header, version 3, 24 bytes for "Timer" —
    /// exactly as in the PerfView samples (Source 0, 10000/10000, "Timer").
    /// </summary>
    public static KernelRecord ProfileInterval(EventContext c, bool start, uint intervalHundredNs, uint source = 0, string sourceName = "Timer")
    {
        var p = new PayloadBuilder(c.PointerSize).U32(source).U32(intervalHundredNs).U32(intervalHundredNs).WString(sourceName);
        return Kernel(c, RecordKind.System, start ? CollectionStartType : CollectionEndType, 3, p);
    }

    internal static KernelRecord Kernel(EventContext c, RecordKind kind, byte type, ushort version, PayloadBuilder payload) =>
        KernelEvent(c, kind, KernelGroup.PerfInfo, type, version, payload);

    internal static KernelRecord KernelEvent(EventContext c, RecordKind kind, byte group, byte type, ushort version, PayloadBuilder payload) =>
        new()
        {
            Cpu = c.Cpu,
            Timestamp = c.Timestamp,
            PointerSize = c.PointerSize,
            HeaderKind = kind,
            Group = group,
            Type = type,
            Version = version,
            ThreadId = kind == RecordKind.PerfInfo ? 0 : c.ThreadId,
            ProcessId = kind == RecordKind.PerfInfo ? 0 : c.ProcessId,
            Payload = payload.ToArray(),
        };
}
