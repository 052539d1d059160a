using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;

namespace HiddenCost.Analysis.Tables.CpuByFunction;

/// <summary>What CPU by Function says about how its figures were made and what the trace lacks.</summary>
internal static class CpuByFunctionNotes
{
    public static IEnumerable<TableNote> For(bool sampled, SampleIntervals intervals, SymbolNames symbols)
    {
        if (!sampled)
        {
            yield return TableNote.Info("cpu-by-function.no-samples",
                "The trace holds no CPU samples (PerfInfo SampledProfile): record with the PROFILE kernel flag (WPR's CPU profile).");
            yield break;
        }
        if (intervals.IsDefault)
            yield return TableNote.Info("cpu-by-function.default-interval",
                $"The trace names no profile interval: each sample counts as {SampleIntervals.DefaultNs / 1e6:0.###} ms, the Windows default.");
        if (!symbols.Available)
            yield return TableNote.Info("cpu-by-function.no-symbols",
                "Native functions are module+0xRVA: no symbol path (set _NT_SYMBOL_PATH or pass --symbols to name them from PDBs).");
        else if (symbols.MissingNote("Native functions") is { } missing)
            yield return TableNote.Info("cpu-by-function.symbols-missing", missing);
    }
}
