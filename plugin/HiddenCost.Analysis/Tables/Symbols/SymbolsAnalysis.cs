using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Etl;
using HiddenCost.Symbols.Resolution;

namespace HiddenCost.Analysis.Tables.Symbols;

/// <summary>
/// Symbols: every PDB the trace's KernelTraceControl DbgID_RSDS records name (one row per name, GUID and age), and
/// what became of it in this run: loaded (with where from, its publics, the frames it named and how long it took),
/// not found, mismatched, unreadable, or not needed when no table of the run asked about an address in its image.
/// It reads what the other analyses asked of <see cref="TraceSession.Symbols"/>, so the catalog lists it after them.
/// </summary>
public sealed class SymbolsAnalysis : ITraceAnalysis
{
    public const string NotNeeded = "not needed";

    public static readonly TableDefinition<SymbolsRow> Definition = new TableDefinitionBuilder<SymbolsRow>(TableIds.Symbols, "Symbols",
            "The PDBs the trace's DbgID_RSDS records name, and whether this run found and read them: where from, their " +
            "publics, the frames they named.", "HiddenCost/Trace")
        .Column("Module", ColumnType.Text, r => r.Module, description: "the image's file name (the first image naming this PDB)")
        .Column("PDB", ColumnType.Text, r => r.Pdb, description: "the PDB's file name, from the record (ntoskrnl.exe names ntkrnlmp.pdb)")
        .Column("GUID", ColumnType.Guid, r => r.Guid, description: "the PDB signature the image was linked with")
        .Column("Age", ColumnType.Integer, r => r.Age, description: "the PDB age the image was linked with")
        .Column("Status", ColumnType.Text, r => r.Status,
            description: "loaded, not found, mismatched (a file of that name with another GUID or age), unreadable (corrupt or unsupported), or not needed (no table of this run asked about its code)")
        .Column("Source", ColumnType.Text, r => r.Source, description: "the file or URL the PDB was read from")
        .Column("Publics", ColumnType.Integer, r => r.Publics, ColumnUnit.Count, description: "public symbols in executable sections, indexed for lookups")
        .Column("Frames Resolved", ColumnType.Integer, r => r.FramesResolved, ColumnUnit.Count, ColumnRole.GraphValue, "addresses the PDB named for the tables")
        .Column("Load (ms)", ColumnType.Decimal, r => r.LoadMs, ColumnUnit.Milliseconds, description: "finding, downloading and reading the PDB")
        .Build(new TableView(new[] { "Status", "Module" }, "Frames Resolved", new[] { "Frames Resolved" }));

    private readonly TraceSession _session;

    public SymbolsAnalysis(TraceSession session) => _session = session;

    public IReadOnlyList<TableSpec> Tables { get; } = new[] { Definition.Spec };

    public void OnEvent(in EtwEvent e)
    {
        // The session's state keeps each image's PDB identity; nothing else to keep.
    }

    public IReadOnlyList<Table> Complete(AnalysisContext context)
    {
        var symbols = _session.Symbols;
        var statuses = new Dictionary<PdbKey, PdbStatus>();
        foreach (var status in symbols.Statuses) statuses.TryAdd(status.Pdb, status);
        var pdbs = new Dictionary<PdbKey, string>();
        foreach (var image in _session.State.Images)
            if (image.Pdb is { } pdb) pdbs.TryAdd(SymbolNames.Key(pdb), image.FileName);
        var rows = pdbs.Select(p => Row(p.Key, p.Value, statuses.GetValueOrDefault(p.Key), symbols))
            .OrderBy(r => r.Module, StringComparer.OrdinalIgnoreCase).ThenBy(r => r.Pdb, StringComparer.OrdinalIgnoreCase)
            .ThenBy(r => r.Guid).ThenBy(r => r.Age);
        var table = Definition.Table(rows);
        foreach (var note in SymbolsNotes.For(pdbs.Count, symbols)) table.AddNote(note);
        return new[] { table };
    }

    private static SymbolsRow Row(PdbKey key, string module, PdbStatus? status, SymbolNames symbols)
    {
        string state = status?.State switch
        {
            PdbState.Loaded => "loaded",
            PdbState.NotFound => "not found",
            PdbState.Mismatched => "mismatched",
            PdbState.Unreadable => "unreadable",
            // Without a symbol path nothing is looked for: what a table needed is simply not found.
            _ => !symbols.Available && symbols.Needed(key) ? "not found" : NotNeeded,
        };
        bool loaded = status?.State == PdbState.Loaded;
        return new SymbolsRow(
            Module: status?.ImageFileName ?? module,
            Pdb: key.PdbName,
            Guid: key.Guid,
            Age: key.Age,
            Status: state,
            Source: status?.Source ?? "",
            Publics: loaded ? status!.Publics : null,
            FramesResolved: status is { State: not PdbState.NotLoaded } ? status.FramesResolved : null,
            LoadMs: status is { State: not PdbState.NotLoaded } ? status.LoadMilliseconds : null);
    }
}
