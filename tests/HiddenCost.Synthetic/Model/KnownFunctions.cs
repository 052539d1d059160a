namespace HiddenCost.Synthetic.Model;

/// <summary>
/// Where the synthetic traces put named functions inside ntoskrnl.exe. These offsets belong to no real build
/// (there are no PDBs for the synthetic images); SYNTHETIC.md lists them so a reader of a synthetic stack can
/// tell which frame is which. Return addresses point a few bytes into each function.
/// </summary>
public static class KernelFunctions
{
    public const ulong KiSystemServiceCopyEndRva = 0x42_A0F5;
    public const ulong KiSystemServiceExitRva = 0x42_A4C0;
    public const ulong PerfInfoLogSysCallEntryRva = 0x2D_7810;
    public const ulong EtwpLogKernelEventRva = 0x2D_2F30;
    public const ulong NtDelayExecutionRva = 0x5E_3B20;
    public const ulong NtYieldExecutionRva = 0x3E_2A10;
    public const ulong KeDelayExecutionThreadRva = 0x2B_0C50;
    public const ulong KiSwapThreadRva = 0x2A_1C40;
    public const ulong PpmIdleRva = 0x2C_1A30;
    public const ulong KiIdleLoopRva = 0x41_F3B0;
    public const ulong FsRtlNotifyFilterReportChangeLiteExRva = 0x30_A100;
    public const ulong MemsetRva = 0x42_E7C0;
    public const ulong NtQueryValueKeyRva = 0x6A_2C10;
    public const ulong NtAlpcSendWaitReceivePortRva = 0x6C_4F80;

    /// <summary>ntoskrnl.exe size in the synthetic traces.</summary>
    public const ulong ImageSize = 0x104_6000;
}

/// <summary>Offsets of named functions in the synthetic user-mode system DLLs (see <see cref="KernelFunctions"/>).</summary>
public static class UserFunctions
{
    public const ulong NtdllSize = 0x1F_8000;
    public const ulong Kernel32Size = 0xC_4000;
    public const ulong KernelBaseSize = 0x3B_6000;

    public const ulong NtdllNtDelayExecutionRva = 0x9_F7C0;
    public const ulong NtdllNtYieldExecutionRva = 0x9_F960;
    public const ulong NtdllNtWaitForSingleObjectRva = 0x9_F150;
    public const ulong NtdllNtAlpcSendWaitReceivePortRva = 0xA_0D20;
    public const ulong NtdllRtlUserThreadStartRva = 0x5_AA48;
    public const ulong NtdllTppWorkerThreadRva = 0x3_2F10;
    public const ulong Kernel32BaseThreadInitThunkRva = 0x1_7614;
    public const ulong KernelBaseSleepExRva = 0x8_C3E0;
    public const ulong KernelBaseSwitchToThreadRva = 0x9_A1D0;
}

/// <summary>ntdll.dll, kernel32.dll and KernelBase.dll of one process.</summary>
public sealed record SystemDlls(SyntheticImage Ntdll, SyntheticImage Kernel32, SyntheticImage KernelBase)
{
    /// <summary>The two outermost frames of every user thread: kernel32!BaseThreadInitThunk, ntdll!RtlUserThreadStart.</summary>
    public ulong[] ThreadStartFrames =>
        [Kernel32.At(UserFunctions.Kernel32BaseThreadInitThunkRva + 0x14), Ntdll.At(UserFunctions.NtdllRtlUserThreadStartRva + 0x21)];
}
