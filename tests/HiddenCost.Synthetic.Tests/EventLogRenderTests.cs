using HiddenCost.Etl.Records;
using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Scenarios;
using HiddenCost.Synthetic.Tests.Support;

namespace HiddenCost.Synthetic.Tests;

[TestClass]
public sealed class EventLogRenderTests
{
    private static readonly Lazy<(ScenarioTrace<EventLogRenderTruth> Scenario, TraceFacts Facts)> Render = new(() =>
    {
        var s = EventLogRender.Generate(new EventLogRenderOptions { WmiRenders = 90, ViewerRenders = 45 });
        return (s, new TraceFacts(s.Bytes));
    });

    private sealed record RpcCall(int Pid, int Tid, uint Opnum, Guid Interface, long Start, long Stop, bool Server);

    private static List<RpcCall> Calls(TraceFacts f)
    {
        var open = new Dictionary<(int, bool), (uint Opnum, Guid Interface, long Start)>();
        var calls = new List<RpcCall>();
        foreach (var e in f.Events.Where(e => e.Kind == RecordHeaderKind.EventHeader && e.ProviderId == Providers.Rpc))
        {
            var server = e.EventId is RpcEvents.ServerCallStartId or RpcEvents.ServerCallStopId;
            if (e.EventId is RpcEvents.ClientCallStartId or RpcEvents.ServerCallStartId)
            {
                var c = e.Cursor();
                var uuid = c.Guid();
                open.Add((e.ThreadId, server), (c.U32(), uuid, e.TimeNs));
            }
            else
            {
                Assert.IsTrue(open.Remove((e.ThreadId, server), out var start));
                Assert.AreEqual(0u, e.Cursor().U32(), "status");
                calls.Add(new RpcCall(e.ProcessId, e.ThreadId, start.Opnum, start.Interface, start.Start, e.TimeNs, server));
            }
        }
        Assert.AreEqual(0, open.Count);
        return calls;
    }

