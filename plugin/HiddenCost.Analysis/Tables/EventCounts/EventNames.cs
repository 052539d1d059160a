using HiddenCost.Etl;
using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.Decoding.KernelTraceControl;
using HiddenCost.Etl.Decoding.Rpc;

namespace HiddenCost.Analysis.Tables.EventCounts;

/// <summary>
/// Names for events and providers, as WPA's Generic Events and Microsoft's MOF classes name them
/// (kernel opcode names: ntwmi.h PERFINFO_LOG_TYPE_* / KernelTraceEventParser.cs; providers: their manifests).
/// </summary>
public static class EventNames
{
    private static readonly Dictionary<int, string> Kernel = new()
    {
        [Key(KernelGroups.EventTrace, 0)] = "Header", [Key(KernelGroups.EventTrace, 5)] = "Extension",
        [Key(KernelGroups.EventTrace, 8)] = "RundownComplete", [Key(KernelGroups.EventTrace, 32)] = "EndExtension",
        [Key(KernelGroups.EventTrace, 80)] = "PartitionInfoExtension",
        [Key(KernelGroups.Process, 1)] = "Start", [Key(KernelGroups.Process, 2)] = "End",
        [Key(KernelGroups.Process, 3)] = "DCStart", [Key(KernelGroups.Process, 4)] = "DCEnd",
        [Key(KernelGroups.Process, 11)] = "Terminate", // ntwmi.h; type 10, the image load, comes as Image/Load
        [Key(KernelGroups.Process, 32)] = "PerfCtr", [Key(KernelGroups.Process, 33)] = "PerfCtrRundown",
        [Key(KernelGroups.Process, 39)] = "Defunct",
        [Key(KernelGroups.Thread, 1)] = "Start", [Key(KernelGroups.Thread, 2)] = "End",
        [Key(KernelGroups.Thread, 3)] = "DCStart", [Key(KernelGroups.Thread, 4)] = "DCEnd",
        [Key(KernelGroups.Thread, 36)] = "CSwitch", [Key(KernelGroups.Thread, 37)] = "CompCS",
        [Key(KernelGroups.Thread, 50)] = "ReadyThread", [Key(KernelGroups.Thread, 72)] = "SetName",
        [Key(KernelGroups.Image, 2)] = "Unload", [Key(KernelGroups.Image, 3)] = "DCStart",
        [Key(KernelGroups.Image, 4)] = "DCEnd", [Key(KernelGroups.Image, 10)] = "Load",
        [Key(KernelGroups.Image, 33)] = "KernelBase", [Key(KernelGroups.Image, 34)] = "HypercallPage",
        [Key(KernelGroups.PerfInfo, 46)] = "SampledProfile", [Key(KernelGroups.PerfInfo, 51)] = "SysClEnter",
        [Key(KernelGroups.PerfInfo, 52)] = "SysClExit", [Key(KernelGroups.PerfInfo, 66)] = "ThreadedDPC",
        [Key(KernelGroups.PerfInfo, 67)] = "ISR", [Key(KernelGroups.PerfInfo, 68)] = "DPC",
        [Key(KernelGroups.PerfInfo, 69)] = "TimerDPC", [Key(KernelGroups.PerfInfo, 72)] = "SetInterval",
        [Key(KernelGroups.PerfInfo, 73)] = "CollectionStart", [Key(KernelGroups.PerfInfo, 74)] = "CollectionEnd",
        [Key(KernelGroups.StackWalk, 32)] = "Stack", [Key(KernelGroups.StackWalk, 34)] = "KeyCreate",
        [Key(KernelGroups.StackWalk, 35)] = "KeyDelete", [Key(KernelGroups.StackWalk, 36)] = "KeyRundown",
        [Key(KernelGroups.StackWalk, 37)] = "StackKeyKernel", [Key(KernelGroups.StackWalk, 38)] = "StackKeyUser",
        [Key(KernelGroups.FileIo, 0)] = "Name", [Key(KernelGroups.FileIo, 32)] = "FileCreate",
        [Key(KernelGroups.FileIo, 35)] = "FileDelete", [Key(KernelGroups.FileIo, 36)] = "FileRundown",
        [Key(KernelGroups.FileIo, 64)] = "Create", [Key(KernelGroups.FileIo, 65)] = "Cleanup",
        [Key(KernelGroups.FileIo, 66)] = "Close", [Key(KernelGroups.FileIo, 67)] = "Read",
        [Key(KernelGroups.FileIo, 68)] = "Write", [Key(KernelGroups.FileIo, 69)] = "SetInfo",
        [Key(KernelGroups.FileIo, 70)] = "Delete", [Key(KernelGroups.FileIo, 71)] = "Rename",
        [Key(KernelGroups.FileIo, 72)] = "DirEnum", [Key(KernelGroups.FileIo, 73)] = "Flush",
        [Key(KernelGroups.FileIo, 74)] = "QueryInfo", [Key(KernelGroups.FileIo, 75)] = "FSControl",
        [Key(KernelGroups.FileIo, 76)] = "OperationEnd", [Key(KernelGroups.FileIo, 77)] = "DirNotify",
        [Key(KernelGroups.PageFault, 10)] = "TransitionFault", [Key(KernelGroups.PageFault, 11)] = "DemandZeroFault",
        [Key(KernelGroups.PageFault, 12)] = "CopyOnWrite", [Key(KernelGroups.PageFault, 13)] = "GuardPageFault",
        [Key(KernelGroups.PageFault, 14)] = "HardPageFault", [Key(KernelGroups.PageFault, 15)] = "AccessViolation",
        [Key(KernelGroups.PageFault, 32)] = "HardFault", [Key(KernelGroups.PageFault, 98)] = "VirtualAlloc",
        [Key(KernelGroups.PageFault, 99)] = "VirtualFree",
        [Key(KernelGroups.Registry, 10)] = "Create", [Key(KernelGroups.Registry, 11)] = "Open",
        [Key(KernelGroups.Registry, 12)] = "Delete", [Key(KernelGroups.Registry, 13)] = "Query",
        [Key(KernelGroups.Registry, 14)] = "SetValue", [Key(KernelGroups.Registry, 15)] = "DeleteValue",
        [Key(KernelGroups.Registry, 16)] = "QueryValue", [Key(KernelGroups.Registry, 17)] = "EnumerateKey",
        [Key(KernelGroups.Registry, 18)] = "EnumerateValueKey", [Key(KernelGroups.Registry, 19)] = "QueryMultipleValue",
        [Key(KernelGroups.Registry, 20)] = "SetInformation", [Key(KernelGroups.Registry, 21)] = "Flush",
        [Key(KernelGroups.Registry, 22)] = "KCBCreate", [Key(KernelGroups.Registry, 23)] = "KCBDelete",
        [Key(KernelGroups.Registry, 24)] = "KCBRundownBegin", [Key(KernelGroups.Registry, 25)] = "KCBRundownEnd",
        [Key(KernelGroups.Registry, 26)] = "Virtualize", [Key(KernelGroups.Registry, 27)] = "Close",
        [Key(KernelGroups.DiskIo, 10)] = "Read", [Key(KernelGroups.DiskIo, 11)] = "Write",
        [Key(KernelGroups.DiskIo, 12)] = "ReadInit", [Key(KernelGroups.DiskIo, 13)] = "WriteInit",
        [Key(KernelGroups.DiskIo, 14)] = "FlushBuffers", [Key(KernelGroups.DiskIo, 15)] = "FlushInit",
        [Key(KernelGroups.Alpc, 33)] = "SendMessage", [Key(KernelGroups.Alpc, 34)] = "ReceiveMessage",
        [Key(KernelGroups.Alpc, 35)] = "WaitForReply", [Key(KernelGroups.Alpc, 36)] = "WaitForNewMessage",
        [Key(KernelGroups.Alpc, 37)] = "UnwaitThread",
    };

