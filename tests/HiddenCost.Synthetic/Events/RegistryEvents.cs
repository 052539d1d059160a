using HiddenCost.Synthetic.Etl;

namespace HiddenCost.Synthetic.Events;

/// <summary>Registry group (0x09), GUID ae53722e-c863-11d2-8659-00c04fa321a1.</summary>
public static class RegistryEvents
{
    public const byte CreateType = 10;
    public const byte OpenType = 11;
    public const byte DeleteType = 12;
    public const byte QueryType = 13;
    public const byte SetValueType = 14;
    public const byte DeleteValueType = 15;
    public const byte QueryValueType = 16;
    public const byte EnumerateKeyType = 17;
    public const byte EnumerateValueKeyType = 18;
    public const byte QueryMultipleValueType = 19;
    public const byte SetInformationType = 20;
    public const byte FlushType = 21;
    public const byte KcbCreateType = 22;
    public const byte KcbDeleteType = 23;
    public const byte KcbRundownBeginType = 24;
    public const byte KcbRundownEndType = 25;
    public const byte CloseType = 27;

    /// <summary>
    /// Any registry event, operation or KCB bookkeeping (MS "Registry_TypeGroup1"; ntwmi.h WMI_REGISTRY), version 2:
    /// i64 InitialTime (QPC at the start of the operation; the event's own timestamp is its end); u32 Status;
    /// u32 Index; ptr KeyHandle (the KCB address); UTF-16 KeyName (absolute when KeyHandle is 0, relative to the
    /// KCB for key operations, the value name for value operations, the full path for KCB events).
    /// SYSTEM header (WRK WmipTraceRegistry: WmiReserveWithSystemHeader), so the calling thread is in the header.
    /// </summary>
    public static KernelRecord Event(EventContext c, byte type, long initialTime, uint status, uint index, ulong kcb, string keyName)
    {
        if (type is < CreateType or > CloseType) throw new ArgumentException($"not a registry event type: {type}");
        var p = new PayloadBuilder(c.PointerSize).I64(initialTime).U32(status).U32(index).Pointer(kcb).WString(keyName);
        return PerfInfoEvents.KernelEvent(c, RecordKind.System, KernelGroup.Registry, type, 2, p);
    }
}
