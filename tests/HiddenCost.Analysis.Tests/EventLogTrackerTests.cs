using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.EventLog;
using static HiddenCost.Analysis.Tests.EventLogScript;

namespace HiddenCost.Analysis.Tests;

/// <summary>The Event Log Render Cost analysis fed decoded facts directly (no ETW bytes), one behaviour per test.</summary>
[TestClass]
public sealed class EventLogTrackerTests
{
    private const int Reader = 3000, ReaderThread = 3001, ReaderThread2 = 3002, Agent = 4000, AgentThread = 4001;
    private const int WmiHost = 5000, WmiHostThread = 5001, Manager = 6000;
    private const long RenderCpu = 500_000, QueryCpu = 200_000, Chunk = 64 * 1024;


    private static int Row(Table<RenderCostRow> t, string process, string log) =>
        Enumerable.Range(0, t.RowCount).Single(r => t.Rows[r].Process == process && t.Rows[r].Log == log);

    private static long RendersOnBehalfOf(Table<RenderCostRow> t, string client) =>
        Enumerable.Range(0, t.RowCount).Where(r => t.Rows[r].OnBehalfOf == client).Sum(r => (long)t.Rows[r].Renders!);

    private static EventLogScript ReaderScript() => new EventLogScript().WithProcesses((Reader, "reader.exe"), (Agent, "agent.exe"),
        (WmiHost, "WmiPrvSE.exe"), (Manager, "mgmtagent.exe"));

