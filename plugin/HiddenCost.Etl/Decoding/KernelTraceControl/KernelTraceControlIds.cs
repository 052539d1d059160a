namespace HiddenCost.Etl.Decoding.KernelTraceControl;

/// <summary>
/// Classic events that KernelTraceControl (xperf -merge, WPR, PerfView) injects when it merges a trace:
/// image identity for symbol lookup, volume mappings, and the TDH schemas of manifest events.
/// </summary>
public static class KernelTraceControlIds
{
    /// <summary>ImageID task: ImageID, DbgID_RSDS and friends.</summary>
    public static readonly Guid ImageIdTask = new("b3e675d7-2554-4f18-830b-2762732560de");

    /// <summary>SystemConfigEx task: BuildInfo, SystemPaths, VolumeMapping…</summary>
    public static readonly Guid SystemConfigExTask = new("9b79ee91-b5fd-41c0-a243-4248e266e9d0");

    /// <summary>EventMetadata task: EventInfo (TRACE_EVENT_INFO) and EventMapInfo.</summary>
    public static readonly Guid MetaDataTask = new("bbccf6c1-6cd1-48c4-80ff-839482e37671");

    public const byte ImageId = 0x00, DbgIdNone = 0x20, DbgIdRsds = 0x24, DbgIdIlRsds = 0x25, DbgIdPpdb = 0x26,
        DbgIdDeterministic = 0x28, FileVersion = 0x40;

    public const byte BuildInfo = 32, SystemPaths = 33, UnknownVolume = 34, VolumeMapping = 35;

    public const byte EventInfo = 0x20, EventMapInfo = 0x21;

    internal static bool IsClassic(in EtwEvent e, Guid task, byte opcode) =>
        e.Kind is Records.RecordHeaderKind.Classic or Records.RecordHeaderKind.Instance && e.Opcode == opcode && e.ProviderId == task;
}
