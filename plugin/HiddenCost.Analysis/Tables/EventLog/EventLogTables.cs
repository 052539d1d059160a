using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>The Event Log Render Cost table's spec (column names are a public contract, from issue 11).</summary>
public static class EventLogTables
{
    /// <summary>The profile that records everything this table needs.</summary>
    public const string Profile = "MultiProfile.wprp!EventLog";

    public const double BytesPerMegabyte = 1024.0 * 1024.0;

    public static readonly TableDefinition<RenderCostRow> RenderCost = new TableDefinitionBuilder<RenderCostRow>(TableIds.EventLogRenderCost, "Event Log Render Cost",
            "Who reads which event log through the EventLog service (MS-EVEN6 RPC: queries and message renders), and what " +
            "serving them costs the service: CPU, registry operations and .evtx reads, per client process and log.", "HiddenCost/Event Log")
        .Column("Process", ColumnType.Text, r => r.Process, role: ColumnRole.ProcessName, description: "the client process calling the EventLog service; Unknown for service calls no client event matched")
        .Column("PID", ColumnType.Integer, r => r.Pid, role: ColumnRole.ProcessId)
        .Column("On Behalf Of", ColumnType.Text, r => r.OnBehalfOf, description: "for a WMI provider host (WmiPrvSE.exe): the process whose Win32_NTLogEvent query it serves (WMI-Activity ClientProcessId), or \\\\COMPUTER for a query from another computer")
        .Column("On Behalf Of PID", ColumnType.Integer, r => r.OnBehalfOfPid)
        .Column("Log", ColumnType.Text, r => r.Log, description: "the log read: the .evtx file the query calls read; a render belongs to the log of the same client thread's most recent query")
        .Column("Renders", ColumnType.Integer, r => r.Renders, ColumnUnit.Count, description: "EvtRpcMessageRender/RenderDefault calls (opnum 9, 10): one message each")
        .Column("Queries", ColumnType.Integer, r => r.Queries, ColumnUnit.Count, description: "EvtRpcQueryNext calls (opnum 11)")
        .Column("Service CPU (ms)", ColumnType.Decimal, r => r.ServiceCpuMs, ColumnUnit.Milliseconds, ColumnRole.GraphValue,
            "on-CPU time (context switches) of the service threads inside this client's render and query calls (opnums 5, 9–12)")
        .Column("CPU per Message (ms)", ColumnType.Decimal, r => r.CpuPerMessageMs, ColumnUnit.Milliseconds, description: "Service CPU ÷ renders that reached the service", summary: ColumnSummary.Max)
        .Column("Registry Ops", ColumnType.Integer, r => r.RegistryOps, ColumnUnit.Count, description: "registry operations of the serving threads inside the calls (KCB bookkeeping events excluded)")
        .Column("Registry Ops per Message", ColumnType.Decimal, r => r.RegistryOpsPerMessage, ColumnUnit.Ratio, description: "Registry Ops ÷ renders that reached the service", summary: ColumnSummary.Max)
        .Column("Evtx Read (MB)", ColumnType.Decimal, r => r.EvtxReadMb, ColumnUnit.Megabytes, description: "bytes the serving threads read from .evtx files inside the calls, in MB of 1,048,576 bytes")
        .Column("Messages per Second", ColumnType.Decimal, r => r.MessagesPerSecond, ColumnUnit.PerSecond, description: "renders ÷ time from First to Last")
        .Column("WMI Query", ColumnType.Text, r => r.WmiQuery, description: "the Win32_NTLogEvent query text (WMI-Activity event 11) the provider host served")
        .Column("First", ColumnType.Timestamp, r => r.First, ColumnUnit.Nanoseconds, ColumnRole.StartTime, "start of the first call")
        .Column("Last", ColumnType.Timestamp, r => r.Last, ColumnUnit.Nanoseconds, ColumnRole.EndTime, "end of the last call (the trace end for calls still running)")
        .Build(new TableView(new[] { "Log", "Process" }, "Service CPU (ms)", new[] { "Service CPU (ms)" }));
}
