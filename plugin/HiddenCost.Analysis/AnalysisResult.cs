using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis;

/// <summary>
/// The outcome of analysing one trace: one table per <see cref="TableCatalog.All"/> entry, always (empty with
/// notes when the trace could not be read), and the error in one line ("file: offset 0x…: reason") or null.
/// </summary>
public sealed record AnalysisResult(string TracePath, IReadOnlyList<Table> Tables, string? Error)
{
    public Table this[string tableName] => Tables.First(t => t.Spec.Name == tableName);
}
