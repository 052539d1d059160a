using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Model;

namespace HiddenCost.Synthetic.Scenarios;

/// <summary>Parameters of the event log render scenario (issue 11; product.md table 4).</summary>
public sealed record EventLogRenderOptions
{
    /// <summary>Renders (opnum 9) by WmiPrvSE.exe serving InventoryAgent.exe's Win32_NTLogEvent query on the Application log.</summary>
    public int WmiRenders { get; init; } = 240;

    /// <summary>Renders (opnum 10) by mmc.exe (Event Viewer) on the System log, concurrently, served by another service thread.</summary>
    public int ViewerRenders { get; init; } = 100;

    /// <summary>Renders per EvtRpcQueryNext (opnum 11) batch.</summary>
    public int RendersPerQuery { get; init; } = 30;

    /// <summary>Service time per render (the seed case: about 0.5 ms per message).</summary>
    public double RenderUs { get; init; } = 500;

    /// <summary>Every n-th render waits briefly inside the call (a push lock), so on-CPU time is less than the call.</summary>
    public int RenderWaitEvery { get; init; } = 4;
    public double RenderWaitUs { get; init; } = 40;

    public double QueryUs { get; init; } = 1200;
    public int EvtxReadsPerQuery { get; init; } = 2;
    public uint EvtxReadBytes { get; init; } = 64 * 1024;

    /// <summary>Client-side time between calls.</summary>
    public double ClientGapUs { get; init; } = 60;

    /// <summary>The Schedule service's svchost reads the registry this often (never counted as EventLog work).</summary>
    public double OtherServiceEveryUs { get; init; } = 2000;

    public int CpusNeeded => 5;
}

/// <summary>One row of Event Log Render Cost: client process × log (times in ns since the trace start).</summary>
/// <param name="OnBehalfOf">For WmiPrvSE.exe, the process whose Win32_NTLogEvent query it serves (WMI-Activity ClientProcessId).</param>
/// <param name="Log">From the .evtx the client's query calls read (Application.evtx → Application).</param>
/// <param name="Renders">Server-side opnum 9/10 calls of this client.</param>
/// <param name="Queries">Server-side opnum 11 calls.</param>
/// <param name="ServiceCpuMs">The serving threads' on-CPU time inside the client's server calls (from context switches).</param>
/// <param name="CpuPerMessageMs">ServiceCpuMs ÷ Renders.</param>
/// <param name="RegistryOps">Registry operation events of the serving threads inside those calls (KCB events excluded).</param>
/// <param name="EvtxReadBytes">Σ IoSize of the .evtx reads inside those calls.</param>
/// <param name="MessagesPerSecond">Renders ÷ (LastNs − FirstNs).</param>
/// <param name="FirstNs">First client call start (event 5).</param>
/// <param name="LastNs">Last client call stop (event 7).</param>
public sealed record EventLogClientTruth(
    string Process, int Pid, string? OnBehalfOf, int? OnBehalfOfPid, string Log, int Renders, int Queries,
    double ServiceCpuMs, double CpuPerMessageMs, int RegistryOps, double RegistryOpsPerMessage, long EvtxReadBytes,
    double MessagesPerSecond, string? WmiQuery, long FirstNs, long LastNs);

/// <summary>Ground truth of an event log render trace.</summary>
/// <param name="OtherServicePid">The Schedule service's svchost, whose registry reads are not EventLog work.</param>
public sealed record EventLogRenderTruth(
    IReadOnlyList<EventLogClientTruth> Clients, int EventLogServicePid, int OtherServicePid, int OtherServiceRegistryOps,
    int NonEventLogWmiClientPid);

/// <summary>
/// Event log render (issue 11): the EventLog service (svchost.exe -s EventLog, wevtsvc.dll) serves MS-EVEN6 calls
/// from WmiPrvSE.exe (for InventoryAgent.exe's Win32_NTLogEvent query) and from mmc.exe, on two service threads at
/// the same time. Each render costs about 0.5 ms and 13 registry operations; each query reads the .evtx file.
/// Another svchost reads the registry throughout.
/// </summary>
public sealed class EventLogRender
{
    public static readonly Guid Even6Interface = new("f6beaff7-1e19-4fbb-9f8f-b89e2018337c");
    public const string WmiQueryText = "SELECT * FROM Win32_NTLogEvent WHERE Logfile='Application'";
    private const string LogFolder = @"\Device\HarddiskVolume3\Windows\System32\winevt\Logs\";

