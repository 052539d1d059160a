using HiddenCost.Analysis.Tables.EventLog;

namespace HiddenCost.Analysis.Tests;

/// <summary>How the Event Log analysis recognises the service, logs, WMI queries and registry operations.</summary>
[TestClass]
public sealed class EventLogNamingTests
{
    [TestMethod]
    public void Svchost_started_for_the_eventlog_service_is_recognised_and_others_are_not()
    {
        Assert.IsTrue(EventLogService.IsServiceCommandLine("svchost.exe", @"C:\Windows\system32\svchost.exe -k LocalServiceNetworkRestricted -p -s EventLog"));
        Assert.IsTrue(EventLogService.IsServiceCommandLine("SVCHOST.EXE", @"svchost.exe -k LocalServiceNetworkRestricted -s eventlog"));
        Assert.IsFalse(EventLogService.IsServiceCommandLine("svchost.exe", @"svchost.exe -k netsvcs -p -s Schedule"));
        Assert.IsFalse(EventLogService.IsServiceCommandLine("svchost.exe", @"svchost.exe -k LocalServiceNetworkRestricted -p -s EventLogX"));
        Assert.IsFalse(EventLogService.IsServiceCommandLine("notsvchost.exe", @"notsvchost.exe -s EventLog"));
        Assert.IsTrue(EventLogService.IsServiceDll(@"\Device\HarddiskVolume3\Windows\System32\WEVTSVC.dll"));
        Assert.IsFalse(EventLogService.IsServiceDll(@"\Device\HarddiskVolume3\Windows\System32\wevtapi.dll"));
    }

    [TestMethod]
    public void Evtx_paths_name_their_log_and_channel_files_decode_the_slash()
    {
        Assert.AreEqual("Application", EvtxLogName.FromPath(@"\Device\HarddiskVolume3\Windows\System32\winevt\Logs\Application.evtx"));
        Assert.AreEqual("Microsoft-Windows-PowerShell/Operational",
            EvtxLogName.FromPath(@"\Device\HarddiskVolume3\Windows\System32\winevt\Logs\Microsoft-Windows-PowerShell%4Operational.evtx"));
        Assert.AreEqual("SECURITY", EvtxLogName.FromPath(@"C:\Logs\SECURITY.EVTX"), "the extension matches in any case");
        Assert.IsNull(EvtxLogName.FromPath(@"\Device\HarddiskVolume3\Windows\System32\wevtsvc.dll"));
        Assert.IsNull(EvtxLogName.FromPath(".evtx"));
    }

    [TestMethod]
    public void Wmi_operation_text_gives_the_query_after_the_namespace()
    {
        const string op = @"Start IWbemServices::ExecQuery - root\cimv2 : SELECT * FROM Win32_NTLogEvent WHERE Logfile='Application'";
        Assert.IsTrue(WmiEventLogQuery.IsEventLogQuery(op));
        Assert.AreEqual("SELECT * FROM Win32_NTLogEvent WHERE Logfile='Application'", WmiEventLogQuery.QueryText(op));
        Assert.IsFalse(WmiEventLogQuery.IsEventLogQuery(@"Start IWbemServices::ExecQuery - root\cimv2 : select * from Win32_Process"));
        Assert.AreEqual("Win32_NTLogEvent", WmiEventLogQuery.QueryText(@"Start IWbemServices::CreateInstanceEnum - root\cimv2 : Win32_NTLogEvent"));
        Assert.IsTrue(WmiEventLogQuery.IsProviderHost(@"C:\Windows\System32\wbem\WmiPrvSE.exe"));
        Assert.IsTrue(WmiEventLogQuery.IsProviderHost("wmiprvse.exe"));
    }

    [TestMethod]
    public void Kcb_bookkeeping_and_hive_events_are_not_registry_operations()
    {
        byte[] operations = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 26, 27];
        for (int op = 0; op < 256; op++)
            Assert.AreEqual(operations.Contains((byte)op), RegistryOperations.IsOperation((byte)op), $"opcode {op}");
    }

    [TestMethod]
    public void Opnums_9_and_10_render_11_is_query_next()
    {
        Assert.AreEqual(Even6CallKind.Render, Even6.KindOf(9));
        Assert.AreEqual(Even6CallKind.Render, Even6.KindOf(10));
        Assert.AreEqual(Even6CallKind.QueryNext, Even6.KindOf(11));
        Assert.AreEqual(Even6CallKind.QueryOther, Even6.KindOf(5));
        Assert.AreEqual(Even6CallKind.QueryOther, Even6.KindOf(12));
        Assert.AreEqual(Even6CallKind.Untracked, Even6.KindOf(13));
        Assert.AreEqual(new Guid("f6beaff7-1e19-4fbb-9f8f-b89e2018337c"), Even6.InterfaceId);
    }

    [TestMethod]
    public void Table_has_the_issue_columns_in_order_with_time_roles()
    {
        var spec = EventLogTables.RenderCost.Spec;
        CollectionAssert.AreEqual(new[]
        {
            "Process", "PID", "On Behalf Of", "On Behalf Of PID", "Log", "Renders", "Queries", "Service CPU (ms)",
            "CPU per Message (ms)", "Registry Ops", "Registry Ops per Message", "Evtx Read (MB)", "Messages per Second",
            "WMI Query", "First", "Last",
        }, spec.Columns.Select(c => c.Name).ToArray());
        Assert.AreEqual(new Guid("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0040"), spec.Id);
        Assert.AreEqual("Event Log Render Cost", spec.Name);
        Assert.AreEqual(Model.ColumnRole.StartTime, spec.Columns[spec.IndexOf("First")].Role);
        Assert.AreEqual(Model.ColumnRole.EndTime, spec.Columns[spec.IndexOf("Last")].Role);
        Assert.AreEqual(Model.ColumnType.Timestamp, spec.Columns[spec.IndexOf("Last")].Type);
        foreach (var name in new[] { "Service CPU (ms)", "CPU per Message (ms)", "Registry Ops per Message", "Evtx Read (MB)", "Messages per Second" })
            Assert.AreEqual(Model.ColumnType.Decimal, spec.Columns[spec.IndexOf(name)].Type, name);
        Assert.AreEqual(Model.ColumnUnit.Megabytes, spec.Columns[spec.IndexOf("Evtx Read (MB)")].Unit);
    }
}