    // Declared before the tables that use it: static fields are initialised in the order they are written.
    /// <summary>KernelTraceControl's WinSat task (SymbolTraceEventParser.cs); the reader decodes none of its events.</summary>
    private static readonly Guid WinSatTask = new("ed54dff8-c409-4cf6-bf83-05e1e61a09c4");

    private static readonly Dictionary<Guid, string> Providers = new()
    {
        [new("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4")] = "Microsoft-Windows-DotNETRuntime",
        [new("a669021c-c450-4609-a035-5af59af4df18")] = "Microsoft-Windows-DotNETRuntimeRundown",
        [new("763fd754-7086-4dfe-95eb-c01a46faf4ca")] = "Microsoft-Windows-DotNETRuntimePrivate",
        [new("cc2bcbba-16b6-4cf3-8990-d74c2e8af500")] = "Microsoft-Windows-DotNETRuntimeStress",
        [new("6ad52b32-d609-4be9-ae07-ce8dae937e39")] = "Microsoft-Windows-RPC",
        [new("1418ef04-b0b4-4623-bf7e-d74ab47bbdaa")] = "Microsoft-Windows-WMI-Activity",
        [new("edd08927-9cc4-4e65-b970-c2560fb5c289")] = "Microsoft-Windows-Kernel-File",
        [new("a0c1853b-5c40-4b15-8766-3cf1c58f985a")] = "Microsoft-Windows-PowerShell",
        [KernelTraceControlIds.ImageIdTask] = "KernelTraceControl",
        [new("28ad2447-105b-4fe2-9599-e59b2aa9a634")] = "KernelTraceControl",
        [KernelTraceControlIds.MetaDataTask] = "KernelTraceControl",
        [KernelTraceControlIds.SystemConfigExTask] = "KernelTraceControl",
        [WinSatTask] = "KernelTraceControl",
        [KernelGroups.ProviderIdOf(KernelGroups.PerfInfo)] = "PerfInfo",
        [new("2cb15d1d-5fc1-11d2-abe1-00a0c911f518")] = "Image",
        [new("b675ec37-bdb6-4648-bc92-f3fdc74d3ca2")] = "Microsoft-Windows-Kernel-EventTracing",
        [new("2a576b87-09a7-520e-c21a-4942f0271d67")] = "Microsoft-Antimalware-Scan-Interface",
    };

