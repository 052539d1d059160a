namespace HiddenCost.Analysis.Tables;

/// <summary>Table GUIDs: a public contract (presets in wpaProfiles/ name them). Never change one.</summary>
public static class TableIds
{
    public static readonly Guid TraceInfo = new("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0001");
    public static readonly Guid EventCounts = new("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0002");
    public static readonly Guid TraceReadiness = new("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0003");
    public static readonly Guid DirectoryNotifyBuffers = new("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0010");
    public static readonly Guid DirectoryNotifyVictims = new("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0011");
    public static readonly Guid SyscallHookOverhead = new("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0020");
    public static readonly Guid ProfilingGaps = new("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0021");
    public static readonly Guid SpinWaitCostPerLock = new("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0030");
    public static readonly Guid SpinWaitByProcess = new("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0031");
    public static readonly Guid EventLogRenderCost = new("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0040");
    public static readonly Guid Symbols = new("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0050");
    public static readonly Guid CpuByFunction = new("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0051");
    public static readonly Guid Findings = new("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a00f1");
}