    [TestMethod]
    public void Client_truth_matches_the_rpc_registry_file_and_scheduling_events()
    {
        var (scenario, f) = Render.Value;
        var truth = scenario.Truth;
        var calls = Calls(f);
        Assert.IsTrue(calls.All(c => c.Interface == EventLogRender.Even6Interface));
        var service = f.Processes[truth.EventLogServicePid];
        StringAssert.Contains(service.CommandLine, "-s EventLog");
        Assert.IsTrue(f.Images.Any(i => i.Pid == service.Pid && i.FileName == "wevtsvc.dll"));
        var servers = calls.Where(c => c.Server).ToList();
        Assert.IsTrue(servers.All(c => c.Pid == service.Pid), "only the EventLog service serves MS-EVEN6");
        var running = f.RunningIntervals();
        var registry = f.Events.Where(e => e.Group == KernelGroup.Registry && e.Kind == RecordHeaderKind.System).ToList();
        var logNames = f.Events.Where(e => e.Is(KernelGroup.FileIo, FileIoEvents.FileRundownType))
            .Select(e => { var c = e.Cursor(); return (Key: c.Pointer(), Name: c.WString()); }).ToDictionary(x => x.Key, x => x.Name);
        var reads = f.Events.Where(e => e.Is(KernelGroup.FileIo, FileIoEvents.ReadType)).Select(e =>
        {
            var c = e.Cursor();
            c.U64(); c.Pointer(); c.Pointer();
            var key = c.Pointer();
            var tid = (int)c.U32();
            return (e.TimeNs, Tid: tid, File: logNames[key], Size: c.U32());
        }).ToList();

        Assert.AreEqual(2, truth.Clients.Count);
        foreach (var client in truth.Clients)
        {
            var mine = calls.Where(c => !c.Server && c.Pid == client.Pid).ToList();
            var served = mine.Select(c => servers.Single(s => s.Opnum == c.Opnum && s.Start >= c.Start && s.Stop <= c.Stop)).ToList();
            Assert.AreEqual(client.Renders, served.Count(s => s.Opnum is 9 or 10), client.Process);
            Assert.AreEqual(client.Queries, served.Count(s => s.Opnum == 11), client.Process);
            var cpuNs = served.Sum(s => running[s.Tid].Sum(r => Math.Max(0, Math.Min(r.End, s.Stop) - Math.Max(r.Start, s.Start))));
            Assert.AreEqual(client.ServiceCpuMs, cpuNs / 1e6, 1e-9, client.Process);
            Assert.AreEqual(client.ServiceCpuMs / client.Renders, client.CpuPerMessageMs, 1e-12);
            var ops = registry.Count(e => e.Opcode is not (RegistryEvents.KcbCreateType or RegistryEvents.KcbDeleteType or RegistryEvents.KcbRundownBeginType or RegistryEvents.KcbRundownEndType)
                                          && served.Any(s => s.Tid == e.ThreadId && e.TimeNs > s.Start && e.TimeNs < s.Stop));
            Assert.AreEqual(client.RegistryOps, ops, client.Process);
            Assert.AreEqual(13.0, client.RegistryOpsPerMessage, "13 registry operations per message");
            var mineReads = reads.Where(r => served.Any(s => s.Tid == r.Tid && r.TimeNs > s.Start && r.TimeNs < s.Stop)).ToList();
            Assert.AreEqual(client.EvtxReadBytes, mineReads.Sum(r => (long)r.Size));
            Assert.IsTrue(mineReads.All(r => r.File.EndsWith(@"\" + client.Log + ".evtx", StringComparison.Ordinal)), client.Log);
            Assert.AreEqual(client.FirstNs, mine.Min(c => c.Start));
            Assert.AreEqual(client.LastNs, mine.Max(c => c.Stop));
            Assert.IsTrue(client.CpuPerMessageMs is > 0.4 and < 0.7, $"about 0.5 ms per message: {client.CpuPerMessageMs}");
        }
        var wmi = truth.Clients.Single(c => c.OnBehalfOf is not null);
        Assert.AreEqual(("WmiPrvSE.exe", "InventoryAgent.exe", "Application"), (wmi.Process, wmi.OnBehalfOf, wmi.Log));
        Assert.AreEqual(("mmc.exe", "System"), (truth.Clients.Single(c => c.OnBehalfOf is null).Process, truth.Clients.Single(c => c.OnBehalfOf is null).Log));
    }

    [TestMethod]
    public void Two_clients_are_served_concurrently_on_different_service_threads()
    {
        var (_, f) = Render.Value;
        var servers = Calls(f).Where(c => c.Server).ToList();
        var threads = servers.GroupBy(s => s.Tid).ToList();
        Assert.AreEqual(2, threads.Count);
        var a = threads[0].ToList();
        var b = threads[1].ToList();
        Assert.IsTrue(a.Any(x => b.Any(y => x.Start < y.Stop && y.Start < x.Stop)), "calls overlap in time");
    }

    [TestMethod]
    public void Wmi_activity_names_the_client_behind_the_provider_host()
    {
        var (scenario, f) = Render.Value;
        var starts = f.Events.Where(e => e.Kind == RecordHeaderKind.EventHeader && e.ProviderId == Providers.WmiActivity && e.EventId == WmiActivityEvents.OperationStartId)
            .Select(e =>
            {
                var c = e.Cursor();
                c.WString(); c.U32(); c.U32();
                var operation = c.WString();
                c.WString(); c.WString(); c.WString();
                return (Operation: operation, Client: (int)c.U32(), LoggedBy: e.ProcessId);
            }).ToList();
        var wmi = scenario.Truth.Clients.Single(c => c.OnBehalfOf is not null);
        var query = starts.Single(s => s.Operation.Contains("Win32_NTLogEvent", StringComparison.Ordinal));
        Assert.AreEqual(wmi.OnBehalfOfPid, query.Client);
        Assert.IsTrue(query.Operation.EndsWith(wmi.WmiQuery!, StringComparison.Ordinal));
        StringAssert.Contains(f.Processes[query.LoggedBy].CommandLine, "-s Winmgmt");
        Assert.AreEqual(scenario.Truth.NonEventLogWmiClientPid, starts.Single(s => !s.Operation.Contains("Win32_NTLogEvent", StringComparison.Ordinal)).Client);
    }

    [TestMethod]
    public void Registry_work_of_another_svchost_happens_outside_every_eventlog_call()
    {
        var (scenario, f) = Render.Value;
        var other = f.Events.Where(e => e.Group == KernelGroup.Registry && e.ProcessId == scenario.Truth.OtherServicePid).ToList();
        Assert.AreEqual(scenario.Truth.OtherServiceRegistryOps, other.Count);
        Assert.IsTrue(other.Count > 20);
        StringAssert.Contains(f.Processes[scenario.Truth.OtherServicePid].Name, "svchost.exe");
        var servers = Calls(f).Where(c => c.Server).ToList();
        Assert.IsFalse(other.Any(e => servers.Any(s => s.Tid == e.ThreadId)));
    }
}
