using HiddenCost.Etl.Reading;
using HiddenCost.Etl.Records;

namespace HiddenCost.Etl.Decoding.Wmi;

/// <summary>Microsoft-Windows-WMI-Activity (all events version 0). Logged by the WMI service process.</summary>
public static class WmiActivityProvider
{
    public static readonly Guid Id = new("1418ef04-b0b4-4623-bf7e-d74ab47bbdaa");

    public const ushort OperationStart = 11, ProviderInfo = 12, OperationEnd = 13;

    internal static bool Is(in EtwEvent e, ushort id) => e.Kind == RecordHeaderKind.EventHeader && e.EventId == id && e.ProviderId == Id;
}

/// <summary>
/// WMI-Activity operation start (11): UTF-16 CorrelationId; u32 GroupOperationId; u32 OperationId;
/// UTF-16 Operation (e.g. <c>Start IWbemServices::ExecQuery - root\cimv2 : select …</c>); UTF-16 ClientMachine;
/// UTF-16 ClientMachineFQDN; UTF-16 User; u32 ClientProcessId; u64 ClientProcessCreationTime (FILETIME);
/// UTF-16 NamespaceName; bool32 IsLocal (ClientProcessId is a process of ClientMachine when it is false).
/// </summary>
public readonly record struct WmiOperationStart(
    string CorrelationId,
    uint GroupOperationId,
    uint OperationId,
    string Operation,
    string ClientMachine,
    string ClientMachineFqdn,
    string User,
    int ClientProcessId,
    long ClientProcessCreationTime,
    string NamespaceName,
    bool IsLocal)
{
    public static bool Matches(in EtwEvent e) => WmiActivityProvider.Is(e, WmiActivityProvider.OperationStart);

    public static bool TryDecode(in EtwEvent e, out WmiOperationStart start, StringPool? strings = null)
    {
        start = default;
        if (!Matches(e)) return false;
        var p = e.Payload;
        int offset = 0;
        string correlation = PayloadStrings.Utf16(p, ref offset, strings);
        uint group = PayloadReader.U32(p, offset);
        uint operationId = PayloadReader.U32(p, offset + 4);
        offset += 8;
        string operation = PayloadStrings.Utf16(p, ref offset, strings);
        string machine = PayloadStrings.Utf16(p, ref offset, strings);
        string fqdn = PayloadStrings.Utf16(p, ref offset, strings);
        string user = PayloadStrings.Utf16(p, ref offset, strings);
        if (offset + 4 > p.Length) return false; // cut before ClientProcessId, the reader the tables name
        int clientPid = PayloadReader.I32(p, offset);
        long created = PayloadReader.I64(p, offset + 4);
        offset += 12;
        string ns = PayloadStrings.Utf16(p, ref offset, strings);
        // A record cut before IsLocal says nothing of where the client runs: taken as this computer, as most are.
        bool isLocal = offset + 4 > p.Length || PayloadReader.U32(p, offset) != 0;
        start = new WmiOperationStart(correlation, group, operationId, operation, machine, fqdn, user, clientPid, created, ns, isLocal);
        return true;
    }
}

/// <summary>
/// WMI-Activity provider info (12), logged when a group operation reaches its provider: u32 GroupOperationId;
/// UTF-16 Operation; u32 HostId (the provider host's process id, by the field's name and use); UTF-16 ProviderName;
/// UTF-16 ProviderGuid; UTF-16 Path.
/// </summary>
public readonly record struct WmiProviderInfo(uint GroupOperationId, string Operation, int HostId, string ProviderName, string ProviderGuid, string Path)
{
    public static bool Matches(in EtwEvent e) => WmiActivityProvider.Is(e, WmiActivityProvider.ProviderInfo);

    public static bool TryDecode(in EtwEvent e, out WmiProviderInfo info, StringPool? strings = null)
    {
        info = default;
        if (!Matches(e)) return false;
        var p = e.Payload;
        uint group = PayloadReader.U32(p, 0);
        int offset = 4;
        string operation = PayloadStrings.Utf16(p, ref offset, strings);
        if (offset + 4 > p.Length) return false; // cut before HostId
        int host = PayloadReader.I32(p, offset);
        offset += 4;
        string name = PayloadStrings.Utf16(p, ref offset, strings);
        string guid = PayloadStrings.Utf16(p, ref offset, strings);
        string path = PayloadStrings.Utf16(p, ref offset, strings);
        info = new WmiProviderInfo(group, operation, host, name, guid, path);
        return true;
    }
}

/// <summary>WMI-Activity operation end (13): u32 OperationId; u32 ResultCode (HRESULT, 0 = success).</summary>
public readonly record struct WmiOperationEnd(uint OperationId, uint ResultCode)
{
    public static bool Matches(in EtwEvent e) => WmiActivityProvider.Is(e, WmiActivityProvider.OperationEnd);

    public static bool TryDecode(in EtwEvent e, out WmiOperationEnd end)
    {
        end = default;
        if (!Matches(e) || e.Payload.Length < 8) return false;
        end = new WmiOperationEnd(PayloadReader.U32(e.Payload, 0), PayloadReader.U32(e.Payload, 4));
        return true;
    }
}
