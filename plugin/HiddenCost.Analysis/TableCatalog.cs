using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Analysis.Tables;
using HiddenCost.Analysis.Tables.DirectoryNotify;
using HiddenCost.Analysis.Tables.EventCounts;
using HiddenCost.Analysis.Tables.EventLog;
using HiddenCost.Analysis.Tables.Findings;
using HiddenCost.Analysis.Tables.SpinWait;
using HiddenCost.Analysis.Tables.TraceReadiness;
using HiddenCost.Analysis.Tables.TraceInfo;
using static HiddenCost.Analysis.Pipeline.SessionNeeds;

namespace HiddenCost.Analysis;

/// <summary>Every table HiddenCost offers, known before any trace is opened (WPA lists them at load time).</summary>
public static class TableCatalog
{
    /// <summary>
    /// Every analysis, in the order their tables are listed, each with what it reads of the pass's shared session (and,
    /// for Findings, of the other analyses' tables): a pass asked for some tables builds only that (<see cref="AnalysisPlan"/>).
    /// </summary>
    /// <param name="thresholds">Findings' thresholds; null for the defaults.</param>
    public static IReadOnlyList<AnalysisEntry> AnalysesWith(FindingThresholds? thresholds) => new AnalysisEntry[]
    {
        new(None, _ => new FindingsAnalysis(thresholds))
        {
            ReadsTables =
            [
                TableIds.TraceReadiness, TableIds.SpinWaitCostPerLock, TableIds.SpinWaitByProcess, TableIds.DirectoryNotifyBuffers,
                TableIds.DirectoryNotifyVictims, TableIds.SyscallHookOverhead, TableIds.ProfilingGaps, TableIds.EventLogRenderCost,
            ],
        },
        new(None, _ => new TraceInfoAnalysis()),
        new(StackedEvents, s => new EventCountsAnalysis(s)),
        new(Stacks | StackedEvents, s => new TraceReadinessAnalysis(s)),
        new(Processes | Images | ClrMethods | Stacks, s => new SpinWaitAnalysis(s)),
        new(Processes | Images | Stacks, s => new DirectoryNotifyAnalysis(s)),
        new(Processes | Images | ClrMethods | Stacks | SessionNeeds.RunningThreads, s => new Tables.SyscallHook.SyscallHookAnalysis(s)),
        new(Processes | SessionNeeds.RunningThreads, s => new EventLogAnalysis(s)),
        new(Processes | Images | ClrMethods, s => new Tables.CpuByFunction.CpuByFunctionAnalysis(s)),
        // Last: it reports what the analyses before it asked of the session's symbols.
        new(Images, s => new Tables.Symbols.SymbolsAnalysis(s)),
    };

    /// <summary>Every analysis with Findings' default thresholds (<see cref="AnalysesWith"/>).</summary>
    public static IReadOnlyList<AnalysisEntry> Analyses { get; } = AnalysesWith(null);

    /// <summary>Fresh analyses for one pass over one trace, in the order their tables are listed.</summary>
    /// <param name="thresholds">Findings' thresholds; null for the defaults.</param>
    public static IReadOnlyList<ITraceAnalysis> CreateAnalyses(TraceSession session, FindingThresholds? thresholds = null) =>
        (thresholds is null ? Analyses : AnalysesWith(thresholds)).Select(a => a.Create(session)).ToArray();

    public static IReadOnlyList<TableSpec> All { get; } = Analyses.SelectMany(a => a.Tables).ToArray();

    public static TableSpec? Find(string nameOrGuid) =>
        All.FirstOrDefault(t => string.Equals(t.Name, nameOrGuid, StringComparison.OrdinalIgnoreCase)
                                || (Guid.TryParse(nameOrGuid, out var g) && t.Id == g));
}
