using HiddenCost.Analysis.Common;

namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>
/// One tracked MS-EVEN6 call, client or server side, while it is open. A server call collects what serving it
/// cost (on-CPU time, registry operations, file reads of its thread); a client call knows who asked. Matched
/// calls point at each other through <see cref="Peer"/>.
/// </summary>
internal sealed class Even6Call(RpcSide side, ProcessRef process, int threadId, int opnum, int protocol, long startNs)
{
    public const long Open = -1;

    public RpcSide Side { get; } = side;
    public ProcessRef Process { get; } = process;
    public int ThreadId { get; } = threadId;
    public int Opnum { get; } = opnum;
    public Even6CallKind Kind { get; } = Even6.KindOf(opnum);
    /// <summary>RPC protocol sequence (1 TCP, 2 named pipes, 3 LRPC, 4 HTTP); 0 when unknown.</summary>
    public int Protocol { get; } = protocol;
    public long StartNs { get; } = startNs;
    public long StopNs { get; set; } = Open;
    /// <summary>True when the trace ended before the call did.</summary>
    public bool Unfinished { get; set; }

    /// <summary>
    /// Server side: the call began on a processor before the trace's first context switch there, where the kernel
    /// session's events (switches, registry, file reads) had not begun: what it cost cannot be seen.
    /// </summary>
    public bool BeforeKernelEvents { get; init; }
    public Even6Call? Peer { get; set; }

    /// <summary>
    /// Server side: when it was paired, another waiting client could have been its client too (concurrent calls of
    /// one opnum), so which client it served is the matcher's best guess.
    /// </summary>
    public bool GuessedPeer { get; set; }

    /// <summary>Client side: a service call that could have been this client's went to another waiting client.</summary>
    public bool PassedOver { get; set; }

    // Server side: the serving thread's work inside the call.
    public long CpuNs { get; set; }
    public long RegistryOps { get; set; }
    /// <summary>Bytes read per file key; null until the thread reads.</summary>
    public Dictionary<ulong, long>? Reads { get; private set; }

    // Client side: the WMI client a provider host's call serves.
    public ProcessRef? OnBehalfOf { get; init; }
    public string? WmiQuery { get; init; }

    /// <summary>Another Win32_NTLogEvent query the same provider host may have served was running too.</summary>
    public bool WmiAmbiguous { get; init; }

    /// <summary>Every Win32_NTLogEvent query the provider host may have been serving had ended (event 13) before this call.</summary>
    public bool WmiAfterEnd { get; init; }

    public bool IsOpen => StopNs == Open;

    /// <summary>Server side: counted as its client's though it logged no stop within the skew after the client returned.</summary>
    public bool StoppedLate { get; set; }

    public void AddRead(ulong fileKey, long bytes)
    {
        Reads ??= new Dictionary<ulong, long>(1);
        Reads[fileKey] = Reads.GetValueOrDefault(fileKey) + bytes;
    }

    /// <summary>True when a server call with <paramref name="server"/>'s opnum and protocol may serve this client call.</summary>
    public bool CanBeServedBy(Even6Call server) =>
        Opnum == server.Opnum && StartNs <= server.StartNs
        && (Protocol == 0 || server.Protocol == 0 || Protocol == server.Protocol);

    public static void Link(Even6Call client, Even6Call server)
    {
        client.Peer = server;
        server.Peer = client;
    }
}
