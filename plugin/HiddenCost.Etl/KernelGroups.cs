namespace HiddenCost.Etl;

/// <summary>
/// Kernel event groups (HookId high byte, ntwmi.h EVENT_TRACE_GROUP_*): their MOF class names and the classic
/// task GUIDs TraceEvent/TraceProcessing map them to (KernelTraceEventParser.cs).
/// </summary>
public static class KernelGroups
{
    public const byte EventTrace = 0x00, DiskIo = 0x01, PageFault = 0x02, Process = 0x03, FileIo = 0x04,
        Thread = 0x05, TcpIp = 0x06, Job = 0x07, UdpIp = 0x08, Registry = 0x09, Dbgprint = 0x0A, SystemConfig = 0x0B,
        Spare1 = 0x0C, WnfEvents = 0x0D, PoolTrace = 0x0E, PerfInfo = 0x0F, HeapTrace = 0x10, ObjectTrace = 0x11,
        Power = 0x12, ModuleBound = 0x13, Image = 0x14, Dpc = 0x15, CcCache = 0x16, Iommu = 0x17, StackWalk = 0x18,
        Ums = 0x19, Alpc = 0x1A, SplitIo = 0x1B, ThreadPool = 0x1C, Hypervisor = 0x1D, HypervisorX = 0x1E;

    /// <summary>The NT kernel logger's provider (SystemTraceControlGuid).</summary>
    public static readonly Guid SystemTraceControlGuid = new("9e814aad-3204-11d2-9a82-006008a86939");

    private static readonly string?[] Names = BuildNames();
    private static readonly Guid[] Guids = BuildGuids();

    /// <summary>The MOF class name of the group, else its ntwmi.h group name, else <c>Group0xNN</c>.</summary>
    public static string NameOf(byte group) => Names[group] ?? $"Group0x{group:X2}";

    /// <summary>The classic task GUID of the group; the kernel logger's GUID for groups without one.</summary>
    public static Guid ProviderIdOf(byte group) => Guids[group];

    private static string?[] BuildNames()
    {
        var n = new string?[256];
        n[EventTrace] = "EventTrace"; n[DiskIo] = "DiskIo"; n[PageFault] = "PageFault"; n[Process] = "Process";
        n[FileIo] = "FileIo"; n[Thread] = "Thread"; n[TcpIp] = "TcpIp"; n[Job] = "Job"; n[UdpIp] = "UdpIp";
        n[Registry] = "Registry"; n[Dbgprint] = "DbgPrint"; n[SystemConfig] = "SystemConfig"; n[Spare1] = "Spare1";
        n[WnfEvents] = "Wnf"; n[PoolTrace] = "Pool"; n[PerfInfo] = "PerfInfo"; n[HeapTrace] = "Heap";
        n[ObjectTrace] = "Object"; n[Power] = "Power"; n[ModuleBound] = "ModBound"; n[Image] = "Image";
        n[Dpc] = "Dpc"; n[CcCache] = "CacheManager"; n[Iommu] = "Iommu"; n[StackWalk] = "StackWalk";
        n[Ums] = "Ums"; n[Alpc] = "ALPC"; n[SplitIo] = "SplitIo"; n[ThreadPool] = "ThreadPool";
        n[Hypervisor] = "Hypervisor"; n[HypervisorX] = "HypervisorX";
        return n;
    }

    private static Guid[] BuildGuids()
    {
        var g = new Guid[256];
        Array.Fill(g, SystemTraceControlGuid);
        g[EventTrace] = new("68fdd900-4a3e-11d1-84f4-0000f80464e3");
        g[DiskIo] = new("3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c");
        g[PageFault] = new("3d6fa8d3-fe05-11d0-9dda-00c04fd7ba7c");
        g[Process] = new("3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c");
        g[FileIo] = new("90cbdc39-4a3e-11d1-84f4-0000f80464e3");
        g[Thread] = new("3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c");
        g[TcpIp] = new("9a280ac0-c8e0-11d1-84e2-00c04fb998a2");
        g[UdpIp] = new("bf3a50c5-a9c9-4988-a005-2df0b7c80f80");
        g[Registry] = new("ae53722e-c863-11d2-8659-00c04fa321a1");
        g[SystemConfig] = new("01853a65-418f-4f36-aefc-dc0f1d2fd235");
        g[PerfInfo] = new("ce1dbfb4-137e-4da6-87b0-3f59aa102cbc");
        g[Image] = new("2cb15d1d-5fc1-11d2-abe1-00a0c911f518");
        g[StackWalk] = new("def2fe46-7bd6-4b80-bd94-f57fe20d0ce3");
        g[Alpc] = new("45d8cccd-539f-4b72-a8b7-5c683142609a");
        g[SplitIo] = new("d837ca92-12b9-44a5-ad6a-3a65b3578aa8");
        return g;
    }
}
