namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>
/// Reads the Operation text of WMI-Activity event 11, shaped
/// <c>Start IWbemServices::ExecQuery - root\cimv2 : SELECT * FROM Win32_NTLogEvent WHERE Logfile='Application'</c>:
/// whether it reads event logs through the Win32_NTLogEvent class, and the query (the text after " : ").
/// </summary>
public static class WmiEventLogQuery
{
    public const string EventLogClass = "Win32_NTLogEvent";
    public const string WmiProviderHost = "WmiPrvSE.exe";

    public static bool IsEventLogQuery(string operation) => operation.Contains(EventLogClass, StringComparison.OrdinalIgnoreCase);

    /// <summary>The query text; the whole operation when it has no " : " part.</summary>
    public static string QueryText(string operation)
    {
        int at = operation.IndexOf(" : ", StringComparison.Ordinal);
        return (at >= 0 ? operation[(at + 3)..] : operation).Trim();
    }

    /// <summary>True for the WMI provider host, the process that calls the EventLog service for WMI clients.</summary>
    public static bool IsProviderHost(string imageName) =>
        EventLogService.FileName(imageName).Equals(WmiProviderHost, StringComparison.OrdinalIgnoreCase);
}
