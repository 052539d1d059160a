using HiddenCost.Etl;
using static HiddenCost.Analysis.Catalogs.Necessity;

namespace HiddenCost.Analysis.Catalogs;

/// <summary>
/// The requirement catalogue: for each problem table, the events it reads and the MultiProfile.wprp profile
/// that records them. One source of truth: Trace Readiness reports from it, and the profile-pack tests check
/// that each profile in <c>wprp/MultiProfile.wprp</c> enables everything listed here.
/// </summary>
/// <remarks>
/// Kernel events are named by group byte and opcode (ntwmi.h numbering, as the reader decodes them); provider
/// events by GUID and event id. Keyword and stack values are spelled as in WPRControlProfiles.xsd.
/// </remarks>
public static class RequirementCatalog
{
    /// <summary>The profile file every <see cref="ProblemRequirements.WprStartCommand"/> names.</summary>
    public const string ProfileFileName = "MultiProfile.wprp";

    /// <summary>Microsoft-Windows-DotNETRuntime.</summary>
    public static readonly Guid DotNetRuntime = new("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");

    /// <summary>Microsoft-Windows-DotNETRuntimeRundown.</summary>
    public static readonly Guid DotNetRuntimeRundown = new("a669021c-c450-4609-a035-5af59af4df18");

    /// <summary>Microsoft-Windows-RPC.</summary>
    public static readonly Guid Rpc = new("6ad52b32-d609-4be9-ae07-ce8dae937e39");

    /// <summary>Microsoft-Windows-WMI-Activity.</summary>
    public static readonly Guid WmiActivity = new("1418ef04-b0b4-4623-bf7e-d74ab47bbdaa");

    // ---- kernel event kinds shared by several tables -------------------------------------------------------

    private static EventRequirement ProcessRundown(string purpose) => new("Process start/end/rundown", Required,
        EventSelector.Kernel(KernelGroups.Process, "Process", 1, 2, 3, 4), WprRecording.Kernel(["ProcessThread"]), purpose);

    private static EventRequirement ThreadRundown(Necessity n) => new("Thread start/end/rundown", n,
        EventSelector.Kernel(KernelGroups.Thread, "Thread", 1, 2, 3, 4), WprRecording.Kernel(["ProcessThread"]),
        "thread → process for events that carry only a thread id");

    private static EventRequirement ImageRundown(Necessity n, string purpose) => new("Image load/unload/rundown", n,
        EventSelector.Kernel(KernelGroups.Image, "Image", 2, 3, 4, 10), WprRecording.Kernel(["Loader"]), purpose);

    private static EventRequirement CSwitch(string purpose) => new("CSwitch", Required,
        EventSelector.Kernel(KernelGroups.Thread, "Thread", 36), WprRecording.Kernel(["CSwitch"]), purpose);

    private static EventRequirement Samples(Necessity n, string purpose) => new("SampledProfile", n,
        EventSelector.Kernel(KernelGroups.PerfInfo, "PerfInfo", 46), WprRecording.Kernel(["SampledProfile"], "SampledProfile"), purpose);

    private static readonly EventRequirement SampleInterval = new("Sample interval", Optional,
        EventSelector.Kernel(KernelGroups.PerfInfo, "PerfInfo", 72, 73, 74), WprRecording.Kernel(["SampledProfile"]),
        "the profile interval that weights each sample; 1 ms is assumed without it");

    private static EventRequirement StackWalk(Necessity n, string purpose, params string[] stacks) => new("StackWalk", n,
        EventSelector.Kernel(KernelGroups.StackWalk, "StackWalk", 32, 37, 38), WprRecording.StacksOf(stacks), purpose);

    private static EventRequirement FileNames(string purpose) => new("FileIo name events", Required,
        EventSelector.Kernel(KernelGroups.FileIo, "FileIo", 0, 32, 35, 36), WprRecording.Kernel(["Filename"]), purpose);

    // ---- the four problem tables ---------------------------------------------------------------------------

    /// <summary>Syscall Hook Overhead ← MultiProfile.wprp!SysCall.</summary>
    public static ProblemRequirements SyscallHookOverhead { get; } = new("Syscall Hook Overhead", "SysCall",
        "System calls with a stack on every entry, context switches (syscall events carry no thread id) and CPU samples with stacks, so a driver in the syscall path shows with its cost.",
        [
            new("SysClEnter/SysClExit", Required, EventSelector.Kernel(KernelGroups.PerfInfo, "PerfInfo", 51, 52),
                WprRecording.Kernel(["SystemCall"], "SystemCallEnter"),
                "every system call: service address on entry, NTSTATUS on exit; counts, rate and duration"),
            CSwitch("which thread runs on each CPU: SysCl events carry no thread id"),
            Samples(Required, "CPU samples inside syscalls and inside the hooking module"),
            StackWalk(Required, "kernel stacks of syscall entries and samples: where the hooking module sits", "SystemCallEnter", "SampledProfile"),
            ImageRundown(Required, "kernel module names and address ranges (culprit module, ntoskrnl+RVA syscall names)"),
            ProcessRundown("victim process names and ids"),
            ThreadRundown(Required),
            SampleInterval,
        ]);

