namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>
/// The log a .evtx file holds, from its path: <c>…\winevt\Logs\Application.evtx</c> → <c>Application</c>.
/// Channel files encode '/' as <c>%4</c> (<c>Microsoft-Windows-PowerShell%4Operational.evtx</c> →
/// <c>Microsoft-Windows-PowerShell/Operational</c>).
/// </summary>
public static class EvtxLogName
{
    private const string Extension = ".evtx";

    public static bool IsEvtx(string path) => path.EndsWith(Extension, StringComparison.OrdinalIgnoreCase);

    /// <summary>The log name, or null when the path is not a .evtx file.</summary>
    public static string? FromPath(string path)
    {
        if (!IsEvtx(path)) return null;
        var file = EventLogService.FileName(path);
        var stem = file[..^Extension.Length].ToString();
        return stem.Length == 0 ? null : stem.Replace("%4", "/", StringComparison.Ordinal);
    }
}
