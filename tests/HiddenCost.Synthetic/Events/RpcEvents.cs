using HiddenCost.Synthetic.Etl;

namespace HiddenCost.Synthetic.Events;

/// <summary>The binding of an RPC call as events 5 and 6 describe it.</summary>
public sealed record RpcCallInfo(Guid InterfaceUuid, uint ProcNum)
{
    /// <summary>1 TCP, 2 named pipes, 3 LRPC, 4 RPC/HTTP.</summary>
    public uint Protocol { get; init; } = 3;
    public string NetworkAddress { get; init; } = "";
    public string Endpoint { get; init; } = "eventlog";
    public string Options { get; init; } = "";
    /// <summary>RPC_C_AUTHN_LEVEL_PKT_PRIVACY.</summary>
    public uint AuthenticationLevel { get; init; } = 6;
    /// <summary>10 = NTLM (RPC_C_AUTHN_WINNT), the local-call default.</summary>
    public uint AuthenticationService { get; init; } = 10;
    /// <summary>3 = Impersonate.</summary>
    public uint ImpersonationLevel { get; init; } = 3;
}

/// <summary>
/// Microsoft-Windows-RPC (6ad52b32-…) call events 5–8, all version 1, level 4 (event-payloads.md §2; repnz and
/// jdu2600 manifest dumps). The manifests define no keywords. Channel 16 is an assumption (the provider's
/// Debug channel); analyses key on provider and event id.
/// </summary>
public static class RpcEvents
{
    public const ushort ClientCallStartId = 5;
    public const ushort ServerCallStartId = 6;
    public const ushort ClientCallStopId = 7;
    public const ushort ServerCallStopId = 8;

    private const byte Channel = 16;

    /// <summary>
    /// Events 5 (client, task 1) and 6 (server, task 2), opcode Start: GUID InterfaceUuid; u32 ProcNum; u32 Protocol;
    /// UTF-16 NetworkAddress; UTF-16 Endpoint; UTF-16 Options; u32 AuthenticationLevel; u32 AuthenticationService;
    /// u32 ImpersonationLevel.
    /// </summary>
    public static ManifestRecord CallStart(EventContext c, bool server, RpcCallInfo call, Guid activityId)
    {
        var p = new PayloadBuilder(c.PointerSize).Guid(call.InterfaceUuid).U32(call.ProcNum).U32(call.Protocol)
            .WString(call.NetworkAddress).WString(call.Endpoint).WString(call.Options)
            .U32(call.AuthenticationLevel).U32(call.AuthenticationService).U32(call.ImpersonationLevel);
        var d = new EventDescriptor(server ? ServerCallStartId : ClientCallStartId, 1, Channel, 4, 1, (ushort)(server ? 2 : 1), 0);
        return Record(c, d, p, activityId);
    }

    /// <summary>Events 7 (client, task 1) and 8 (server, task 2), opcode Stop: u32 Status.</summary>
    public static ManifestRecord CallStop(EventContext c, bool server, uint status, Guid activityId)
    {
        var d = new EventDescriptor(server ? ServerCallStopId : ClientCallStopId, 1, Channel, 4, 2, (ushort)(server ? 2 : 1), 0);
        return Record(c, d, new PayloadBuilder(c.PointerSize).U32(status), activityId);
    }

    private static ManifestRecord Record(EventContext c, EventDescriptor d, PayloadBuilder p, Guid activityId) => new()
    {
        Cpu = c.Cpu,
        Timestamp = c.Timestamp,
        PointerSize = c.PointerSize,
        ProviderId = Providers.Rpc,
        Descriptor = d,
        ThreadId = c.ThreadId,
        ProcessId = c.ProcessId,
        ActivityId = activityId,
        Payload = p.ToArray(),
    };
}
