namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>
/// Recognises the process hosting the EventLog service: a svchost started for it (<c>-s EventLog</c> in the
/// command line) or one that loaded the service DLL <c>wevtsvc.dll</c> (services sharing one svchost have no
/// <c>-s</c>). Other svchosts are never it, however much registry work they do.
/// </summary>
public static class EventLogService
{
    public const string HostImage = "svchost.exe";
    public const string ServiceDll = "wevtsvc.dll";

    public static bool IsHost(string imageName) => FileName(imageName).Equals(HostImage, StringComparison.OrdinalIgnoreCase);

    /// <summary>True for a svchost whose command line names the EventLog service with <c>-s EventLog</c>.</summary>
    public static bool IsServiceCommandLine(string imageName, string commandLine)
    {
        if (!IsHost(imageName)) return false;
        var tokens = commandLine.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries);
        for (int i = 0; i + 1 < tokens.Length; i++)
            if ((tokens[i] == "-s" || tokens[i] == "/s") && string.Equals(tokens[i + 1].Trim('"'), "EventLog", StringComparison.OrdinalIgnoreCase))
                return true;
        return false;
    }

    /// <summary>True when <paramref name="imagePath"/> is the service DLL (any directory, any case).</summary>
    public static bool IsServiceDll(string imagePath) => FileName(imagePath).Equals(ServiceDll, StringComparison.OrdinalIgnoreCase);

    internal static ReadOnlySpan<char> FileName(string path)
    {
        // The span overload with two values: the array form made a new char[] for every image and process event.
        int slash = path.AsSpan().LastIndexOfAny('\\', '/');
        return path.AsSpan(slash + 1).TrimEnd('"');
    }
}
