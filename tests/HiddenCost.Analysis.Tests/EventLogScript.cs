using HiddenCost.Analysis.Tables.EventLog;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// Feeds an <see cref="EventLogTracker"/> the facts of MS-EVEN6 calls the way a trace orders them: the client
/// call starts, the service thread is switched in and serves it (registry operations, .evtx reads), is
/// switched out, and the client call returns. Times in ns; each call's service CPU is exactly its server span.
/// </summary>
internal sealed class EventLogScript
{
    public const int ServicePid = 1000, ServiceThread = 1001, ServiceThread2 = 1002;
    public const int OtherSvchostPid = 2000, OtherSvchostThread = 2001;
    public const string ServiceCommandLine = @"C:\Windows\system32\svchost.exe -k LocalServiceNetworkRestricted -p -s EventLog";
    public const ulong ApplicationKey = 0xFFFF_C001_0000_0A10, SystemKey = 0xFFFF_C001_0000_0B10, DllKey = 0xFFFF_C001_0000_0C10;
    public const string ApplicationPath = @"\Device\HarddiskVolume3\Windows\System32\winevt\Logs\Application.evtx";
    public const string SystemPath = @"\Device\HarddiskVolume3\Windows\System32\winevt\Logs\System.evtx";
    /// <summary>Client start → server start, server stop → client stop.</summary>
    public const long DispatchNs = 20_000;

    public EventLogTracker Tracker { get; } = new();
    public long Now { get; set; } = 1_000_000;

    /// <summary>The EventLog service's svchost, another svchost, and the given clients, as process rundown names them.</summary>
    public EventLogScript WithProcesses(params (int Pid, string Image)[] clients)
    {
        Tracker.ProcessStart(0, ServicePid, "svchost.exe", ServiceCommandLine);
        Tracker.ProcessStart(0, OtherSvchostPid, "svchost.exe", @"C:\Windows\system32\svchost.exe -k netsvcs -p -s Schedule");
        foreach (var (pid, image) in clients) Tracker.ProcessStart(0, pid, image, image);
        return this;
    }

    /// <summary>One complete call: <paramref name="cpuNs"/> of service CPU, <paramref name="registryOps"/> operations (plus KCB bookkeeping), optional read.</summary>
    public void Call(int clientPid, int clientThread, int opnum, long cpuNs, int registryOps = 0, ulong file = 0, long readBytes = 0,
        int serviceThread = ServiceThread, int cpu = 0)
    {
        long clientStart = Now;
        Tracker.RpcCallStart(clientStart, 1, clientPid, clientThread, RpcSide.Client, Even6.InterfaceId, opnum, 3);
        long serverStart = clientStart + DispatchNs;
        Tracker.ContextSwitch(serverStart - 5_000, cpu, serviceThread, 0);
        Tracker.RpcCallStart(serverStart, cpu, ServicePid, serviceThread, RpcSide.Server, Even6.InterfaceId, opnum, 3);
        long serverStop = serverStart + cpuNs;
        long step = Math.Max(1, cpuNs / (registryOps + 4));
        long t = serverStart;
        Tracker.Registry(t += step, serviceThread, RegistryOperations.KcbCreate);
        for (int i = 0; i < registryOps; i++)
        {
            Tracker.Registry(t += step, serviceThread, i % 2 == 0 ? RegistryOperations.Open : RegistryOperations.QueryValue);
            Tracker.Registry(t, OtherSvchostThread, RegistryOperations.QueryValue); // another svchost's registry work at the same time
        }
        Tracker.Registry(t += step, serviceThread, RegistryOperations.KcbDelete);
        if (file != 0) Tracker.FileRead(t += step, serviceThread, file + 8, file, readBytes);
        Tracker.RpcCallStop(serverStop, cpu, ServicePid, serviceThread, RpcSide.Server);
        Tracker.ContextSwitch(serverStop + 1_000, cpu, 0, serviceThread);
        Now = serverStop + DispatchNs;
        Tracker.RpcCallStop(Now, 1, clientPid, clientThread, RpcSide.Client);
        Now += 50_000;
    }

    /// <summary>File rundown at the end of the trace names the logs.</summary>
    public void Rundown()
    {
        Tracker.FileName(ApplicationKey, ApplicationPath);
        Tracker.FileName(SystemKey, SystemPath);
        Tracker.FileName(DllKey, @"\Device\HarddiskVolume3\Windows\System32\wevtsvc.dll");
    }
}
