using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;

namespace HiddenCost.Analysis.Tables.Symbols;

/// <summary>What the Symbols table says about the run's symbol path and the PDBs that did not load.</summary>
internal static class SymbolsNotes
{
    public static IEnumerable<TableNote> For(int pdbs, SymbolNames symbols)
    {
        if (pdbs == 0)
            yield return TableNote.Info("symbols.no-pdb-records",
                "The trace has no KernelTraceControl DbgID_RSDS records, so no image names its PDB: native frames stay module+0xRVA (traces saved by WPR or merged by xperf carry them).");
        else if (!symbols.Available)
            yield return TableNote.Info("symbols.no-symbol-path",
                "No symbol path: nothing was looked for. Set _NT_SYMBOL_PATH (as for WPA) or pass --symbols PATH to name native frames from these PDBs.");
        else if (symbols.MissingNote("Frames in their images") is { } missing)
            yield return TableNote.Info("symbols.missing", missing);
    }
}
