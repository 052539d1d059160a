using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis;

/// <summary>
/// The outcome of analysing one trace: one table per <see cref="TableCatalog.All"/> entry asked for, always (empty with
/// notes when the trace could not be read), and the error in one line ("file: offset 0x…: reason") or null.
/// </summary>
public sealed record AnalysisResult(string TracePath, IReadOnlyList<Table> Tables, string? Error)
{
    /// <summary>
    /// Null, or why the tables come from part of the trace only (the file is damaged or cut short, or events in it could
    /// not be decoded; every table carries it as a note too): hosts show it, as they show <see cref="Error"/>, whatever
    /// tables are asked for.
    /// </summary>
    public string? Warning { get; init; }

    public Table this[string tableName] => Tables.First(t => t.Spec.Name == tableName);

    /// <summary>The table of <paramref name="definition"/> with its typed rows (none, with the error as its note, when the trace could not be read).</summary>
    public Table<TRow> Table<TRow>(TableDefinition<TRow> definition)
    {
        var table = Tables.First(t => t.Spec.Id == definition.Spec.Id);
        if (table is Table<TRow> typed) return typed;
        var empty = definition.Empty();
        foreach (var note in table.Notes) empty.AddNote(note);
        return empty;
    }
}