    /// <summary>Spin-Wait Cost per Lock ← MultiProfile.wprp!SpinWait.</summary>
    public static ProblemRequirements SpinWaitCostPerLock { get; } = new("Spin-Wait Cost per Lock", "SpinWait",
        "CLR contention events, context switches and ready-thread events with stacks, CPU samples with stacks and the CLR rundown that names managed frames.",
        [
            new("CLR ContentionStart/Stop", Required, EventSelector.Provider(DotNetRuntime, "Microsoft-Windows-DotNETRuntime", 81, 91),
                WprRecording.EventProvider(new(DotNetRuntime, "Microsoft-Windows-DotNETRuntime", 0x4000, 4)),
                "each contention: lock id, object, wait duration (keyword 0x4000 Contention)"),
            new("CLR method rundown", Required, EventSelector.Provider(DotNetRuntimeRundown, "Microsoft-Windows-DotNETRuntimeRundown", 143, 144),
                WprRecording.EventProvider(new(DotNetRuntimeRundown, "Microsoft-Windows-DotNETRuntimeRundown", 0x118, 4, AtCaptureState: true)),
                "method address ranges at the end of the trace so managed call sites resolve without PDBs (Loader|Jit|EndRundown)"),
            CSwitch("on-CPU and wait time per thread; wait reasons WrYieldExecution and DelayExecution"),
            new("ReadyThread", Optional, EventSelector.Kernel(KernelGroups.Thread, "Thread", 50),
                WprRecording.Kernel(["ReadyThread"]), "who wakes a waiting thread (a lock release ends the wait), for WPA's CPU Usage (Precise); this table's figures do not use it"),
            Samples(Required, "spin samples: CPU time in spin code per thread"),
            StackWalk(Required, "sample stacks: spin code at the leaf and the managed call site above it", "SampledProfile"),
            ImageRundown(Required, "runtime modules (coreclr.dll, clr.dll, libiomp5md.dll, vcomp*.dll) in stacks"),
            ProcessRundown("process names and ids"),
            ThreadRundown(Required),
            new("CLR MethodLoadVerbose", Optional, EventSelector.Provider(DotNetRuntime, "Microsoft-Windows-DotNETRuntime", 143),
                WprRecording.EventProvider(new(DotNetRuntime, "Microsoft-Windows-DotNETRuntime", 0x10, 4)),
                "methods compiled during the trace and unloaded before its end (keyword 0x10 Jit)"),
            StackWalk(Optional, "context-switch and readying stacks for WPA's CPU Usage (Precise) table", "CSwitch", "ReadyThread"),
            SampleInterval,
        ]);

    /// <summary>Directory Notify Buffers and Directory Notify Victims ← MultiProfile.wprp!DirNotify.</summary>
    public static ProblemRequirements DirectoryNotifyBuffers { get; } = new("Directory Notify Buffers", "DirNotify",
        "File I/O requests and completions with file names, demand-zero page faults with stacks, and stacks on directory-notify requests.",
        [
            new("FileIo DirNotify", Required, EventSelector.Kernel(KernelGroups.FileIo, "FileIo", 77),
                WprRecording.Kernel(["FileIOInit"], "FileDirNotify"),
                "each ReadDirectoryChangesW arm: buffer length, file object, file key, issuing thread"),
            new("FileIo OperationEnd", Required, EventSelector.Kernel(KernelGroups.FileIo, "FileIo", 76),
                WprRecording.Kernel(["FileIO"]), "each completion: bytes returned and NTSTATUS (STATUS_NOTIFY_ENUM_DIR = overflow)"),
            FileNames("directory names of watched file keys and the files other processes change"),
            new("FileIo changes", Required, EventSelector.Kernel(KernelGroups.FileIo, "FileIo", 64, 68, 69, 70, 71),
                WprRecording.Kernel(["FileIOInit"]), "the victims: creates, writes, set-info/deletes and renames in watched directories"),
            new("PageFault DemandZero", Required, EventSelector.Kernel(KernelGroups.PageFault, "PageFault", 11),
                WprRecording.Kernel(["AllFaults"], "PagefaultDemandZero"),
                "demand-zero faults per process: the kernel zeroing fresh pages for notify buffers"),
            ProcessRundown("watcher and victim process names and ids"),
            ThreadRundown(Required),
            new("FileIo Cleanup/Close", Optional, EventSelector.Kernel(KernelGroups.FileIo, "FileIo", 65, 66),
                WprRecording.Kernel(["FileIOInit"]), "a watcher's handle closed: its watch ends"),
            Samples(Optional, "Notify CPU (ms): victim CPU in FsRtlNotify*/memset"),
            StackWalk(Optional, "who arms the watch and where zeroing faults come from", "FileDirNotify", "PagefaultDemandZero", "SampledProfile"),
            ImageRundown(Optional, "module names for the stacks"),
        ]);