    private readonly TraceBuilder _b;
    private readonly EventLogRenderOptions _o;
    private readonly Dictionary<string, ulong> _kcbs = [];
    private readonly List<ClientState> _clients = [];
    private SyntheticProcess _service = null!;
    private SyntheticProcess _otherService = null!;
    private SyntheticProcess _monitor = null!;
    private int _otherRegistryOps;

    private EventLogRender(TraceBuilder b, EventLogRenderOptions o)
    {
        _b = b;
        _o = o;
    }

    private sealed class ClientState(SyntheticThread client, int clientCpu, SyntheticThread server, int serverCpu, string log, ushort renderOpnum)
    {
        public SyntheticThread Client { get; } = client;
        public int ClientCpu { get; } = clientCpu;
        public SyntheticThread Server { get; } = server;
        public int ServerCpu { get; } = serverCpu;
        public string Log { get; } = log;
        public ushort RenderOpnum { get; } = renderOpnum;
        public ulong LogFileObject { get; set; }
        public ulong LogFileKey { get; set; }
        public ulong ReadOffset { get; set; } = 0x1000;
        public SyntheticProcess? OnBehalfOf { get; set; }
        public int Renders { get; set; }
        public int Queries { get; set; }
        public int RegistryOps { get; set; }
        public long EvtxBytes { get; set; }
        public long First { get; set; } = long.MaxValue;
        public long Last { get; set; }
        public List<(long Start, long Stop)> ServerCalls { get; } = [];
    }

    public static ScenarioTrace<EventLogRenderTruth> Generate(EventLogRenderOptions? options = null, TraceBuilderSettings? settings = null)
    {
        var o = options ?? new EventLogRenderOptions();
        var b = new TraceBuilder(ScenarioSupport.WithCpus(settings, o.CpusNeeded, "event-log-render.etl"));
        var scenario = Plan(b, o, Enumerable.Range(0, o.CpusNeeded).ToArray());
        var trace = b.Build();
        return new ScenarioTrace<EventLogRenderTruth>(trace, scenario.Truth(trace));
    }

    public static EventLogRender Plan(TraceBuilder b, EventLogRenderOptions o, IReadOnlyList<int> cpus)
    {
        ScenarioSupport.RequireCpus(b, cpus, o.CpusNeeded, nameof(EventLogRender));
        var scenario = new EventLogRender(b, o);
        scenario.Run(cpus);
        return scenario;
    }

    private SyntheticProcess Svchost(string group, string service)
    {
        var p = _b.AddProcess("svchost.exe", $@"C:\Windows\system32\svchost.exe -k {group} -p -s {service}", sid: ProcessInfo.LocalServiceSid, parentPid: 0);
        _b.AddImage(p, @"\Device\HarddiskVolume3\Windows\System32\svchost.exe", 0x1_5000);
        _b.AddSystemDlls(p);
        _b.AddImage(p, @"\Device\HarddiskVolume3\Windows\System32\rpcrt4.dll", 0x11_6000);
        return p;
    }

