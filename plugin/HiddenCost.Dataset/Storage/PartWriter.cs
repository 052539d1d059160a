using DuckDB.NET.Data;
using HiddenCost.Dataset.Schema;

namespace HiddenCost.Dataset.Storage;

/// <summary>
/// Collects one run's rows in an in-memory DuckDB database (columnar, compact) and writes them out as Parquet part
/// files under hidden names: a table's rows go to a new part each time they reach <see cref="RowsPerPart"/>, so a run
/// writes a few files per table whatever its trace count, and memory stays bounded. Every table gets at least one
/// part (empty when no trace had rows), so each table folder has a schema any engine can read. Not thread-safe: one
/// writer thread, or a lock around it.
/// </summary>
public sealed class PartWriter : IDisposable
{
    private readonly DuckDBConnection _db;
    private readonly DatasetFolder _dataset;
    private readonly string _runId;
    private readonly int _rowsPerPart;
    private readonly Dictionary<string, TableBuffer> _tables = new();
    private readonly List<string> _written = new();
    private bool _disposed;

    public const int RowsPerPart = 500_000;

    public PartWriter(DatasetFolder dataset, string runId, int rowsPerPart = RowsPerPart)
    {
        _dataset = dataset;
        _runId = runId;
        _rowsPerPart = rowsPerPart;
        _db = new DuckDBConnection("DataSource=:memory:");
        _db.Open();
        Execute("SET preserve_insertion_order = true");
        foreach (var table in DatasetSchema.All)
        {
            Execute($"CREATE TABLE {Quote(table.Name)} ({string.Join(", ", table.Columns.Select(c => $"{Quote(c.Name)} {DatasetTypes.DuckDbName(c.Type)}"))})");
            _tables[table.Name] = new TableBuffer(table);
        }
    }

    /// <summary>The run's part files written so far, relative to the dataset folder, by their visible (committed) names.</summary>
    public IReadOnlyList<string> Files => _written;

    /// <summary>Adds rows (cells in the table's column order, key columns included).</summary>
    public void Append(DatasetTable table, IEnumerable<object?[]> rows)
    {
        var buffer = _tables[table.Name];
        foreach (var row in rows)
        {
            buffer.Appender ??= _db.CreateAppender(table.Name);
            var r = buffer.Appender.CreateRow();
            for (int i = 0; i < row.Length; i++)
            {
                r = row[i] switch
                {
                    null => r.AppendNullValue(),
                    long l => r.AppendValue(l),
                    double d => r.AppendValue(d),
                    string s => r.AppendValue(s),
                    bool b => r.AppendValue(b),
                    DateTime t => r.AppendValue(t.Kind == DateTimeKind.Utc ? t : t.ToUniversalTime()),
                    var other => throw new ArgumentException($"dataset table '{table.Name}', column '{table.Columns[i].Name}': {other.GetType().Name} is not a dataset type"),
                };
            }
            r.EndRow();
            if (++buffer.Rows >= _rowsPerPart) Flush(buffer);
        }
    }

    /// <summary>Writes every table's remaining rows; then <see cref="Files"/> lists the run's whole output.</summary>
    public void Finish()
    {
        foreach (var buffer in _tables.Values)
            if (buffer.Rows > 0 || buffer.Parts == 0) Flush(buffer);
    }

    private void Flush(TableBuffer buffer)
    {
        buffer.Appender?.Dispose(); // appends what it holds
        buffer.Appender = null;
        var name = buffer.Table.Name;
        Directory.CreateDirectory(_dataset.TableFolder(name));
        var relative = $"{name}/part-{_runId}-{buffer.Parts:D5}.parquet";
        var hidden = Path.Combine(_dataset.Root, RunManifest.HiddenName(relative));
        Execute($"COPY {Quote(name)} TO '{hidden.Replace("'", "''")}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)");
        using (var file = new FileStream(hidden, FileMode.Open, FileAccess.ReadWrite, FileShare.Read)) file.Flush(flushToDisk: true);
        Execute($"DELETE FROM {Quote(name)}");
        _written.Add(relative);
        buffer.Parts++;
        buffer.Rows = 0;
    }

    private void Execute(string sql)
    {
        using var command = _db.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    internal static string Quote(string identifier) => "\"" + identifier.Replace("\"", "\"\"") + "\"";

    public void Dispose()
    {
        if (_disposed) return;
        _disposed = true;
        foreach (var buffer in _tables.Values)
        {
            try { buffer.Appender?.Dispose(); } catch (DuckDBException) { } // the run is being abandoned
        }
        _db.Dispose();
    }

    private sealed class TableBuffer(DatasetTable table)
    {
        public DatasetTable Table { get; } = table;
        public DuckDBAppender? Appender { get; set; }
        public int Rows { get; set; }
        public int Parts { get; set; }
    }
}