    /// <summary>
    /// Classic tasks' opcodes: KernelTraceControl's ImageID task by SymbolTraceEventParser.cs, SystemConfigEx and
    /// PerfInfo's Mark by KernelTraceEventParser.cs, MetaData and WinSat by SymbolTraceEventParser.cs.
    /// </summary>
    private static readonly Dictionary<int, string> ImageIdOpcodes = new()
    {
        [KernelTraceControlIds.ImageId] = "ImageID", [KernelTraceControlIds.DbgIdNone] = "None",
        [KernelTraceControlIds.DbgIdRsds] = "DbgID_RSDS", [KernelTraceControlIds.DbgIdIlRsds] = "DbgID_ILRSDS",
        [KernelTraceControlIds.DbgIdPpdb] = "DbgID_PPDB", [KernelTraceControlIds.DbgIdDeterministic] = "DbgDeterm",
        [KernelTraceControlIds.FileVersion] = "FileVersion",
    };

    /// <summary>SystemConfigEx, which KernelTraceControl adds at merge (WPR's BuildInfo and VolumeMapping custom events).</summary>
    private static readonly Dictionary<int, string> SystemConfigExOpcodes = new()
    {
        [KernelTraceControlIds.BuildInfo] = "BuildInfo", [KernelTraceControlIds.SystemPaths] = "SystemPaths",
        [KernelTraceControlIds.UnknownVolume] = "UnknownVolume", [KernelTraceControlIds.VolumeMapping] = "VolumeMapping",
    };

    /// <summary>MetaData: the TDH schemas of manifest events, embedded at merge.</summary>
    private static readonly Dictionary<int, string> MetaDataOpcodes = new()
    {
        [KernelTraceControlIds.EventInfo] = "EventInfo", [KernelTraceControlIds.EventMapInfo] = "EventMapInfo",
    };

