using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Analysis.Tables.DirectoryNotify;
using HiddenCost.Analysis.Tables.EventCounts;
using HiddenCost.Analysis.Tables.EventLog;
using HiddenCost.Analysis.Tables.SpinWait;
using HiddenCost.Analysis.Tables.TraceReadiness;
using HiddenCost.Analysis.Tables.TraceInfo;

namespace HiddenCost.Analysis;

/// <summary>Every table HiddenCost offers, known before any trace is opened (WPA lists them at load time).</summary>
public static class TableCatalog
{
    /// <summary>Fresh analyses for one pass over one trace, in the order their tables are listed.</summary>
    /// <param name="thresholds">Findings' thresholds; null for the defaults.</param>
    public static IReadOnlyList<ITraceAnalysis> CreateAnalyses(TraceSession session, Tables.Findings.FindingThresholds? thresholds = null) => new ITraceAnalysis[]
    {
        new Tables.Findings.FindingsAnalysis(thresholds),
        new TraceInfoAnalysis(),
        new EventCountsAnalysis(session),
        new TraceReadinessAnalysis(session),
        new SpinWaitAnalysis(session),
        new DirectoryNotifyAnalysis(session),
        new Tables.SyscallHook.SyscallHookAnalysis(session),
        new EventLogAnalysis(session),
    };

    public static IReadOnlyList<TableSpec> All { get; } = CreateAnalyses(new TraceSession()).SelectMany(a => a.Tables).ToArray();

    public static TableSpec? Find(string nameOrGuid) =>
        All.FirstOrDefault(t => string.Equals(t.Name, nameOrGuid, StringComparison.OrdinalIgnoreCase)
                                || (Guid.TryParse(nameOrGuid, out var g) && t.Id == g));
}