    /// <summary>Event Log Render Cost ← MultiProfile.wprp!EventLog.</summary>
    public static ProblemRequirements EventLogRenderCost { get; } = new("Event Log Render Cost", "EventLog",
        "RPC calls and WMI activity to find who asks, and the EventLog service's context switches, registry operations (with stacks) and .evtx reads to price each call.",
        [
            new("RPC call start/stop", Required, EventSelector.Provider(Rpc, "Microsoft-Windows-RPC", 5, 6, 7, 8),
                WprRecording.EventProvider(new(Rpc, "Microsoft-Windows-RPC", 0, 4)),
                "MS-EVEN6 client and server calls: interface, opnum, endpoint, status (its keywords are channel bits: all on)"),
            new("WMI-Activity operation start", Required, EventSelector.Provider(WmiActivity, "Microsoft-Windows-WMI-Activity", 11),
                WprRecording.EventProvider(new(WmiActivity, "Microsoft-Windows-WMI-Activity", 0x8000000000000000, 4)),
                "Win32_NTLogEvent query text and the client process WmiPrvSE.exe works for"),
            new("Registry operations", Required, EventSelector.Kernel(KernelGroups.Registry, "Registry", 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 26, 27),
                WprRecording.Kernel(["Registry"], "RegistryOpenKey", "RegistryQueryValue", "RegistryQueryKey", "RegistryEnumerateKey", "RegistryEnumerateValueKey"),
                "registry operations of the serving thread inside each call (~13 per rendered message)"),
            new("Registry KCB names", Required, EventSelector.Kernel(KernelGroups.Registry, "Registry", 22, 23, 24, 25),
                WprRecording.Kernel(["Registry"]), "key names for the registry operations"),
            new("FileIo reads", Required, EventSelector.Kernel(KernelGroups.FileIo, "FileIo", 67),
                WprRecording.Kernel(["FileIOInit"]), ".evtx reads inside query calls: the log and the bytes read"),
            FileNames(".evtx file names (Application.evtx → Application)"),
            CSwitch("the serving thread's on-CPU time inside each server call"),
            ProcessRundown("command lines: the svchost running -s EventLog; clients and WMI hosts"),
            ThreadRundown(Required),
            ImageRundown(Required, "the svchost that loaded wevtsvc.dll is the EventLog service"),
            new("WMI-Activity operation end", Optional, EventSelector.Provider(WmiActivity, "Microsoft-Windows-WMI-Activity", 13),
                WprRecording.EventProvider(new(WmiActivity, "Microsoft-Windows-WMI-Activity", 0x8000000000000000, 4)),
                "end and result of a WMI operation"),
            new("WMI-Activity provider info", Optional, EventSelector.Provider(WmiActivity, "Microsoft-Windows-WMI-Activity", 12),
                WprRecording.EventProvider(new(WmiActivity, "Microsoft-Windows-WMI-Activity", 0x8000000000000000, 4)),
                "the provider host a WMI operation reached (the WmiPrvSE.exe that renders for the client)"),
            Samples(Optional, "sampled service CPU with stacks (EvtRpcMessageRender → FormatMessage → registry)"),
            StackWalk(Optional, "stacks of registry operations and samples in the service",
                "RegistryOpenKey", "RegistryQueryValue", "RegistryQueryKey", "RegistryEnumerateKey", "RegistryEnumerateValueKey", "SampledProfile"),
        ]);

    /// <summary>The four problem tables, in product order (tables 1–4 of the product definition).</summary>
    public static IReadOnlyList<ProblemRequirements> Problems { get; } =
        [SyscallHookOverhead, SpinWaitCostPerLock, DirectoryNotifyBuffers, EventLogRenderCost];

    /// <summary>
    /// The requirements of a table by its public name. The companion tables share their problem's profile:
    /// <c>Profiling Gaps</c> → SysCall, <c>Spin-Wait by Process</c> → SpinWait, <c>Directory Notify Victims</c> → DirNotify.
    /// </summary>
    public static bool TryGetForTable(string tableName, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out ProblemRequirements? problem)
    {
        problem = tableName switch
        {
            "Profiling Gaps" => SyscallHookOverhead,
            "Spin-Wait by Process" => SpinWaitCostPerLock,
            "Directory Notify Victims" => DirectoryNotifyBuffers,
            _ => Problems.FirstOrDefault(p => p.TableName == tableName),
        };
        return problem is not null;
    }

    /// <summary>Like <see cref="TryGetForTable"/>, throwing for an unknown table name.</summary>
    public static ProblemRequirements ForTable(string tableName) =>
        TryGetForTable(tableName, out var p) ? p
            : throw new ArgumentException($"no requirements for table '{tableName}'; known: {string.Join(", ", Problems.Select(x => x.TableName))}", nameof(tableName));

    /// <summary>The problem whose profile is <paramref name="profileName"/> (<c>SysCall</c>, <c>SpinWait</c>, ...), or null.</summary>
    public static ProblemRequirements? ForProfile(string profileName) =>
        Problems.FirstOrDefault(p => string.Equals(p.ProfileName, profileName, StringComparison.OrdinalIgnoreCase));
}
