using HiddenCost.Analysis.Tables.Findings;
using HiddenCost.Analysis.Tests.Support;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;

namespace HiddenCost.Analysis.Tests.Findings;

/// <summary>
/// Synthetic traces (the project's synthetic writer, documented layouts) for the Findings tests: the committed samples'
/// scenarios, and the same scenarios with their problem fixed.
/// </summary>
internal static class FindingsFixtures
{
    /// <summary>As the committed samples are recorded (samples/SYNTHETIC.md).</summary>
    public static TraceBuilderSettings SampleSettings(string name) =>
        Synthetic.Samples.SampleCatalog.Settings(compress: true, StackEncoding.Keyed, name);

    /// <summary>The syscall storm with no driver in the syscall path: the hook adds nothing and is never sampled.</summary>
    public static readonly SyscallHookStormOptions NoHook = new() { HookUs = 0 };

    /// <summary>The spin scenario with workers that barely spin before they block, and neither yield storm nor OpenMP spinner.</summary>
    public static readonly SpinContentionOptions NoSpin = new() { SpinMsMin = 0.001, SpinMsMax = 0.002, OpenMp = false, YieldStorm = false };

    /// <summary>
    /// The notify storm with SyncAgent.exe's buffer at 64 KiB instead of 2 MiB (one demand-zero fault per completion, so the
    /// trace still holds the PageFault events that make it ready for the table).
    /// </summary>
    public static readonly NotifyBufferStormOptions SmallBuffer = new() { LargeBufferBytes = 64 * 1024, DemandZeroFaultsPerSmallCompletion = 1 };

    /// <summary>The event log scenario with renders that cost the service 10 µs each instead of 500, and queries 300 µs instead of 1,200.</summary>
    public static readonly EventLogRenderOptions CheapRenders = new() { RenderUs = 10, QueryUs = 300 };

    public static IReadOnlyList<Finding> Assess(AnalysisResult result, FindingThresholds? thresholds = null) =>
        FindingsEvaluator.Assess(ProblemFigures.From(result.Tables), thresholds ?? FindingThresholds.Default);

    public static IReadOnlyList<FindingRow> Rows(AnalysisResult result) => FindingsTable.Read(result[FindingsTable.Name]);

    public static AnalysisResult Analyze(BuiltTrace trace, string name) => SyntheticTraces.Analyze(trace, name);
}
