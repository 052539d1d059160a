using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>
/// Says in plain words what the table could not see and why, naming the profile that records it; a table
/// without rows always says which of its events were missing.
/// </summary>
internal sealed class EventLogNotes(Table table)
{
    private static readonly string Record = $"record with `wpr -start {EventLogTables.Profile}`";

    public void Add(EventLogFacts f)
    {
        var services = string.Join(", ", f.Services.Select(s => s.ToString()));
        if (f.Services.Count == 0 && f.Even6Events == 0)
            table.AddNote(TableNote.Info("event-log.no-service-and-calls", $"No EventLog service process (svchost.exe with `-s EventLog` or that loaded wevtsvc.dll) and no MS-EVEN6 RPC calls in the trace: {Record} (process rundown, Microsoft-Windows-RPC, WMI-Activity, registry, file I/O and context switches)."));
        else if (f.Services.Count == 0)
            table.AddNote(TableNote.Info("event-log.no-service", $"MS-EVEN6 RPC calls are in the trace but no EventLog service process is (no process or image rundown naming svchost.exe -s EventLog or wevtsvc.dll), so no service cost can be charged: {Record}."));
        else if (f.RpcCallEvents == 0)
            table.AddNote(TableNote.Info("event-log.no-rpc-calls", $"The EventLog service ({services}) is in the trace but no Microsoft-Windows-RPC call events are, so nobody's reads can be seen: {Record}."));
        else if (f.Even6Events == 0)
            table.AddNote(TableNote.Info("event-log.no-even6-calls", $"The EventLog service ({services}) and RPC call events are in the trace, but no MS-EVEN6 call: nobody read an event log through the service's query and render calls while it was recorded."));
        if (f.LegacyEvenCalls > 0)
        {
            var readers = f.LegacyEvenClients.Count == 0 ? "" : $" by {string.Join(", ", f.LegacyEvenClients.Select(p => p.ToString()))}";
            table.AddNote(TableNote.Info("event-log.legacy-even-calls", $"{f.LegacyEvenCalls:N0} calls on the legacy MS-EVEN interface{readers}: ReadEventLog readers (Get-EventLog, .NET's EventLog) get raw records " +
                          "and format messages in their own process, not in the service, so they are not in this table."));
        }

        if (f.Even6Events > 0 && f.ContextSwitches == 0)
            table.AddNote(TableNote.Info("event-log.no-context-switches", $"No context-switch events: Service CPU and CPU per Message are empty; {Record}."));
        if (f.Even6Events > 0 && f.RegistryEvents == 0)
            table.AddNote(TableNote.Info("event-log.no-registry-events", $"No Registry events: Registry Ops are empty; {Record}."));
        if (f.Even6Events > 0 && f.FileReads == 0)
            table.AddNote(TableNote.Info("event-log.no-file-reads", $"No FileIo read events: Evtx Read is empty and logs cannot be named; {Record}."));
        if (f.WmiHostCallsWithoutQuery > 0)
            table.AddNote(TableNote.Info("event-log.wmi-host-calls-without-query", f.WmiEvents == 0
                ? $"{f.WmiHostCallsWithoutQuery:N0} calls came from a WMI provider host but the trace has no WMI-Activity events, so On Behalf Of is empty; {Record}."
                : $"{f.WmiHostCallsWithoutQuery:N0} calls came from a WMI provider host with no Win32_NTLogEvent query (WMI-Activity event 11) before them; On Behalf Of is empty for them."));
        if (f.WmiAmbiguousCalls > 0)
            table.AddNote(TableNote.Info("event-log.wmi-ambiguous-calls", $"{f.WmiAmbiguousCalls:N0} calls came from a WMI provider host while more than one Win32_NTLogEvent query it may have been serving was running: " +
                          "each is credited to the latest of them, so On Behalf Of and WMI Query may name another of those clients."));
        if (f.WmiAfterEndCalls > 0)
            table.AddNote(TableNote.Info("event-log.wmi-after-end-calls", $"{f.WmiAfterEndCalls:N0} calls came from a WMI provider host after every Win32_NTLogEvent query it may have been serving had ended " +
                          "(WMI-Activity event 13): each is credited to the latest of them, though it may serve a query the trace does not show (one begun before " +
                          "the trace, a subscription, or another client's)."));

        if (f.ForeignServerCalls > 0)
            table.AddNote(TableNote.Info("event-log.foreign-server-calls", $"{f.ForeignServerCalls:N0} MS-EVEN6 server calls were logged by processes not identified as the EventLog service and are not counted."));
        if (f.ClientOnlyCalls > 0)
            table.AddNote(TableNote.Info("event-log.client-only-calls", $"{f.ClientOnlyCalls:N0} client calls had no matching call in the EventLog service (rows without service figures): the service's RPC events are missing or the call went to another computer."));
        if (f.ServerOnlyCalls > 0)
            table.AddNote(TableNote.Info("event-log.server-only-calls", $"{f.ServerOnlyCalls:N0} service calls matched no client call and are shown with Process Unknown."));
        if (f.RendersWithGuessedLog > 0)
            table.AddNote(TableNote.Info("event-log.guessed-log", $"{f.RendersWithGuessedLog:N0} renders take their Log from a query whose service call could have been another reader's " +
                          "(both waited on the same call at once, and the service's events do not say which it served): their Log may be the other reader's."));
        if (f.RendersWithCarriedLog > 0)
            table.AddNote(TableNote.Info("event-log.carried-log", $"{f.RendersWithCarriedLog:N0} renders belong to queries whose service calls read no .evtx file in the trace (the service had the log in " +
                          "memory): their Log is the one their reader's query before read, which a new query need not share."));
        if (f.EarlyServiceCalls > 0)
            table.AddNote(TableNote.Info("event-log.early-service-calls", $"{f.EarlyServiceCalls:N0} service calls began on a processor before its first context switch in the trace (the kernel session's events begin later " +
                          "than the RPC events: in memory mode its buffers wrap sooner): their renders and queries are counted, but not their Service CPU, Registry Ops or " +
                          "Evtx Read, nor the per-message figures."));
        if (f.UnfinishedCalls > 0)
            table.AddNote(TableNote.Info("event-log.unfinished-calls", $"{f.UnfinishedCalls:N0} calls had not finished when the trace ended; their cost counts up to the end of the trace."));
        if (f.UnnamedReadBytes > 0)
            table.AddNote(TableNote.Info("event-log.unnamed-reads", $"{f.UnnamedReadBytes / EventLogTables.BytesPerMegabyte:0.###} MB read by the service inside calls from files the trace never named (no FileIo name or rundown events) are not in Evtx Read."));
        if (f.DroppedClientCalls > 0)
            table.AddNote(TableNote.Warning("event-log.dropped-client-calls", $"{f.DroppedClientCalls:N0} client calls never returned (lost RPC stop events) and were dropped."));
        if (f.DroppedServerCalls > 0)
            table.AddNote(TableNote.Warning("event-log.dropped-server-calls", $"{f.DroppedServerCalls:N0} service calls never stopped and found no client (lost RPC stop events) and were dropped."));
        if (f.LateServerStops > 0)
            table.AddNote(TableNote.Warning("event-log.late-server-stops", $"{f.LateServerStops:N0} service calls logged no stop within 0.1 ms after their client returned, and no other reader waited for such a " +
                          "call: each is counted as that client's. Its stop came late (the service thread preempted on a busy machine) or was lost; then its cost ends " +
                          "soon after the client returned."));
    }
}
