namespace HiddenCost.Dataset.Schema;

/// <summary>One table of the dataset: a folder of Parquet files, every row keyed by trace and run.</summary>
/// <param name="Name">The folder name and view name (snake_case of the table's name, <see cref="NameRule"/>).</param>
/// <param name="Title">The table model's name ("Syscall Hook Overhead"), or the dataset's own table's title.</param>
/// <param name="SourceId">The table model's GUID; null for the dataset's own tables (traces, notes).</param>
public sealed record DatasetTable(string Name, string Title, string Description, IReadOnlyList<DatasetColumn> Columns, Guid? SourceId = null)
{
    public int IndexOf(string column)
    {
        for (int i = 0; i < Columns.Count; i++)
            if (Columns[i].Name == column) return i;
        throw new ArgumentException($"dataset table '{Name}' has no column '{column}'", nameof(column));
    }
}
