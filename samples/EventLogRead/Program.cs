using System.Diagnostics;
using System.Diagnostics.Eventing.Reader;
using System.Management;
using System.Runtime.Versioning;

namespace HiddenCost.Samples.EventLogRead;

/// <summary>
/// Reads the messages of an event log through the three APIs programs use: EventLogReader (wevtapi, the service
/// renders each message: EvtRpcMessageRender), the classic EventLog class, and WMI's Win32_NTLogEvent (WmiPrvSE
/// reads on the caller's behalf). The Event Log Render Cost table shows each client, the log, and the EventLog
/// service's CPU and registry reads per message.
/// </summary>
internal static class Program
{
    private const string Usage = """
        EventLogRead: read an event log's messages with EventLogReader, EventLog and WMI Win32_NTLogEvent.

        Usage: EventLogRead [--log NAME] [--max N] [--mode all|reader|eventlog|wmi]
          --log    event log to read (default Application)
          --max    messages per API (default 5000)
          --mode   which API: reader (EventLogReader), eventlog (System.Diagnostics.EventLog), wmi (Win32_NTLogEvent),
                   or all three one after the other (default)

        Record:  wpr -start MultiProfile.wprp!EventLog -filemode   (then run this, then)   wpr -stop eventlogread.etl
        """;

    private static int Main(string[] args) => SampleHost.Run("EventLogRead", Usage, args,
        o => OperatingSystem.IsWindows() ? Run(o) : SampleHost.NotWindows);

    [SupportedOSPlatform("windows")]
    private static int Run(SampleOptions o)
    {
        o.RejectUnknown("log", "max", "mode");
        var log = o.Text("log", "Application");
        if (log.Contains('\'')) throw new SampleUsageException("--log must not contain a quote");
        int max = o.Int("max", 5000, 1, 10_000_000);
        var mode = o.Choice("mode", "all", "all", "reader", "eventlog", "wmi");
        Console.WriteLine($"EventLogRead pid {Environment.ProcessId}: log {log}, up to {max:N0} messages per API");
        try
        {
            if (mode is "all" or "reader") Measure("EventLogReader", () => ReadWithReader(log, max));
            if (mode is "all" or "eventlog") Measure("EventLog", () => ReadWithEventLog(log, max));
            if (mode is "all" or "wmi") Measure("WMI Win32_NTLogEvent", () => ReadWithWmi(log, max));
        }
        catch (Exception e) when (e is EventLogException or UnauthorizedAccessException or ManagementException or InvalidOperationException)
        {
            Console.Error.WriteLine($"EventLogRead: cannot read log '{log}': {e.Message}");
            return 1;
        }
        return 0;
    }

    private static void Measure(string api, Func<(long Messages, long Chars)> read)
    {
        var sw = Stopwatch.StartNew();
        var (messages, chars) = read();
        var s = sw.Elapsed.TotalSeconds;
        Console.WriteLine($"  {api,-22} {messages,9:N0} messages in {s,7:N2} s = {messages / Math.Max(s, 1e-9),9:N0} messages/s, {chars * 2 / 1e6,7:N1} MB of text");
    }

    [SupportedOSPlatform("windows")]
    private static (long, long) ReadWithReader(string log, int max)
    {
        long n = 0, chars = 0;
        using var reader = new EventLogReader(new EventLogQuery(log, PathType.LogName));
        for (EventRecord? r = reader.ReadEvent(); r is not null && n < max; r = reader.ReadEvent())
            using (r)
            {
                chars += r.FormatDescription()?.Length ?? 0;
                n++;
            }
        return (n, chars);
    }

    [SupportedOSPlatform("windows")]
    private static (long, long) ReadWithEventLog(string log, int max)
    {
        long n = 0, chars = 0;
        using var eventLog = new EventLog(log);
        foreach (EventLogEntry e in eventLog.Entries)
        {
            if (n >= max) break;
            chars += e.Message.Length;
            n++;
        }
        return (n, chars);
    }

    [SupportedOSPlatform("windows")]
    private static (long, long) ReadWithWmi(string log, int max)
    {
        long n = 0, chars = 0;
        using var searcher = new ManagementObjectSearcher($"SELECT * FROM Win32_NTLogEvent WHERE Logfile='{log}'");
        using var results = searcher.Get();
        foreach (var o in results)
            using (o)
            {
                if (n >= max) break;
                chars += (o["Message"] as string)?.Length ?? 0;
                n++;
            }
        return (n, chars);
    }
}
