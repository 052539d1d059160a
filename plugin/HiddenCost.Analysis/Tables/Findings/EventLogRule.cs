using static HiddenCost.Analysis.Tables.Findings.FigureText;

namespace HiddenCost.Analysis.Tables.Findings;

/// <summary>
/// One assessment per client and log in Event Log Render Cost: the EventLog service's CPU serving that client, judged
/// by the CPU each rendered message costs it.
/// </summary>
internal static class EventLogRule
{
    public const string SeeTable = "Event Log Render Cost";

    public static IEnumerable<Finding> Assess(IReadOnlyList<EventLogClientFigures> clients, Levels levels)
    {
        foreach (var c in clients)
        {
            var client = c.OnBehalfOf is { } behalf ? $"{behalf} through {c.Process}" : c.Process;
            double perMessage = c.CpuPerMessageMs ?? double.NaN;
            var figures = new List<Figure>
            {
                new("Renders", c.Renders, "", $"{Count(c.Renders)} messages rendered"),
                new("Service CPU", c.ServiceCpuMs, "ms", $"{Ms(c.ServiceCpuMs)} of EventLog service CPU"),
            };
            if (c.CpuPerMessageMs is { } per) figures.Add(new("CPU per Message", per, "ms", $"{Fixed(per, 3)} ms per message"));
            if (c.RegistryOpsPerMessage is { } reg) figures.Add(new("Registry Ops per Message", reg, "", $"{Fixed(reg, 1)} registry operations per message"));
            var cost = $"the EventLog service spent {Ms(c.ServiceCpuMs)} rendering {Count(c.Renders)} messages for it" +
                       (c.CpuPerMessageMs is { } p ? $" ({Fixed(p, 3)} ms each)" : "");
            var recommendation = c.WmiQuery is { } query && query.Contains("Win32_NTLogEvent", StringComparison.OrdinalIgnoreCase)
                ? $"Replace {c.OnBehalfOf ?? c.Process}'s WMI query \"{query}\"{(c.OnBehalfOf is null ? "" : $" (served by {c.Process})")} with EvtQuery/EvtNext on the {c.Log} log (Get-WinEvent -FilterHashtable in PowerShell, " +
                  $"EventLogReader in .NET) filtered by time and event ID, reading event values (EvtRenderEventValues) instead of rendered messages: " +
                  $"Win32_NTLogEvent renders the message of every event it returns, and {cost}."
                : $"Have {client} query only the events it needs from the {c.Log} log (an XPath filter in EvtQuery) and render message text only for " +
                  $"events it shows: {cost}.";
            yield return new Finding(Problems.EventLogRender, levels.Of(perMessage, c.ServiceCpuMs), $"{client} reading {c.Log}",
                "the EventLog service", c.ServiceCpuMs, false, figures, null, recommendation, SeeTable, c.FirstNs, c.LastNs);
        }
    }
}