    /// <summary>WinSat: the machine's assessment, added at merge (compressed XML).</summary>
    private static readonly Dictionary<int, string> WinSatOpcodes = new() { [33] = "WinSPR", [35] = "Metrics", [37] = "SystemConfig" };

    /// <summary>PerfInfo's classic events: markers (`wpr -marker`, xperf -m).</summary>
    private static readonly Dictionary<int, string> PerfInfoClassicOpcodes = new() { [34] = "Mark" };

    private static readonly Dictionary<Guid, Dictionary<int, string>> ClassicOpcodes = new()
    {
        [KernelTraceControlIds.ImageIdTask] = ImageIdOpcodes,
        [KernelTraceControlIds.SystemConfigExTask] = SystemConfigExOpcodes,
        [KernelTraceControlIds.MetaDataTask] = MetaDataOpcodes,
        [WinSatTask] = WinSatOpcodes,
        [KernelGroups.ProviderIdOf(KernelGroups.PerfInfo)] = PerfInfoClassicOpcodes,
    };

    public static string? KernelEvent(byte group, byte opcode) => Kernel.GetValueOrDefault(Key(group, opcode));

    public static string? Provider(Guid id) => Providers.GetValueOrDefault(id);

    /// <summary>
    /// The manifest events the reader decodes, named task/opcode as their manifests name them (and as a merged trace's
    /// embedded schemas and WPA show them): a trace without schemas still names what the tables read.
    /// </summary>
    private static readonly Dictionary<(Guid, ushort), string> ManifestEvents = new()
    {
        [(ClrProviders.Runtime, ClrProviders.ContentionStartId)] = "Contention/Start",
        [(ClrProviders.Runtime, ClrProviders.ContentionStopId)] = "Contention/Stop",
        [(ClrProviders.Runtime, ClrProviders.MethodLoadVerboseId)] = "CLRMethod/MethodLoadVerbose",
        [(ClrProviders.Runtime, ClrProviders.MethodUnloadVerboseId)] = "CLRMethod/MethodUnloadVerbose",
        [(ClrProviders.Runtime, ClrProviders.ModuleLoadId)] = "CLRLoader/ModuleLoad",
        [(ClrProviders.Runtime, ClrProviders.ModuleUnloadId)] = "CLRLoader/ModuleUnload",
        [(ClrProviders.Rundown, ClrProviders.MethodDCStartVerboseId)] = "CLRMethodRundown/MethodDCStartVerbose",
        [(ClrProviders.Rundown, ClrProviders.MethodDCEndVerboseId)] = "CLRMethodRundown/MethodDCEndVerbose",
        [(ClrProviders.Rundown, ClrProviders.ModuleDCStartId)] = "CLRLoaderRundown/ModuleDCStart",
        [(ClrProviders.Rundown, ClrProviders.ModuleDCEndId)] = "CLRLoaderRundown/ModuleDCEnd",
        [(RpcProvider.Id, RpcProvider.ClientCallStart)] = "RpcClientCall/Start",
        [(RpcProvider.Id, RpcProvider.ServerCallStart)] = "RpcServerCall/Start",
        [(RpcProvider.Id, RpcProvider.ClientCallStop)] = "RpcClientCall/Stop",
        [(RpcProvider.Id, RpcProvider.ServerCallStop)] = "RpcServerCall/Stop",
    };

    /// <summary>A built-in name for a manifest event the reader decodes; null for the others (and for WMI-Activity's, which its manifest leaves unnamed).</summary>
    public static string? ManifestEvent(Guid provider, ushort eventId) => ManifestEvents.GetValueOrDefault((provider, eventId));

    /// <summary>A name for a classic (EVENT_TRACE_HEADER) event when its task is known.</summary>
    public static string? ClassicEvent(Guid provider, byte opcode) =>
        ClassicOpcodes.TryGetValue(provider, out var names) ? names.GetValueOrDefault(opcode) : null;

    private static int Key(byte group, byte opcode) => group << 8 | opcode;
}