    private void Run(IReadOnlyList<int> cpus)
    {
        var b = _b;
        _service = Svchost("LocalServiceNetworkRestricted", "EventLog");
        var wevtsvc = b.AddImage(_service, @"\Device\HarddiskVolume3\Windows\System32\wevtsvc.dll", 0x1F_4000);
        _otherService = Svchost("netsvcs", "Schedule");
        var winmgmt = Svchost("netsvcs", "Winmgmt");

        var wmiprvse = b.AddProcess("WmiPrvSE.exe", @"C:\Windows\system32\wbem\wmiprvse.exe -secured -Embedding", sid: ProcessInfo.LocalSystemSid);
        b.AddImage(wmiprvse, @"\Device\HarddiskVolume3\Windows\System32\wbem\WmiPrvSE.exe", 0x7_A000);
        b.AddSystemDlls(wmiprvse);
        var agent = b.AddProcess("InventoryAgent.exe", @"""C:\Program Files\Contoso\Inventory\InventoryAgent.exe"" --scan eventlog");
        b.AddImage(agent, @"\Device\HarddiskVolume3\Program Files\Contoso\Inventory\InventoryAgent.exe", 0x5_2000);
        b.AddSystemDlls(agent);
        var mmc = b.AddProcess("mmc.exe", @"""C:\Windows\system32\mmc.exe"" ""C:\Windows\system32\eventvwr.msc"" /s");
        b.AddImage(mmc, @"\Device\HarddiskVolume3\Windows\System32\mmc.exe", 0x1A_9000);
        b.AddSystemDlls(mmc);
        _monitor = b.AddProcess("monitor.exe", @"""C:\Tools\monitor.exe"" --interval 5");
        b.AddImage(_monitor, @"\Device\HarddiskVolume3\Tools\monitor.exe", 0x2_8000);

        var wmi = new ClientState(b.AddThread(wmiprvse), cpus[0], b.AddThread(_service, "EventLog worker"), cpus[1], "Application", 9) { OnBehalfOf = agent };
        var viewer = new ClientState(b.AddThread(mmc), cpus[2], b.AddThread(_service, "EventLog worker"), cpus[3], "System", 10);
        _clients.Add(wmi);
        _clients.Add(viewer);
        foreach (var c in _clients)
        {
            c.LogFileObject = b.PoolAddress();
            c.LogFileKey = b.PoolAddress();
            var key = c.LogFileKey;
            var path = LogFolder + c.Log + ".evtx";
            b.AtEndRundown(ctx => FileIoEvents.Name(ctx, FileIoEvents.FileRundownType, key, path));
        }

        // Registry keys the service already has open appear in the KCB rundown at both ends of the trace.
        foreach (var path in new[] { MuiKey, EventLogKey("Application", "Application Error"), EventLogKey("System", "Service Control Manager") })
        {
            var kcb = Kcb(path);
            b.AtStartRundown(ctx => RegistryEvents.Event(ctx, RegistryEvents.KcbRundownBeginType, 0, 0, 0, kcb, path));
            b.AtEndRundown(ctx => RegistryEvents.Event(ctx, RegistryEvents.KcbRundownEndType, 0, 0, 0, kcb, path));
        }

        // WMI: InventoryAgent asks winmgmt for the event log; WmiPrvSE's provider then reads it through MS-EVEN6.
        var otherCpu = cpus[4];
        var agentThread = b.AddThread(agent);
        var winmgmtThread = b.AddThread(winmgmt, "WMI worker");
        var monitorThread = b.AddThread(_monitor);
        var t0 = b.At(0) + 20;
        b.Run(otherCpu, agentThread, t0, t0 + b.Ticks(30), Idle(agentThread), SwitchOut.Wait(WaitReason.WrLpcReply));
        b.Run(otherCpu, winmgmtThread, t0 + b.Ticks(40), t0 + b.Ticks(120), Idle(winmgmtThread), SwitchOut.Wait(WaitReason.WrQueue));
        b.Emit(WmiActivityEvents.OperationStart(b.On(winmgmtThread, t0 + b.Ticks(60)), WmiOperation(48_213, WmiQueryText, agent, @"CONTOSO\svc-inventory")));
        b.Run(otherCpu, monitorThread, t0 + b.Ticks(150), t0 + b.Ticks(180), Idle(monitorThread), SwitchOut.Wait(WaitReason.WrLpcReply));
        b.Run(otherCpu, winmgmtThread, t0 + b.Ticks(190), t0 + b.Ticks(260), Idle(winmgmtThread), SwitchOut.Wait(WaitReason.WrQueue));
        b.Emit(WmiActivityEvents.OperationStart(b.On(winmgmtThread, t0 + b.Ticks(200)), WmiOperation(48_220, "SELECT * FROM Win32_Process", _monitor, @"CONTOSO\alice")));

        var start = t0 + b.Ticks(300);
        var wmiEnd = PlanClient(wmi, start, _o.WmiRenders, wevtsvc);
        var viewerEnd = PlanClient(viewer, start + b.Ticks(137), _o.ViewerRenders, wevtsvc);
        PlanOtherService(otherCpu, t0 + b.Ticks(1000), Math.Max(wmiEnd, viewerEnd));
    }

    private WmiOperationInfo WmiOperation(uint id, string query, SyntheticProcess client, string user) =>
        new(id, @"Start IWbemServices::ExecQuery - root\cimv2 : " + query, (uint)client.Pid)
        {
            CorrelationId = $"{{{new Guid(0x5359_4E54, 0x4845, 0x5449, 0x43, 0, 0, 0, 0, 0, 0, (byte)(id & 0xFF))}}}".ToUpperInvariant(),
            GroupOperationId = id - 1,
            ClientMachine = "WS-SYNTH01",
            ClientMachineFqdn = "WS-SYNTH01.contoso.test",
            User = user,
            ClientProcessCreationTime = (ulong)(_b.Etl.StartTimeUtc.ToFileTimeUtc() - TimeSpan.FromMinutes(45).Ticks),
        };

    private static Activity Idle(SyntheticThread t) => new("client", [t.Process.Images[0].At(0x1A30)]);

    private long PlanClient(ClientState c, long t, int renders, SyntheticImage wevtsvc)
    {
        var b = _b;
        var clientWork = new Activity("client", [c.Client.Process.Images[0].At(0x2_1C40), c.Client.Process.Images[0].At(0x1_0A00)]);
        ulong[] serviceUser = [wevtsvc.At(0x6_3A10), wevtsvc.At(0x5_1F80), c.Server.Process.Images.First(i => i.FileName == "rpcrt4.dll").At(0x4_4210)];
        var render = new Activity("EvtRpcMessageRender",
            [b.Kernel.At(KernelFunctions.NtQueryValueKeyRva + 0x88), b.Kernel.At(KernelFunctions.KiSystemServiceCopyEndRva), wevtsvc.At(0x7_1200), .. serviceUser],
            [wevtsvc.At(0x7_2C84), .. serviceUser]);
        var query = new Activity("EvtRpcQueryNext", [wevtsvc.At(0x3_8E10), .. serviceUser]);

        var done = 0;
        var renderIndex = 0;
        while (done < renders)
        {
            t = Call(c, t, clientWork, 11, query, _o.QueryUs, serverWork: (server, from, to) =>
            {
                var step = (to - from) / (_o.EvtxReadsPerQuery + 1) / 2 * 2;
                for (var i = 1; i <= _o.EvtxReadsPerQuery; i++)
                {
                    var at = from + i * step;
                    var irp = b.PoolAddress();
                    b.Emit(FileIoEvents.ReadWrite(b.On(server, at), FileIoEvents.ReadType, c.ReadOffset, irp, c.LogFileObject, c.LogFileKey, (uint)server.Tid, _o.EvtxReadBytes));
                    b.Emit(FileIoEvents.OperationEnd(b.On(server, at + 20), irp, _o.EvtxReadBytes, FileIoValues.StatusSuccess));
                    c.ReadOffset += _o.EvtxReadBytes;
                    c.EvtxBytes += _o.EvtxReadBytes;
                }
            });
            c.Queries++;
            for (var r = 0; r < _o.RendersPerQuery && done < renders; r++, done++)
            {
                var source = Sources(c.Log)[renderIndex++ % Sources(c.Log).Length];
                var wait = _o.RenderWaitEvery > 0 && done % _o.RenderWaitEvery == _o.RenderWaitEvery - 1;
                t = Call(c, t, clientWork, c.RenderOpnum, render, _o.RenderUs, wait, (server, from, to) => RenderRegistry(c, server, from, to, source));
                c.Renders++;
            }
        }
        return t;
    }

    private static string[] Sources(string log) => log == "Application"
        ? ["Application Error", "MsiInstaller", "Winlogon", "VSS", "SecurityCenter"]
        : ["Service Control Manager", "Microsoft-Windows-Kernel-General", "EventLog", "Microsoft-Windows-Time-Service"];

    private static string EventLogKey(string log, string source) => $@"\REGISTRY\MACHINE\SYSTEM\ControlSet001\Services\EventLog\{log}\{source}";

    private const string MuiKey = @"\REGISTRY\MACHINE\SYSTEM\ControlSet001\Control\MUI\Settings";

    private static string PublisherKey(string source) =>
        $@"\REGISTRY\MACHINE\SOFTWARE\Microsoft\Windows\CurrentVersion\WINEVT\Publishers\{{{new Guid(0x5359_4E54, 0x4845, 0x5449, 0x43, 0x50, 0x55, 0x42, 0, 0, 0, (byte)(TraceBuilder.StableHash(source) & 0xFF))}}}";

    /// <summary>
    /// One client call and its server side: client start (5) → the client blocks on the LRPC reply → server start (6)
    /// on a service thread readied by the client → work → server stop (8) → the client is readied → client stop (7).
    /// </summary>
    private long Call(ClientState c, long t, Activity clientWork, ushort opnum, Activity serverActivity, double serviceUs, bool waitInside = false,
        Action<SyntheticThread, long, long>? serverWork = null)
    {
        var b = _b;
        var info = new RpcCallInfo(Even6Interface, opnum);
        var activity = new Guid(0x5359_4E54, 0x4845, (short)0x5449, 0x43, 0x52, 0x50, 0x43, (byte)c.ClientCpu, (byte)(t >> 16), (byte)(t >> 8), (byte)t);
        var clientEnd = t + b.Ticks(_o.ClientGapUs);
        b.Run(c.ClientCpu, c.Client, t, clientEnd, clientWork, SwitchOut.Wait(WaitReason.WrLpcReply));
        var clientStart = clientEnd - b.Ticks(4);
        b.Emit(RpcEvents.CallStart(b.On(c.Client, clientStart, userMode: true), false, info, activity));
        b.Ready(c.ClientCpu, clientEnd - 2, c.Server);

        var serverIn = clientEnd + b.Ticks(6);
        var serverStart = serverIn + b.Ticks(2);
        var serverStop = serverStart + b.Ticks(serviceUs * b.Random.Between(0.9, 1.1));
        var serverOut = serverStop + b.Ticks(2);
        if (waitInside)
        {
            var pause = (serverStart + serverStop) / 2 / 2 * 2;
            var resume = pause + b.Ticks(_o.RenderWaitUs);
            serverStop += resume - pause;
            serverOut = serverStop + b.Ticks(2);
            b.Run(c.ServerCpu, c.Server, serverIn, pause, serverActivity, SwitchOut.Wait(WaitReason.WrPushLock, 0));
            b.Run(c.ServerCpu, c.Server, resume, serverOut, serverActivity, SwitchOut.Wait(WaitReason.WrLpcReceive));
        }
        else
        {
            b.Run(c.ServerCpu, c.Server, serverIn, serverOut, serverActivity, SwitchOut.Wait(WaitReason.WrLpcReceive));
        }
        b.Emit(RpcEvents.CallStart(b.On(c.Server, serverStart, userMode: true), true, info, activity));
        serverWork?.Invoke(c.Server, serverStart + b.Ticks(4), serverStop - b.Ticks(4));
        b.Emit(RpcEvents.CallStop(b.On(c.Server, serverStop, userMode: true), true, 0, activity));
        b.Ready(c.ServerCpu, serverStop, c.Client);
        c.ServerCalls.Add((serverStart, serverStop));

        var clientIn = serverOut + b.Ticks(4);
        var next = clientIn + b.Ticks(_o.ClientGapUs);
        b.Run(c.ClientCpu, c.Client, clientIn, next, clientWork);
        var clientStop = clientIn + b.Ticks(2);
        b.Emit(RpcEvents.CallStop(b.On(c.Client, clientStop, userMode: true), false, 0, activity));
        c.First = Math.Min(c.First, clientStart);
        c.Last = Math.Max(c.Last, clientStop);
        return next;
    }

    /// <summary>The 13 registry operations of one render: 3 opens, 7 value queries, 3 closes, spread over the call.</summary>
    private void RenderRegistry(ClientState c, SyntheticThread server, long from, long to, string source)
    {
        var b = _b;
        var eventLogKey = EventLogKey(c.Log, source);
        var publisherKey = PublisherKey(source);
        var ops = new List<(byte Type, string Key, string Name, uint Status)>
        {
            (RegistryEvents.OpenType, eventLogKey, eventLogKey, 0),
            (RegistryEvents.QueryValueType, eventLogKey, "EventMessageFile", 0),
            (RegistryEvents.QueryValueType, eventLogKey, "ProviderGuid", 0),
            (RegistryEvents.QueryValueType, eventLogKey, "CategoryMessageFile", source.Length % 2 == 0 ? 0u : 0xC000_0034),
            (RegistryEvents.OpenType, publisherKey, publisherKey, 0),
            (RegistryEvents.QueryValueType, publisherKey, "MessageFileName", 0),
            (RegistryEvents.QueryValueType, publisherKey, "ResourceFileName", 0),
            (RegistryEvents.OpenType, MuiKey, MuiKey, 0),
            (RegistryEvents.QueryValueType, MuiKey, "PreferredUILanguages", 0),
            (RegistryEvents.QueryValueType, MuiKey, "PreferredUILanguagesPending", 0xC000_0034),
            (RegistryEvents.CloseType, MuiKey, "", 0),
            (RegistryEvents.CloseType, publisherKey, "", 0),
            (RegistryEvents.CloseType, eventLogKey, "", 0),
        };
        var step = (to - from) / (ops.Count + 1) / 2 * 2;
        for (var i = 0; i < ops.Count; i++)
        {
            var (type, key, name, status) = ops[i];
            var at = NextRunning(server, from + (i + 1) * step);
            var isNew = !_kcbs.ContainsKey(key);
            var kcb = Kcb(key);
            if (type == RegistryEvents.OpenType && isNew)
            {
                b.Emit(RegistryEvents.Event(b.On(server, at), RegistryEvents.KcbCreateType, at, 0, 0, kcb, key));
                at = NextRunning(server, at + 2);
            }
            b.Emit(RegistryEvents.Event(b.On(server, at), type, at - b.Ticks(2), status, 0, type == RegistryEvents.OpenType ? 0 : kcb, name));
            c.RegistryOps++;
        }
    }

    /// <summary>The first even time at or after <paramref name="at"/> strictly inside one of the thread's segments.</summary>
    private long NextRunning(SyntheticThread thread, long at)
    {
        while (_b.SegmentAt(thread, at) is not { } s || s.Start == at) at += 2;
        return at;
    }

    private ulong Kcb(string path)
    {
        if (!_kcbs.TryGetValue(path, out var kcb)) _kcbs[path] = kcb = _b.PoolAddress();
        return kcb;
    }

    private void PlanOtherService(int cpu, long from, long until)
    {
        var b = _b;
        var thread = b.AddThread(_otherService, "task scheduler");
        var activity = new Activity("task cache scan", [_otherService.Images[0].At(0x2A10)]);
        var key = @"\REGISTRY\MACHINE\SOFTWARE\Microsoft\Windows NT\CurrentVersion\Schedule\TaskCache\Tree\Microsoft\Windows\UpdateOrchestrator";
        var kcb = Kcb(key);
        for (var t = from; t + b.Ticks(80) < until; t += b.Ticks(_o.OtherServiceEveryUs))
        {
            b.Run(cpu, thread, t, t + b.Ticks(80), activity, SwitchOut.Wait(WaitReason.WrQueue));
            var names = new[] { "Id", "Index", "SD", "Triggers" };
            for (var i = 0; i < names.Length; i++)
            {
                var at = t + b.Ticks(10 + 15 * i);
                b.Emit(RegistryEvents.Event(b.On(thread, at), RegistryEvents.QueryValueType, at - b.Ticks(3), 0, 0, kcb, names[i]));
                _otherRegistryOps++;
            }
        }
    }

    public EventLogRenderTruth Truth(BuiltTrace trace)
    {
        var rows = _clients.Select(c =>
        {
            var cpuTicks = c.ServerCalls.Sum(call => _b.SegmentsOf(c.Server)
                .Sum(s => Math.Max(0, Math.Min(s.End, call.Stop) - Math.Max(s.Start, call.Start))));
            var cpuMs = trace.TicksToMs(cpuTicks);
            var firstNs = trace.ToTraceNs(c.First);
            var lastNs = trace.ToTraceNs(c.Last);
            return new EventLogClientTruth(c.Client.Process.ImageName, c.Client.Process.Pid, c.OnBehalfOf?.ImageName, c.OnBehalfOf?.Pid, c.Log,
                c.Renders, c.Queries, cpuMs, cpuMs / c.Renders, c.RegistryOps, c.RegistryOps / (double)c.Renders, c.EvtxBytes,
                c.Renders / ((lastNs - firstNs) / 1e9), c.OnBehalfOf is null ? null : WmiQueryText, firstNs, lastNs);
        }).ToArray();
        return new EventLogRenderTruth(rows, _service.Pid, _otherService.Pid, _otherRegistryOps, _monitor.Pid);
    }
}
