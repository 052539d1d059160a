using HiddenCost.Analysis.Tables.EventLog;

namespace HiddenCost.EventLogBench;

/// <summary>
/// A busy event-log reading session as decoded facts, generated on the fly: eight client processes render
/// messages in turn (every sixteenth round each asks query-next for the next batch, which reads Application.evtx),
/// each call served by one of two service threads; a render makes 13 registry operations plus KCB bookkeeping
/// while another svchost does as much registry work at the same time. Per render: 4 RPC events and 28 registry
/// events; per query: 4 RPC events and a file read; 2 context switches per call.
/// </summary>
internal static class FactWorkload
{
    public const int Clients = 8, ServicePid = 1000, OtherSvchostThread = 2001;
    public const ulong LogKey = 0xFFFF_C001_0000_0A10;

    public readonly record struct Counts(long RegistryAndRpcEvents, long ContextSwitches, long Renders, long Queries);

    /// <summary>Feeds <paramref name="tracker"/> until <paramref name="registryAndRpcEvents"/> are reached.</summary>
    public static Counts Run(EventLogTracker tracker, long registryAndRpcEvents)
    {
        tracker.ProcessStart(0, ServicePid, "svchost.exe", @"C:\Windows\system32\svchost.exe -k LocalServiceNetworkRestricted -p -s EventLog");
        tracker.ProcessStart(0, 2000, "svchost.exe", @"C:\Windows\system32\svchost.exe -k netsvcs -p -s Schedule");
        for (int c = 0; c < Clients; c++) tracker.ProcessStart(0, 3000 + 10 * c, "client.exe", "client.exe");
        long events = 0, switches = 0, renders = 0, queries = 0, now = 1_000_000, call = 0;
        while (events < registryAndRpcEvents)
        {
            bool query = call / Clients % 16 == 0;
            Call(tracker, call, now, query);
            events += query ? 4 : 4 + 28;
            switches += 2;
            if (query) queries++;
            else renders++;
            now += 520_000;
            call++;
        }
        tracker.FileName(LogKey, @"\Device\HarddiskVolume3\Windows\System32\winevt\Logs\Application.evtx");
        return new Counts(events, switches, renders, queries);
    }

    /// <summary>One call, in its own method so the JIT optimises it like the per-event code of a real pass.</summary>
    private static void Call(EventLogTracker tracker, long call, long now, bool query)
    {
        int client = (int)(call % Clients);
        int pid = 3000 + 10 * client, thread = pid + 1;
        int serviceThread = 1001 + (int)(call & 1), cpu = (int)(call & 1);
        int opnum = query ? Even6.QueryNext : Even6.MessageRender;
        tracker.RpcCallStart(now, 2 + client % 2, pid, thread, RpcSide.Client, Even6.InterfaceId, opnum, 3);
        tracker.ContextSwitch(now + 5_000, cpu, serviceThread, 0);
        tracker.RpcCallStart(now + 10_000, cpu, ServicePid, serviceThread, RpcSide.Server, Even6.InterfaceId, opnum, 3);
        long t = now + 10_000;
        if (query)
        {
            tracker.FileRead(t + 1_000, serviceThread, LogKey + 8, LogKey, 64 * 1024);
        }
        else
        {
            tracker.Registry(t += 1_000, serviceThread, RegistryOperations.KcbCreate);
            for (int i = 0; i < 13; i++)
            {
                tracker.Registry(t += 30_000, serviceThread, (i & 1) == 0 ? RegistryOperations.Open : RegistryOperations.QueryValue);
                tracker.Registry(t, OtherSvchostThread, RegistryOperations.QueryValue);
            }
            tracker.Registry(t += 1_000, serviceThread, RegistryOperations.KcbDelete);
        }
        tracker.RpcCallStop(now + 500_000, cpu, ServicePid, serviceThread, RpcSide.Server);
        tracker.ContextSwitch(now + 501_000, cpu, 0, serviceThread);
        tracker.RpcCallStop(now + 510_000, 2 + client % 2, pid, thread, RpcSide.Client);
    }
}
