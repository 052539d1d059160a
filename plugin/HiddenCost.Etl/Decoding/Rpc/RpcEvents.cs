using HiddenCost.Etl.Reading;
using HiddenCost.Etl.Records;

namespace HiddenCost.Etl.Decoding.Rpc;

/// <summary>Microsoft-Windows-RPC (every event version 1).</summary>
public static class RpcProvider
{
    public static readonly Guid Id = new("6ad52b32-d609-4be9-ae07-ce8dae937e39");

    public const ushort ClientCallStart = 5, ServerCallStart = 6, ClientCallStop = 7, ServerCallStop = 8;

    internal static bool Is(in EtwEvent e, ushort id) => e.Kind == RecordHeaderKind.EventHeader && e.EventId == id && e.ProviderId == Id;
}

/// <summary>
/// RpcClientCallStart (5) / RpcServerCallStart (6): GUID InterfaceUuid; u32 ProcNum (the opnum); u32 Protocol
/// (1 TCP, 2 named pipes, 3 LRPC, 4 HTTP); UTF-16 NetworkAddress; UTF-16 Endpoint; UTF-16 Options;
/// u32 AuthenticationLevel; u32 AuthenticationService; u32 ImpersonationLevel. Start and stop of one call are
/// on the same thread and share the ActivityId.
/// </summary>
public readonly record struct RpcCallStart(
    bool IsServer,
    Guid InterfaceUuid,
    uint ProcNum,
    uint Protocol,
    string NetworkAddress,
    string Endpoint,
    string Options,
    uint AuthenticationLevel,
    uint AuthenticationService,
    uint ImpersonationLevel)
{
    public static bool Matches(in EtwEvent e) =>
        RpcProvider.Is(e, RpcProvider.ClientCallStart) || RpcProvider.Is(e, RpcProvider.ServerCallStart);

    public static bool TryDecode(in EtwEvent e, out RpcCallStart call, StringPool? strings = null)
    {
        call = default;
        if (!Matches(e)) return false;
        var p = e.Payload;
        if (p.Length < 24) return false;
        int offset = 24;
        string address = PayloadStrings.Utf16(p, ref offset, strings);
        string endpoint = PayloadStrings.Utf16(p, ref offset, strings);
        string options = PayloadStrings.Utf16(p, ref offset, strings);
        call = new RpcCallStart(e.EventId == RpcProvider.ServerCallStart, PayloadReader.Guid(p, 0), PayloadReader.U32(p, 16),
            PayloadReader.U32(p, 20), address, endpoint, options,
            PayloadReader.U32(p, offset), PayloadReader.U32(p, offset + 4), PayloadReader.U32(p, offset + 8));
        return true;
    }
}

/// <summary>RpcClientCallStop (7) / RpcServerCallStop (8): u32 Status (0 = success).</summary>
public readonly record struct RpcCallStop(bool IsServer, uint Status)
{
    public static bool Matches(in EtwEvent e) =>
        RpcProvider.Is(e, RpcProvider.ClientCallStop) || RpcProvider.Is(e, RpcProvider.ServerCallStop);

    public static bool TryDecode(in EtwEvent e, out RpcCallStop stop)
    {
        stop = default;
        if (!Matches(e) || e.Payload.Length < 4) return false;
        stop = new RpcCallStop(e.EventId == RpcProvider.ServerCallStop, PayloadReader.U32(e.Payload, 0));
        return true;
    }
}
