using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Kernel;

/// <summary>
/// Registry operations 10–27 (v2, Registry_TypeGroup1 / WMI_REGISTRY): i64 InitialTime (raw clock at the start of
/// the operation; the event's timestamp is its end); u32 Status (NTSTATUS); u32 Index (enumeration index or
/// information class); ptr KeyHandle (the KCB address, not a handle); UTF-16 KeyName.
/// KeyName is relative to the KCB for key operations, the value name for value operations, and the full path
/// for the KCB events (22–25). <see cref="HiddenCost.Etl.State.RegistryKeyNames"/> joins them into full names.
/// Versions before 2 use another field order and are not decoded.
/// </summary>
public readonly record struct RegistryEvent(byte Opcode, long InitialTime, uint Status, uint Index, ulong KeyHandle, string KeyName)
{
    public const byte Create = 10, Open = 11, Delete = 12, Query = 13, SetValue = 14, DeleteValue = 15,
        QueryValue = 16, EnumerateKey = 17, EnumerateValueKey = 18, QueryMultipleValue = 19, SetInformation = 20,
        Flush = 21, KcbCreate = 22, KcbDelete = 23, KcbRundownBegin = 24, KcbRundownEnd = 25, Virtualize = 26, Close = 27;

    /// <summary>True for the KCB events whose KeyName is the full path of <see cref="KeyHandle"/>.</summary>
    public bool IsKcbEvent => Opcode is KcbCreate or KcbDelete or KcbRundownBegin or KcbRundownEnd;

    /// <summary>True when KeyName is a value name (SetValue, DeleteValue, QueryValue, EnumerateValueKey, QueryMultipleValue, Query).</summary>
    public bool NamesValue => Opcode is Query or SetValue or DeleteValue or QueryValue or EnumerateValueKey or QueryMultipleValue;

    public static string OperationName(byte opcode) => opcode switch
    {
        Create => "Create", Open => "Open", Delete => "Delete", Query => "Query", SetValue => "SetValue",
        DeleteValue => "DeleteValue", QueryValue => "QueryValue", EnumerateKey => "EnumerateKey",
        EnumerateValueKey => "EnumerateValueKey", QueryMultipleValue => "QueryMultipleValue",
        SetInformation => "SetInformation", Flush => "Flush", KcbCreate => "KCBCreate", KcbDelete => "KCBDelete",
        KcbRundownBegin => "KCBRundownBegin", KcbRundownEnd => "KCBRundownEnd", Virtualize => "Virtualize", Close => "Close",
        _ => $"Registry{opcode}",
    };

    public static bool Matches(in EtwEvent e) =>
        e.IsKernel && e.Group == KernelGroups.Registry && e.Opcode >= Create && e.Opcode <= Close;

    public static bool TryDecode(in EtwEvent e, out RegistryEvent registry, StringPool? strings = null)
    {
        registry = default;
        if (!Matches(e) || e.Version < 2) return false;
        var p = e.Payload;
        int ptr = e.PointerSize;
        if (p.Length < 16 + ptr) return false;
        int name = 16 + ptr;
        registry = new RegistryEvent(e.Opcode, PayloadReader.I64(p, 0), PayloadReader.U32(p, 8), PayloadReader.U32(p, 12),
            PayloadReader.Pointer(p, 16, ptr), PayloadStrings.Utf16(p, ref name, strings));
        return true;
    }
}
