using HiddenCost.Synthetic.Etl;

namespace HiddenCost.Synthetic.Events;

/// <summary>Fields of WMI_IMAGELOAD_INFORMATION.</summary>
public sealed record ImageInfo(ulong ImageBase, ulong ImageSize, uint ProcessId, string FileName)
{
    public uint ImageChecksum { get; init; }
    public uint TimeDateStamp { get; init; }
    public byte SignatureLevel { get; init; }
    public byte SignatureType { get; init; }
    public ulong DefaultBase { get; init; }
}

/// <summary>Image events (group 0x14; the Load under group 0x03).</summary>
public static class ImageEvents
{
    public const byte UnloadType = 2;
    public const byte DCStartType = 3;
    public const byte DCEndType = 4;
    public const byte LoadType = 10;

    /// <summary>
    /// Image Load/Unload/DCStart/DCEnd, version 3 (Win10/11 samples). Layout (etl-format §2.5; ntwmi.h
    /// WMI_IMAGELOAD_INFORMATION): ptr ImageBase; ptr ImageSize; u32 ProcessId; u32 ImageChecksum;
    /// u32 TimeDateStamp; u8 SignatureLevel; u8 SignatureType; u16 Reserved0; ptr DefaultBase; u32 Reserved1..4;
    /// UTF-16 FileName. Header kinds as in the samples: rundown of kernel modules (process 0, `\SystemRoot\…`
    /// paths) and Load/Unload use SYSTEM headers; rundown of user-mode images uses PERFINFO headers. The Load is
    /// logged under the Process group's hook, 0x030A (WMI_LOG_TYPE_PROCESS_LOAD_IMAGE, ntwmi.h), as Windows logs it
    /// (net.4.5.2.x64: 35 such loads, none under the Image group); the other three under the Image group's.
    /// </summary>
    public static KernelRecord Image(EventContext c, byte type, ImageInfo info)
    {
        var rundown = type is DCStartType or DCEndType;
        if (!rundown && type is not (LoadType or UnloadType)) throw new ArgumentException($"not an image event type: {type}");
        var kind = rundown && info.ProcessId != 0 ? RecordKind.PerfInfo : RecordKind.System;
        var p = new PayloadBuilder(c.PointerSize)
            .Pointer(info.ImageBase).Pointer(info.ImageSize).U32(info.ProcessId).U32(info.ImageChecksum)
            .U32(info.TimeDateStamp).U8(info.SignatureLevel).U8(info.SignatureType).U16(0)
            .Pointer(info.DefaultBase).U32(0).U32(0).U32(0).U32(0).WString(info.FileName);
        return PerfInfoEvents.KernelEvent(c, kind, type == LoadType ? KernelGroup.Process : KernelGroup.Image, type, 3, p);
    }
}