    [TestMethod]
    public void Renders_are_charged_service_cpu_registry_operations_and_evtx_reads_of_their_log()
    {
        var s = ReaderScript();
        long first = s.Now;
        for (int q = 0; q < 2; q++)
        {
            s.Call(Reader, ReaderThread, Even6.QueryNext, QueryCpu, file: ApplicationKey, readBytes: Chunk);
            for (int i = 0; i < 5; i++) s.Call(Reader, ReaderThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        }
        long last = s.Now - 50_000;
        s.Rundown();
        var table = s.Tracker.Build(s.Now);

        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual("reader.exe", table.Rows[0].Process);
        Assert.AreEqual((long)Reader, table.Rows[0].Pid);
        Assert.IsNull(table.Rows[0].OnBehalfOf);
        Assert.IsNull(table.Rows[0].OnBehalfOfPid);
        Assert.AreEqual("Application", table.Rows[0].Log);
        Assert.AreEqual(10L, table.Rows[0].Renders);
        Assert.AreEqual(2L, table.Rows[0].Queries);
        Assert.AreEqual(5.4, (double)table.Rows[0].ServiceCpuMs!, 1e-9, "2 × 0.2 ms queries + 10 × 0.5 ms renders");
        Assert.AreEqual(0.54, (double)table.Rows[0].CpuPerMessageMs!, 1e-9);
        Assert.AreEqual(130L, table.Rows[0].RegistryOps, "KCB create/delete and the other svchost's registry work are not counted");
        Assert.AreEqual(13.0, table.Rows[0].RegistryOpsPerMessage);
        Assert.AreEqual(0.125, table.Rows[0].EvtxReadMb);
        Assert.AreEqual(first, table.Rows[0].First);
        Assert.AreEqual(last, table.Rows[0].Last);
        Assert.AreEqual(10 / ((last - first) / 1e9), (double)table.Rows[0].MessagesPerSecond!, 1e-6);
        Assert.IsNull(table.Rows[0].WmiQuery);
        Assert.AreEqual(0, table.Notes.Texts().Count, string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Service_calls_before_the_first_context_switch_on_their_processor_count_but_add_no_cost()
    {
        // A memory-mode trace: the RPC session's buffers reach back further than the kernel session's, so the first
        // renders were served on a processor (5) whose context switches, registry and file events are not in the trace.
        var s = ReaderScript();
        var t = s.Tracker;
        for (int i = 0; i < 3; i++)
        {
            long start = s.Now;
            t.RpcCallStart(start, 1, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
            t.RpcCallStart(start + 10_000, 5, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
            t.RpcCallStop(start + 2_000_000, 5, ServicePid, ServiceThread, RpcSide.Server);
            t.RpcCallStop(start + 2_010_000, 1, Reader, ReaderThread, RpcSide.Client);
            s.Now = start + 3_000_000;
        }
        for (int i = 0; i < 2; i++) s.Call(Reader, ReaderThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        var table = t.Build(s.Now);
        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual(5L, table.Rows[0].Renders, "every render counts");
        Assert.AreEqual(1.0, (double)table.Rows[0].ServiceCpuMs!, 1e-9, "only the two renders the kernel events cover");
        Assert.AreEqual(0.5, (double)table.Rows[0].CpuPerMessageMs!, 1e-9);
        Assert.AreEqual(26L, table.Rows[0].RegistryOps);
        Assert.AreEqual(13.0, table.Rows[0].RegistryOpsPerMessage);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("3 service calls began on a processor before its first context switch")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Reads_through_the_legacy_interface_are_named_in_a_note_and_not_taken_for_renders()
    {
        var s = ReaderScript();
        var t = s.Tracker;
        t.ContextSwitch(900_000, 0, ServiceThread, 0);
        for (int i = 0; i < 2; i++)
        {
            long start = 1_000_000 + i * 1_000_000;
            t.RpcCallStart(start, 1, Reader, ReaderThread, RpcSide.Client, Even6.LegacyInterfaceId, 10, 3);
            t.RpcCallStart(start + 10_000, 0, ServicePid, ServiceThread, RpcSide.Server, Even6.LegacyInterfaceId, 10, 3);
            t.RpcCallStop(start + 500_000, 0, ServicePid, ServiceThread, RpcSide.Server);
            t.RpcCallStop(start + 510_000, 1, Reader, ReaderThread, RpcSide.Client);
        }
        var table = t.Build(5_000_000);
        Assert.AreEqual(0, table.Rows.Count);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.Contains("no MS-EVEN6 call: nobody read an event log through the service's query and render calls")), string.Join(" | ", table.Notes.Texts()));
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("2 calls on the legacy MS-EVEN interface by reader.exe (3000)")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void A_service_call_that_logs_its_stop_just_after_its_client_returned_is_still_that_clients()
    {
        // The service replies, the woken client logs its stop on another processor, and the service logs its own
        // stop half a microsecond later: one render, reader.exe's, not a client-only and a service-only call.
        var s = ReaderScript();
        var t = s.Tracker;
        for (int i = 0; i < 10; i++)
        {
            long start = 1_000_000 + i * 1_000_000;
            t.RpcCallStart(start, 1, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
            t.ContextSwitch(start + 5_000, 0, ServiceThread, 0);
            t.RpcCallStart(start + 10_000, 0, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
            t.RpcCallStop(start + 510_000, 1, Reader, ReaderThread, RpcSide.Client);
            t.RpcCallStop(start + 510_500, 0, ServicePid, ServiceThread, RpcSide.Server);
            t.ContextSwitch(start + 511_000, 0, 0, ServiceThread);
        }
        var table = t.Build(20_000_000);
        Assert.AreEqual(1, table.Rows.Count, string.Join(" | ", table.Rows.Select(r => string.Join(",", r))));
        Assert.AreEqual("reader.exe", table.Rows[0].Process);
        Assert.AreEqual(10L, table.Rows[0].Renders);
        Assert.AreEqual(0.5005, (double)table.Rows[0].CpuPerMessageMs!, 1e-9);
        Assert.AreEqual(0, table.Notes.Texts().Count(n => n.Contains("matched no client") || n.Contains("no matching call")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void A_service_call_that_stops_late_is_its_clients_when_no_other_reader_waited_for_one()
    {
        // The service thread logs its stop 0.1 ms after reader.exe is back (preempted on a busy machine): no other
        // reader was waiting for a render, so the call is reader.exe's, counted once, with a note.
        var s = ReaderScript();
        var t = s.Tracker;
        t.RpcCallStart(1_000_000, 1, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.ContextSwitch(1_005_000, 0, ServiceThread, 0);
        t.RpcCallStart(1_010_000, 0, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        for (int i = 0; i < 13; i++) t.Registry(1_020_000 + i, ServiceThread, RegistryOperations.QueryValue);
        t.RpcCallStop(1_500_000, 1, Reader, ReaderThread, RpcSide.Client);
        t.RpcCallStop(1_500_000 + Even6CallMatcher.StopSkewNs + 1, 0, ServicePid, ServiceThread, RpcSide.Server);
        var table = t.Build(5_000_000);
        Assert.AreEqual(1, table.Rows.Count, string.Join(" | ", table.Notes.Texts()));
        Assert.AreEqual((1L, 13L), ((long)table.Rows[0].Renders!, (long)table.Rows[0].RegistryOps!));
        Assert.AreEqual("reader.exe", table.Rows[0].Process);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("1 service calls logged no stop within 0.1 ms after their client returned")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void A_service_call_whose_stop_was_lost_is_its_clients_and_stops_taking_its_threads_work()
    {
        // The service call's stop is lost; 50 ms later its thread does 20 ms of other work with 1,000 registry writes.
        var s = ReaderScript();
        var t = s.Tracker;
        t.RpcCallStart(1_000_000, 1, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.ContextSwitch(1_010_000, 0, ServiceThread, 0);
        t.RpcCallStart(1_020_000, 0, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStop(1_520_000, 1, Reader, ReaderThread, RpcSide.Client);
        t.ContextSwitch(1_530_000, 0, 0, ServiceThread);
        t.RpcCallStart(2_000_000, 1, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.QueryNext, 3); // any later call
        t.RpcCallStop(2_100_000, 1, Reader, ReaderThread, RpcSide.Client);
        t.ContextSwitch(51_530_000, 0, ServiceThread, 0);
        for (int i = 0; i < 1_000; i++) t.Registry(51_530_001 + i, ServiceThread, RegistryOperations.SetValue);
        t.ContextSwitch(71_530_000, 0, 0, ServiceThread);
        var table = t.Build(100_000_000);
        int reader = Row(table, "reader.exe", "Unknown");
        Assert.AreEqual(1L, table.Rows[reader].Renders);
        Assert.AreEqual(0.51, (double)table.Rows[reader].ServiceCpuMs!, 1e-9, "from the call's start to the thread's switch-out");
        Assert.AreEqual(0L, table.Rows[reader].RegistryOps);
        Assert.IsFalse(table.Rows.Any(r => r.Process == "Unknown"), "no service-only row");
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("had not finished when the trace ended")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void A_service_call_counted_without_its_stop_is_charged_its_running_slice_up_to_just_after_its_client_returned()
    {
        // The service thread runs from 1.01 ms and is still running when its stop is lost: the call costs until 0.1 ms
        // after reader.exe is back (1.6 ms), not until the event that settled it (2 ms) nor nothing.
        var s = ReaderScript();
        var t = s.Tracker;
        t.RpcCallStart(1_000_000, 1, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.ContextSwitch(1_010_000, 0, ServiceThread, 0);
        t.RpcCallStart(1_010_000, 0, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStop(1_500_000, 1, Reader, ReaderThread, RpcSide.Client);
        t.RpcCallStart(2_000_000, 1, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.QueryNext, 3);
        t.RpcCallStop(2_100_000, 1, Reader, ReaderThread, RpcSide.Client);
        var table = t.Build(5_000_000);
        Assert.AreEqual(0.59, (double)table.Rows[Row(table, "reader.exe", "Unknown")].ServiceCpuMs!, 1e-9);
    }

    [TestMethod]
    public void A_service_call_that_outlives_its_client_goes_to_another_reader_waiting_for_one()
    {
        // agent.exe waits for a render too: the call still running after reader.exe is back is taken to be agent.exe's.
        var s = ReaderScript();
        var t = s.Tracker;
        t.RpcCallStart(1_000_000, 1, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStart(1_005_000, 2, Agent, AgentThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStart(1_010_000, 0, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStop(1_500_000, 1, Reader, ReaderThread, RpcSide.Client);
        t.RpcCallStop(1_500_000 + Even6CallMatcher.StopSkewNs + 1, 0, ServicePid, ServiceThread, RpcSide.Server);
        t.RpcCallStop(1_700_000, 2, Agent, AgentThread, RpcSide.Client);
        var table = t.Build(5_000_000);
        Assert.AreEqual(1L, table.Rows[Row(table, "reader.exe", "Unknown")].Renders);
        Assert.AreEqual(1L, table.Rows[Row(table, "agent.exe", "Unknown")].Renders);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("1 client calls had no matching call")), string.Join(" | ", table.Notes.Texts()));
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("logged no stop within 0.1 ms")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Renders_whose_log_comes_from_a_guessed_query_pairing_are_counted_in_a_note()
    {
        // reader.exe (Application) and agent.exe (System) wait on QueryNext at once; both service calls end before
        // either client wakes, so nothing shows which served which. Their renders' Log rests on that guess.
        var s = ReaderScript();
        var t = s.Tracker;
        t.RpcCallStart(1_000_000, 1, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.QueryNext, 3);
        t.RpcCallStart(1_001_000, 2, Agent, AgentThread, RpcSide.Client, Even6.InterfaceId, Even6.QueryNext, 3);
        t.ContextSwitch(1_002_000, 0, ServiceThread, 0);
        t.RpcCallStart(1_002_000, 0, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.QueryNext, 3);
        t.FileRead(1_003_000, ServiceThread, SystemKey + 8, SystemKey, Chunk);
        t.ContextSwitch(1_002_500, 3, ServiceThread2, 0);
        t.RpcCallStart(1_002_500, 3, ServicePid, ServiceThread2, RpcSide.Server, Even6.InterfaceId, Even6.QueryNext, 3);
        t.FileRead(1_003_500, ServiceThread2, ApplicationKey + 8, ApplicationKey, Chunk);
        t.RpcCallStop(1_100_000, 0, ServicePid, ServiceThread, RpcSide.Server);
        t.RpcCallStop(1_100_500, 3, ServicePid, ServiceThread2, RpcSide.Server);
        t.RpcCallStop(1_200_000, 1, Reader, ReaderThread, RpcSide.Client);
        t.RpcCallStop(1_200_500, 2, Agent, AgentThread, RpcSide.Client);
        s.Now = 2_000_000;
        for (int i = 0; i < 3; i++) s.Call(Reader, ReaderThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        for (int i = 0; i < 2; i++) s.Call(Agent, AgentThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Rundown();
        var table = t.Build(s.Now);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("5 renders take their Log from a query whose service call could have been another reader's")),
            string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Renders_after_an_unambiguous_query_carry_no_guess_note()
    {
        var s = ReaderScript();
        s.Call(Reader, ReaderThread, Even6.QueryNext, QueryCpu, file: ApplicationKey, readBytes: Chunk);
        s.Call(Agent, AgentThread, Even6.QueryNext, QueryCpu, file: SystemKey, readBytes: Chunk);
        for (int i = 0; i < 3; i++) s.Call(Reader, ReaderThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Rundown();
        var table = s.Tracker.Build(s.Now);
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("could have been another reader's")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void A_new_query_that_reads_no_log_keeps_the_last_log_and_says_so()
    {
        // reader.exe queries Application (the service reads it), renders 3, then registers a new query that the
        // service answers from memory (no .evtx read): its 7 renders keep Application, and a note says it is carried.
        var s = ReaderScript();
        s.Call(Reader, ReaderThread, Even6.RegisterLogQuery, QueryCpu, file: ApplicationKey, readBytes: Chunk);
        for (int i = 0; i < 3; i++) s.Call(Reader, ReaderThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Call(Reader, ReaderThread, Even6.RegisterLogQuery, QueryCpu);
        s.Call(Reader, ReaderThread, Even6.QueryNext, QueryCpu);
        for (int i = 0; i < 7; i++) s.Call(Reader, ReaderThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Rundown();
        var table = s.Tracker.Build(s.Now);
        Assert.AreEqual(10L, table.Rows.Where(r => r.Log == "Application").Sum(r => (long)r.Renders!));
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("7 renders belong to queries whose service calls read no .evtx file in the trace")),
            string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void A_new_query_that_reads_its_log_names_it_without_a_carried_note()
    {
        var s = ReaderScript();
        s.Call(Reader, ReaderThread, Even6.RegisterLogQuery, QueryCpu, file: ApplicationKey, readBytes: Chunk);
        s.Call(Reader, ReaderThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Call(Reader, ReaderThread, Even6.RegisterLogQuery, QueryCpu);
        s.Call(Reader, ReaderThread, Even6.QueryNext, QueryCpu, file: SystemKey, readBytes: Chunk);
        for (int i = 0; i < 2; i++) s.Call(Reader, ReaderThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Rundown();
        var table = s.Tracker.Build(s.Now);
        long Renders(string log) => table.Rows.Where(r => r.Log == log).Sum(r => (long)r.Renders!);
        Assert.AreEqual((1L, 2L), (Renders("Application"), Renders("System")));
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("read no .evtx file")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Service_cpu_counts_only_on_cpu_time_inside_the_server_call()
    {
        var s = ReaderScript();
        var t = s.Tracker;
        t.ContextSwitch(900_000, 2, ServiceThread, 0);                       // running before the call: not counted
        t.RpcCallStart(1_000_000, 3, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStart(1_010_000, 2, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        t.ContextSwitch(1_110_000, 2, 0, ServiceThread);                     // 100 µs on CPU 2
        t.ContextSwitch(1_500_000, 0, ServiceThread, 0);                     // waits 390 µs, resumes on CPU 0
        t.RpcCallStop(1_550_000, 0, ServicePid, ServiceThread, RpcSide.Server); // 50 µs more
        t.ContextSwitch(1_700_000, 0, 0, ServiceThread);                     // after the call: not counted
        t.RpcCallStop(1_560_000, 3, Reader, ReaderThread, RpcSide.Client);
        var table = t.Build(2_000_000);
        Assert.AreEqual(0.15, (double)table.Rows[0].ServiceCpuMs!, 1e-12);
    }

    [TestMethod]
    public void Two_clients_calling_concurrently_on_different_service_threads_get_their_own_costs()
    {
        var s = ReaderScript();
        var t = s.Tracker;
        // reader's render (0.3 ms) and agent's render (0.7 ms) overlap; the service takes the agent's request first,
        // so arrival order alone pairs them wrongly and nesting must put it right.
        t.RpcCallStart(1_000_000, 2, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStart(1_001_000, 3, Agent, AgentThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.ContextSwitch(1_002_000, 0, ServiceThread2, 0);
        t.RpcCallStart(1_002_000, 0, ServicePid, ServiceThread2, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3); // serves the agent
        t.ContextSwitch(1_003_000, 1, ServiceThread, 0);
        t.RpcCallStart(1_003_000, 1, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);  // serves the reader
        for (int i = 0; i < 13; i++) t.Registry(1_004_000 + i, ServiceThread, RegistryOperations.QueryValue);
        for (int i = 0; i < 26; i++) t.Registry(1_004_000 + i, ServiceThread2, RegistryOperations.QueryValue);
        t.RpcCallStop(1_303_000, 1, ServicePid, ServiceThread, RpcSide.Server);
        t.ContextSwitch(1_303_000, 1, 0, ServiceThread);
        t.RpcCallStop(1_310_000, 2, Reader, ReaderThread, RpcSide.Client);
        t.RpcCallStop(1_702_000, 0, ServicePid, ServiceThread2, RpcSide.Server);
        t.ContextSwitch(1_702_000, 0, 0, ServiceThread2);
        t.RpcCallStop(1_710_000, 3, Agent, AgentThread, RpcSide.Client);
        var table = t.Build(2_000_000);

        Assert.AreEqual(2, table.Rows.Count);
        int reader = Row(table, "reader.exe", "Unknown"), agent = Row(table, "agent.exe", "Unknown");
        Assert.AreEqual(0.3, (double)table.Rows[reader].ServiceCpuMs!, 1e-12);
        Assert.AreEqual(13L, table.Rows[reader].RegistryOps);
        Assert.AreEqual(0.7, (double)table.Rows[agent].ServiceCpuMs!, 1e-12);
        Assert.AreEqual(26L, table.Rows[agent].RegistryOps);
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("match")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Concurrent_clients_served_in_arrival_order_are_paired_in_that_order()
    {
        var s = ReaderScript();
        var t = s.Tracker;
        t.RpcCallStart(1_000_000, 2, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.QueryNext, 3);
        t.RpcCallStart(1_001_000, 3, Agent, AgentThread, RpcSide.Client, Even6.InterfaceId, Even6.QueryNext, 3);
        t.RpcCallStart(1_002_000, 0, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.QueryNext, 3);
        t.RpcCallStart(1_003_000, 1, ServicePid, ServiceThread2, RpcSide.Server, Even6.InterfaceId, Even6.QueryNext, 3);
        t.FileRead(1_004_000, ServiceThread, 0, ApplicationKey, 4096);
        t.FileRead(1_004_000, ServiceThread2, 0, SystemKey, 8192);
        t.RpcCallStop(1_800_000, 1, ServicePid, ServiceThread2, RpcSide.Server);
        t.RpcCallStop(1_900_000, 0, ServicePid, ServiceThread, RpcSide.Server);
        t.RpcCallStop(1_950_000, 2, Reader, ReaderThread, RpcSide.Client);
        t.RpcCallStop(1_960_000, 3, Agent, AgentThread, RpcSide.Client);
        s.Rundown();
        var table = t.Build(2_000_000);
        Assert.AreEqual(4096 / EventLogTables.BytesPerMegabyte, table.Rows[Row(table, "reader.exe", "Application")].EvtxReadMb);
        Assert.AreEqual(8192 / EventLogTables.BytesPerMegabyte, table.Rows[Row(table, "agent.exe", "System")].EvtxReadMb);
    }

    [TestMethod]
    public void A_render_still_running_when_the_trace_ends_is_counted_up_to_the_end()
    {
        var s = ReaderScript();
        s.Call(Reader, ReaderThread, Even6.QueryNext, QueryCpu, file: ApplicationKey, readBytes: Chunk);
        var t = s.Tracker;
        long start = s.Now;
        t.RpcCallStart(start, 1, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.ContextSwitch(start + 10_000, 0, ServiceThread, 0);
        t.RpcCallStart(start + 10_000, 0, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        for (int i = 0; i < 5; i++) t.Registry(start + 20_000 + i, ServiceThread, RegistryOperations.QueryValue);
        long end = start + 410_000;
        s.Rundown();
        var table = t.Build(end);

        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual(1L, table.Rows[0].Renders);
        Assert.AreEqual(1L, table.Rows[0].Queries);
        Assert.AreEqual("Application", table.Rows[0].Log);
        Assert.AreEqual(0.2 + 0.4, (double)table.Rows[0].ServiceCpuMs!, 1e-12);
        Assert.AreEqual(5L, table.Rows[0].RegistryOps);
        Assert.AreEqual(end, table.Rows[0].Last);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("1 calls had not finished when the trace ended")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void A_client_call_with_no_server_side_gets_a_visible_row_without_service_figures()
    {
        var s = ReaderScript();
        var t = s.Tracker;
        t.ContextSwitch(10, 0, 77, 0);
        t.Registry(20, 77, RegistryOperations.Open);
        t.FileRead(30, 77, 0, 0x99, 10);
        t.RpcCallStart(1_000_000, 1, Agent, AgentThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 1);
        t.RpcCallStop(1_500_000, 1, Agent, AgentThread, RpcSide.Client);
        var table = t.Build(2_000_000);

        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual("agent.exe", table.Rows[0].Process);
        Assert.AreEqual("Unknown", table.Rows[0].Log);
        Assert.AreEqual(1L, table.Rows[0].Renders);
        Assert.IsNull(table.Rows[0].ServiceCpuMs);
        Assert.IsNull(table.Rows[0].CpuPerMessageMs);
        Assert.IsNull(table.Rows[0].RegistryOps);
        Assert.IsNull(table.Rows[0].EvtxReadMb);
        Assert.AreEqual(1_000_000L, table.Rows[0].First);
        Assert.AreEqual(1_500_000L, table.Rows[0].Last);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("1 client calls had no matching call in the EventLog service")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Service_without_rpc_events_gives_an_empty_table_that_names_the_profile()
    {
        var s = new EventLogScript().WithProcesses();
        var t = s.Tracker;
        t.ContextSwitch(10, 0, ServiceThread, 0);
        t.Registry(20, ServiceThread, RegistryOperations.QueryValue);
        var table = t.Build(1_000);

        Assert.AreEqual(0, table.Rows.Count);
        Assert.AreEqual(1, table.Notes.Texts().Count, string.Join(" | ", table.Notes.Texts()));
        StringAssert.StartsWith(table.Notes.Texts()[0], "The EventLog service (svchost.exe (1000)) is in the trace but no Microsoft-Windows-RPC call events are");
        StringAssert.Contains(table.Notes.Texts()[0], "wpr -start MultiProfile.wprp!EventLog");
    }

    [TestMethod]
    public void Trace_without_service_or_rpc_events_names_the_profile()
    {
        var table = new EventLogTracker().Build(1_000);
        Assert.AreEqual(0, table.Rows.Count);
        Assert.AreEqual(1, table.Notes.Texts().Count);
        StringAssert.Contains(table.Notes.Texts()[0], "No EventLog service process");
        StringAssert.Contains(table.Notes.Texts()[0], "MultiProfile.wprp!EventLog");
    }

    [TestMethod]
    public void Wmi_provider_host_calls_name_the_process_whose_query_they_serve()
    {
        var s = ReaderScript();
        const string Operation = @"Start IWbemServices::ExecQuery - root\cimv2 : SELECT * FROM Win32_NTLogEvent WHERE Logfile='Application'";
        s.Tracker.WmiOperationStart(s.Now - 100_000, @"Start IWbemServices::ExecQuery - root\cimv2 : select * from Win32_Process", Agent);
        s.Tracker.WmiOperationStart(s.Now - 50_000, Operation, Manager);
        s.Call(WmiHost, WmiHostThread, Even6.QueryNext, QueryCpu, file: ApplicationKey, readBytes: Chunk);
        for (int i = 0; i < 3; i++) s.Call(WmiHost, WmiHostThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Rundown();
        var table = s.Tracker.Build(s.Now);

        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual("WmiPrvSE.exe", table.Rows[0].Process);
        Assert.AreEqual("mgmtagent.exe", table.Rows[0].OnBehalfOf);
        Assert.AreEqual((long)Manager, table.Rows[0].OnBehalfOfPid);
        Assert.AreEqual("SELECT * FROM Win32_NTLogEvent WHERE Logfile='Application'", table.Rows[0].WmiQuery);
        Assert.AreEqual("Application", table.Rows[0].Log);
        Assert.AreEqual(3L, table.Rows[0].Renders);
        Assert.AreEqual(13.0, table.Rows[0].RegistryOpsPerMessage);
    }

    [TestMethod]
    public void A_query_from_another_computer_is_on_behalf_of_that_computer_not_a_local_process_with_its_id()
    {
        // MGMT01's query carries MGMT01's process id, which here is mgmtagent.exe's: the row names the computer.
        var s = ReaderScript();
        const string Operation = @"Start IWbemServices::ExecQuery - root\cimv2 : SELECT * FROM Win32_NTLogEvent WHERE Logfile='Application'";
        s.Tracker.WmiOperationStart(s.Now - 50_000, Operation, Manager, remoteMachine: "MGMT01");
        s.Call(WmiHost, WmiHostThread, Even6.QueryNext, QueryCpu, file: ApplicationKey, readBytes: Chunk);
        for (int i = 0; i < 3; i++) s.Call(WmiHost, WmiHostThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Rundown();
        var table = s.Tracker.Build(s.Now);
        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual(@"\\MGMT01", table.Rows[0].OnBehalfOf);
        Assert.IsNull(table.Rows[0].OnBehalfOfPid);
        Assert.AreEqual(3L, table.Rows[0].Renders);
    }

    private const string NtLogQuery = @"Start IWbemServices::ExecQuery - root\cimv2 : SELECT * FROM Win32_NTLogEvent WHERE Logfile='Application'";
    private const string NtLogQuery2 = @"Start IWbemServices::ExecQuery - root\cimv2 : SELECT * FROM Win32_NTLogEvent WHERE Logfile='System'";

    [TestMethod]
    public void Wmi_provider_host_calls_go_to_the_query_event_12_says_that_host_serves()
    {
        // agent.exe's query is served by this WmiPrvSE; mgmtagent.exe's, started later, by another provider host.
        var s = ReaderScript();
        s.Tracker.WmiOperationStart(s.Now - 100_000, NtLogQuery, Agent, groupOperationId: 1, operationId: 11);
        s.Tracker.WmiProviderInfo(1, WmiHost);
        s.Tracker.WmiOperationStart(s.Now - 50_000, NtLogQuery2, Manager, groupOperationId: 2, operationId: 12);
        s.Tracker.WmiProviderInfo(2, 7000);
        for (int i = 0; i < 3; i++) s.Call(WmiHost, WmiHostThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        var table = s.Tracker.Build(s.Now);
        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual("agent.exe", table.Rows[0].OnBehalfOf);
        Assert.AreEqual("SELECT * FROM Win32_NTLogEvent WHERE Logfile='Application'", table.Rows[0].WmiQuery);
        Assert.AreEqual(3L, table.Rows[0].Renders);
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("more than one Win32_NTLogEvent query")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Wmi_provider_host_calls_go_to_the_latest_running_query_and_say_when_two_were_running()
    {
        // No event 12 names the hosts. agent.exe queries; mgmtagent.exe's one-shot query runs a while beside it and
        // ends (event 13): the calls after its end are agent.exe's again, and those while both ran are said to be a guess.
        var s = ReaderScript();
        s.Tracker.WmiOperationStart(s.Now - 100_000, NtLogQuery, Agent, operationId: 21);
        for (int i = 0; i < 3; i++) s.Call(WmiHost, WmiHostThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Tracker.WmiOperationStart(s.Now - 10_000, NtLogQuery2, Manager, operationId: 22);
        for (int i = 0; i < 2; i++) s.Call(WmiHost, WmiHostThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Tracker.WmiOperationEnd(s.Now - 10_000, 22);
        for (int i = 0; i < 5; i++) s.Call(WmiHost, WmiHostThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        var table = s.Tracker.Build(s.Now);
        Assert.AreEqual(8L, RendersOnBehalfOf(table, "agent.exe"));
        Assert.AreEqual(2L, RendersOnBehalfOf(table, "mgmtagent.exe"));
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("2 calls came from a WMI provider host while more than one Win32_NTLogEvent query")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Wmi_provider_host_calls_after_every_query_ended_are_credited_to_the_latest_and_said_to_be()
    {
        // agent.exe's query ends (event 13) after one render; a second later the provider host renders five more
        // messages for a client whose query the trace does not show: credited to agent.exe, with a note.
        var s = ReaderScript();
        s.Tracker.WmiOperationStart(s.Now - 100_000, NtLogQuery, Agent, groupOperationId: 7, operationId: 8);
        s.Call(WmiHost, WmiHostThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Tracker.WmiOperationEnd(s.Now, 8);
        s.Now += 1_000_000_000;
        for (int i = 0; i < 5; i++) s.Call(WmiHost, WmiHostThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        var table = s.Tracker.Build(s.Now);
        Assert.AreEqual(6L, RendersOnBehalfOf(table, "agent.exe"));
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("5 calls came from a WMI provider host after every Win32_NTLogEvent query it may have been serving had ended")),
            string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void A_running_query_of_an_unnamed_host_beats_this_hosts_query_that_has_ended()
    {
        // agent.exe's query, served by this WmiPrvSE (event 12), ends (event 13) after two renders; mgmtagent.exe's
        // query then runs with no event 12 naming its host: the next three renders are mgmtagent.exe's.
        var s = ReaderScript();
        s.Tracker.WmiOperationStart(s.Now - 100_000, NtLogQuery, Agent, groupOperationId: 1, operationId: 11);
        s.Tracker.WmiProviderInfo(1, WmiHost);
        for (int g = 2; g < 70_000; g++) s.Tracker.WmiProviderInfo((uint)g, 9000);    // other operations' hosts
        for (int i = 0; i < 2; i++) s.Call(WmiHost, WmiHostThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Tracker.WmiOperationEnd(s.Now, 11);
        s.Tracker.WmiOperationStart(s.Now + 10, NtLogQuery2, Manager, groupOperationId: 900_000, operationId: 12);
        s.Now += 100;
        for (int i = 0; i < 3; i++) s.Call(WmiHost, WmiHostThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        var table = s.Tracker.Build(s.Now);
        Assert.AreEqual(2L, RendersOnBehalfOf(table, "agent.exe"));
        Assert.AreEqual(3L, RendersOnBehalfOf(table, "mgmtagent.exe"));
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("more than one Win32_NTLogEvent query")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Concurrent_readers_answered_out_of_order_with_late_service_stops_are_paired_each_with_its_own()
    {
        // agent.exe and reader.exe render at once; the service takes the agent's request first but answers the
        // reader's first, and each service call logs its stop just after its client is back.
        var s = ReaderScript();
        var t = s.Tracker;
        t.RpcCallStart(1_000_000, 1, Agent, AgentThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStart(1_001_000, 2, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.ContextSwitch(1_009_000, 0, ServiceThread, 0);
        t.RpcCallStart(1_010_000, 0, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        t.ContextSwitch(1_010_500, 3, ServiceThread2, 0);
        t.RpcCallStart(1_011_000, 3, ServicePid, ServiceThread2, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStop(1_500_000, 2, Reader, ReaderThread, RpcSide.Client);
        t.RpcCallStop(1_500_500, 0, ServicePid, ServiceThread, RpcSide.Server);
        t.RpcCallStop(2_000_000, 1, Agent, AgentThread, RpcSide.Client);
        t.RpcCallStop(2_000_500, 3, ServicePid, ServiceThread2, RpcSide.Server);
        var table = t.Build(3_000_000);
        Assert.AreEqual(2, table.Rows.Count, string.Join(" | ", table.Rows.Select(r => string.Join(",", r))));
        Assert.AreEqual(0.4905, (double)table.Rows[Row(table, "reader.exe", "Unknown")].ServiceCpuMs!, 1e-9);
        Assert.AreEqual(0.9895, (double)table.Rows[Row(table, "agent.exe", "Unknown")].ServiceCpuMs!, 1e-9);
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("no matching call") || n.Contains("matched no client")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void A_service_call_that_started_after_a_client_was_back_is_never_traded_to_it()
    {
        // reader.exe is back (1,000 ns) while its service call R still runs; S starts after that (1,010) for agent.exe
        // and stops within the skew: S is agent.exe's, and R, stopping within the skew too, reader.exe's.
        const long T0 = 1_000_000;
        var s = ReaderScript();
        var t = s.Tracker;
        t.RpcCallStart(T0, 1, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.ContextSwitch(T0 + 5, 0, ServiceThread, 0);
        t.RpcCallStart(T0 + 10, 0, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStart(T0 + 500, 2, Agent, AgentThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStop(T0 + 1_000, 1, Reader, ReaderThread, RpcSide.Client);
        t.ContextSwitch(T0 + 1_005, 3, ServiceThread2, 0);
        t.RpcCallStart(T0 + 1_010, 3, ServicePid, ServiceThread2, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStop(T0 + 1_050, 3, ServicePid, ServiceThread2, RpcSide.Server);
        t.RpcCallStop(T0 + 2_000, 2, Agent, AgentThread, RpcSide.Client);
        t.RpcCallStop(T0 + 3_000, 0, ServicePid, ServiceThread, RpcSide.Server);
        var table = t.Build(T0 + 4_000);
        Assert.AreEqual(2, table.Rows.Count, string.Join(" | ", table.Rows.Select(r => string.Join(",", r))));
        Assert.AreEqual(0.00299, (double)table.Rows[Row(table, "reader.exe", "Unknown")].ServiceCpuMs!, 1e-12);
        Assert.AreEqual(0.00004, (double)table.Rows[Row(table, "agent.exe", "Unknown")].ServiceCpuMs!, 1e-12);
    }

    [TestMethod]
    public void A_render_belongs_to_the_log_of_the_same_client_threads_most_recent_query()
    {
        var s = ReaderScript();
        s.Call(Reader, ReaderThread, Even6.QueryNext, QueryCpu, file: ApplicationKey, readBytes: Chunk);
        s.Call(Reader, ReaderThread2, Even6.QueryNext, QueryCpu, file: SystemKey, readBytes: Chunk);
        s.Call(Reader, ReaderThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Call(Reader, ReaderThread2, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Call(Reader, ReaderThread2, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Call(Reader, ReaderThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Call(Reader, ReaderThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Rundown();
        var table = s.Tracker.Build(s.Now);

        Assert.AreEqual(2, table.Rows.Count);
        Assert.AreEqual(3L, table.Rows[Row(table, "reader.exe", "Application")].Renders);
        Assert.AreEqual(2L, table.Rows[Row(table, "reader.exe", "System")].Renders);
    }

    [TestMethod]
    public void A_file_a_render_reads_never_takes_the_log_from_its_query()
    {
        // Rendering may page in a message file (a .mui opened before the trace, named only by the end rundown).
        const ulong MuiKey = 0xFFFF_C001_0000_0D10;
        var s = ReaderScript();
        s.Call(Reader, ReaderThread, Even6.QueryNext, QueryCpu, file: ApplicationKey, readBytes: Chunk);
        s.Call(Reader, ReaderThread, Even6.MessageRender, RenderCpu, registryOps: 13, file: MuiKey, readBytes: 4096);
        s.Call(Reader, ReaderThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Call(Reader, ReaderThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Rundown();
        s.Tracker.FileName(MuiKey, @"\Device\HarddiskVolume3\Windows\System32\en-US\wevtapi.dll.mui");
        var table = s.Tracker.Build(s.Now);

        Assert.AreEqual(1, table.Rows.Count, string.Join(" | ", table.Rows.Select(r => string.Join(", ", r))));
        int row = Row(table, "reader.exe", "Application");
        Assert.AreEqual(3L, table.Rows[row].Renders);
        Assert.AreEqual(1L, table.Rows[row].Queries);
    }

    [TestMethod]
    public void Service_found_by_its_dll_counts_while_another_svchost_serving_the_interface_does_not()
    {
        var t = new EventLogTracker();
        t.ProcessStart(0, 700, "svchost.exe", @"C:\Windows\system32\svchost.exe -k LocalService");
        t.Image(0, 700, @"\Device\HarddiskVolume3\Windows\System32\wevtsvc.dll");
        t.ProcessStart(0, 800, "svchost.exe", @"C:\Windows\system32\svchost.exe -k netsvcs");
        t.ProcessStart(0, Reader, "reader.exe", "reader.exe");
        t.ContextSwitch(0, 0, 701, 0);
        t.ContextSwitch(0, 1, 801, 0);
        t.RpcCallStart(100, 2, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStart(110, 1, 800, 801, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStart(120, 0, 700, 701, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        t.Registry(130, 801, RegistryOperations.QueryValue);
        t.Registry(131, 701, RegistryOperations.QueryValue);
        t.RpcCallStop(1_120, 0, 700, 701, RpcSide.Server);
        t.RpcCallStop(1_130, 1, 800, 801, RpcSide.Server);
        t.RpcCallStop(1_200, 2, Reader, ReaderThread, RpcSide.Client);
        var table = t.Build(2_000);

        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual(1L, table.Rows[0].RegistryOps);
        Assert.AreEqual(0.001, (double)table.Rows[0].ServiceCpuMs!, 1e-12);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("1 MS-EVEN6 server calls were logged by processes not identified")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Without_context_switches_service_cpu_is_empty_and_the_note_says_why()
    {
        var t = new EventLogTracker();
        t.ProcessStart(0, ServicePid, "svchost.exe", ServiceCommandLine);
        t.RpcCallStart(100, 1, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStart(110, 0, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        t.Registry(120, ServiceThread, RegistryOperations.QueryValue);
        t.RpcCallStop(200, 0, ServicePid, ServiceThread, RpcSide.Server);
        t.RpcCallStop(210, 1, Reader, ReaderThread, RpcSide.Client);
        var table = t.Build(1_000);

        Assert.IsNull(table.Rows[0].ServiceCpuMs);
        Assert.AreEqual(1L, table.Rows[0].RegistryOps);
        Assert.IsNull(table.Rows[0].EvtxReadMb);
        Assert.AreEqual("Unknown", table.Rows[0].Process, "no rundown named the client");
        Assert.AreEqual((long)Reader, table.Rows[0].Pid);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("No context-switch events") && n.Contains("MultiProfile.wprp!EventLog")));
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("No FileIo read events")));
    }

    [TestMethod]
    public void A_service_call_no_client_made_is_shown_as_unknown()
    {
        var s = ReaderScript();
        var t = s.Tracker;
        t.ContextSwitch(100, 0, ServiceThread, 0);
        t.RpcCallStart(100, 0, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.QueryNext, 1);
        t.FileRead(150, ServiceThread, 0, SystemKey, 1024 * 1024);
        t.RpcCallStop(600, 0, ServicePid, ServiceThread, RpcSide.Server);
        s.Rundown();
        var table = t.Build(1_000);

        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual("Unknown", table.Rows[0].Process);
        Assert.IsNull(table.Rows[0].Pid);
        Assert.AreEqual("System", table.Rows[0].Log);
        Assert.AreEqual(1L, table.Rows[0].Queries);
        Assert.AreEqual(1.0, table.Rows[0].EvtxReadMb);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("1 service calls matched no client call")));
    }

    [TestMethod]
    public void Calls_on_other_interfaces_nested_on_the_same_thread_do_not_unpair_event_log_calls()
    {
        var s = ReaderScript();
        var t = s.Tracker;
        var other = new Guid("12345778-1234-abcd-ef00-0123456789ab");
        t.ContextSwitch(100, 0, ServiceThread, 0);
        t.RpcCallStart(100, 1, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStart(110, 0, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStart(120, 0, ServicePid, ServiceThread, RpcSide.Client, other, 7, 3); // the service calls out
        t.RpcCallStop(130, 0, ServicePid, ServiceThread, RpcSide.Client);
        t.RpcCallStop(1_110, 0, ServicePid, ServiceThread, RpcSide.Server);
        t.RpcCallStop(1_120, 1, Reader, ReaderThread, RpcSide.Client);
        var table = t.Build(2_000);
        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual(0.001, (double)table.Rows[0].ServiceCpuMs!, 1e-12);
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("match")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Rundown_only_at_the_end_still_names_the_service_and_the_client()
    {
        var t = new EventLogTracker();
        t.ContextSwitch(100, 0, ServiceThread, 0);
        t.RpcCallStart(100, 1, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStart(110, 0, ServicePid, ServiceThread, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        for (int i = 0; i < 13; i++) t.Registry(120 + i, ServiceThread, RegistryOperations.QueryValue);
        t.RpcCallStop(1_110, 0, ServicePid, ServiceThread, RpcSide.Server);
        t.RpcCallStop(1_120, 1, Reader, ReaderThread, RpcSide.Client);
        t.ProcessEnd(5_000, ServicePid, "svchost.exe", ServiceCommandLine); // DCEnd rundown
        t.ProcessEnd(5_000, Reader, "reader.exe", "reader.exe");
        var table = t.Build(5_000);

        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual("reader.exe", table.Rows[0].Process);
        Assert.AreEqual(0.001, (double)table.Rows[0].ServiceCpuMs!, 1e-12);
        Assert.AreEqual(13.0, table.Rows[0].RegistryOpsPerMessage);
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("match") || n.Contains("not identified")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Server_calls_of_a_process_that_never_proves_to_be_the_service_leave_the_client_unserved()
    {
        var t = new EventLogTracker();
        t.ProcessEnd(0, 800, "svchost.exe", @"C:\Windows\system32\svchost.exe -k netsvcs");
        t.ContextSwitch(100, 0, 801, 0);
        t.RpcCallStart(100, 1, Reader, ReaderThread, RpcSide.Client, Even6.InterfaceId, Even6.MessageRender, 3);
        t.RpcCallStart(110, 0, 800, 801, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        t.Registry(120, 801, RegistryOperations.QueryValue);
        t.RpcCallStop(1_110, 0, 800, 801, RpcSide.Server);
        t.RpcCallStop(1_120, 1, Reader, ReaderThread, RpcSide.Client);
        t.RpcCallStart(2_000, 0, 800, 801, RpcSide.Server, Even6.InterfaceId, Even6.QueryNext, 3);
        t.RpcCallStop(2_100, 0, 800, 801, RpcSide.Server);
        var table = t.Build(5_000);

        Assert.AreEqual(1, table.Rows.Count, "the lone server call of a process that is not the service is no row");
        Assert.AreEqual(1L, table.Rows[0].Renders);
        Assert.IsNull(table.Rows[0].ServiceCpuMs);
        Assert.IsNull(table.Rows[0].RegistryOps);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("2 MS-EVEN6 server calls were logged by processes not identified")), string.Join(" | ", table.Notes.Texts()));
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("1 client calls had no matching call")), string.Join(" | ", table.Notes.Texts()));
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("service calls matched no client")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Wmi_host_calls_without_wmi_activity_events_say_on_behalf_of_is_unknown()
    {
        var s = ReaderScript();
        s.Call(WmiHost, WmiHostThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        var table = s.Tracker.Build(s.Now);
        Assert.IsNull(table.Rows[0].OnBehalfOf);
        Assert.IsNull(table.Rows[0].WmiQuery);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("1 calls came from a WMI provider host but the trace has no WMI-Activity events")
            && n.Contains("MultiProfile.wprp!EventLog")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Only_wmi_provider_hosts_are_said_to_work_on_behalf_of_a_wmi_client()
    {
        var s = ReaderScript();
        s.Tracker.WmiOperationStart(s.Now - 10, @"Start IWbemServices::ExecQuery - root\cimv2 : SELECT * FROM Win32_NTLogEvent", Manager);
        s.Call(Reader, ReaderThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        var table = s.Tracker.Build(s.Now);
        Assert.AreEqual("reader.exe", table.Rows[0].Process);
        Assert.IsNull(table.Rows[0].OnBehalfOf);
        Assert.IsNull(table.Rows[0].WmiQuery);
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("WMI")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Service_calls_whose_stop_was_lost_are_dropped_past_a_bound_and_counted_in_a_note()
    {
        var s = ReaderScript();
        const int lost = 10_000;
        for (int i = 0; i < lost; i++) // each on its own service thread, none ever stops, no client waits
            s.Tracker.RpcCallStart(s.Now + i, 0, ServicePid, 100_000 + i, RpcSide.Server, Even6.InterfaceId, Even6.MessageRender, 3);
        s.Now += lost;
        s.Call(Reader, ReaderThread, Even6.MessageRender, RenderCpu, registryOps: 13);
        s.Rundown();
        var table = s.Tracker.Build(s.Now);

        Assert.AreEqual(1L, table.Rows[Row(table, "reader.exe", "Unknown")].Renders, "the complete call still pairs");
        CollectionAssert.Contains(table.Notes.Texts().ToList(),
            $"{lost - Even6CallMatcher.MaxUnmatchedServers:N0} service calls never stopped and found no client (lost RPC stop events) and were dropped.");
    }
}
