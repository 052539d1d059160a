using HiddenCost.Synthetic.Etl;

namespace HiddenCost.Synthetic.Events;

/// <summary>
/// KernelTraceControl image identity events that merged traces (xperf -merge, WPR, PerfView) append after each
/// image rundown: classic EVENT_TRACE_HEADER with GUID b3e675d7-…, version 2, level 0 — kind, GUID and version as
/// in the PerfView and WPR samples, which also log them at the image event's timestamp and CPU, with thread id
/// 0xFFFFFFFF (PerfView x64 sample).
/// </summary>
public static class KernelTraceControlEvents
{
    public const byte ImageIdType = 0;
    public const byte DbgIdRsdsType = 36;
    public const byte VolumeMappingType = 35;

    /// <summary>ImageID (opcode 0): ptr ImageBase; ptr ImageSize; u32 ProcessId; u32 TimeDateStamp; UTF-16 OriginalFileName (SymbolTraceEventParser; decoded in samples).</summary>
    public static ClassicRecord ImageId(EventContext c, ulong imageBase, ulong imageSize, uint processId, uint timeDateStamp, string originalFileName)
    {
        var p = new PayloadBuilder(c.PointerSize).Pointer(imageBase).Pointer(imageSize).U32(processId).U32(timeDateStamp).WString(originalFileName);
        return Event(c, ImageIdType, processId, p);
    }

    /// <summary>DbgID_RSDS (opcode 36): ptr ImageBase; u32 ProcessId; GUID Signature; u32 Age; UTF-8 PdbFileName (SymbolTraceEventParser; decoded in samples).</summary>
    public static ClassicRecord DbgIdRsds(EventContext c, ulong imageBase, uint processId, Guid signature, uint age, string pdbFileName)
    {
        var p = new PayloadBuilder(c.PointerSize).Pointer(imageBase).U32(processId).Guid(signature).U32(age).AString(pdbFileName);
        return Event(c, DbgIdRsdsType, processId, p);
    }

    /// <summary>
    /// SystemConfigEx VolumeMapping (task GUID 9b79ee91-b5fd-41c0-a243-4248e266e9d0, opcode 35, version 0, level 0,
    /// thread and process 0 — as in the PerfView and WPR samples, logged at the start of the trace): UTF-16 NtPath;
    /// UTF-16 DosPath, e.g. <c>\Device\HarddiskVolume3\</c> → <c>C:\</c>.
    /// </summary>
    public static ClassicRecord VolumeMapping(EventContext c, string ntPath, string dosPath) => new()
    {
        Cpu = c.Cpu,
        Timestamp = c.Timestamp,
        PointerSize = c.PointerSize,
        HeaderKind = RecordKind.Classic,
        EventGuid = Providers.KernelTraceControlSystemConfigEx,
        Type = VolumeMappingType,
        Level = 0,
        Version = 0,
        Payload = new PayloadBuilder(c.PointerSize).WString(ntPath).WString(dosPath).ToArray(),
    };

    private static ClassicRecord Event(EventContext c, byte type, uint processId, PayloadBuilder p) => new()
    {
        Cpu = c.Cpu,
        Timestamp = c.Timestamp,
        PointerSize = c.PointerSize,
        HeaderKind = RecordKind.Classic,
        EventGuid = Providers.KernelTraceControlImageId,
        Type = type,
        Level = 0,
        Version = 2,
        ThreadId = uint.MaxValue,
        ProcessId = processId,
        Payload = p.ToArray(),
    };
}
