namespace HiddenCost.Analysis.Tables.Symbols;

/// <summary>One row of Symbols: one PDB (name, GUID, age) a DbgID_RSDS record of the trace names, and what became of it.</summary>
public sealed record SymbolsRow(
    string Module, string Pdb, Guid Guid, long Age, string Status, string Source, long? Publics, long? FramesResolved, double? LoadMs);
