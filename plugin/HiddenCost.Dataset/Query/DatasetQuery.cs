using System.Globalization;
using System.Numerics;
using DuckDB.NET.Data;
using HiddenCost.Dataset.Schema;
using HiddenCost.Dataset.Storage;

namespace HiddenCost.Dataset.Query;

/// <summary>
/// SQL over a dataset with embedded DuckDB: the views of <see cref="DatasetViews"/>, read-only (no lock taken: a
/// run that commits meanwhile is seen by the next query, never half).
/// </summary>
public sealed class DatasetQuery : IDisposable
{
    private readonly DuckDBConnection _db;

    public DatasetQuery(DatasetFolder dataset)
    {
        _db = new DuckDBConnection("DataSource=:memory:");
        _db.Open();
        try
        {
            Execute("SET TimeZone = 'UTC'"); // TIMESTAMPTZ values come back as UTC times
            DatasetViews.Create(_db, dataset, RunManifest.ReadAll(dataset));
        }
        catch
        {
            _db.Dispose();
            throw;
        }
    }

    /// <exception cref="DuckDBException">The SQL is wrong (the message says where).</exception>
    public QueryResult Run(string sql, IReadOnlyDictionary<string, object>? parameters = null)
    {
        using var command = _db.CreateCommand();
        command.CommandText = sql;
        foreach (var (name, value) in parameters ?? new Dictionary<string, object>())
            command.Parameters.Add(new DuckDBParameter(name, value));
        using var reader = command.ExecuteReader();
        var columns = Enumerable.Range(0, reader.FieldCount).Select(reader.GetName).ToArray();
        var types = Enumerable.Range(0, reader.FieldCount).Select(i => TypeOf(reader.GetFieldType(i))).ToArray();
        var rows = new List<object?[]>();
        while (reader.Read())
        {
            var row = new object?[columns.Length];
            for (int i = 0; i < row.Length; i++) row[i] = reader.IsDBNull(i) ? null : Value(reader.GetValue(i), types[i]);
            rows.Add(row);
        }
        return new QueryResult(columns, types, rows);
    }

    private static DatasetType TypeOf(Type clr) =>
        clr == typeof(long) || clr == typeof(int) || clr == typeof(short) || clr == typeof(sbyte) || clr == typeof(byte)
            || clr == typeof(ushort) || clr == typeof(uint) ? DatasetType.Int64
        : clr == typeof(double) || clr == typeof(float) || clr == typeof(decimal) || clr == typeof(BigInteger) || clr == typeof(ulong) ? DatasetType.Double
        : clr == typeof(bool) ? DatasetType.Boolean
        : clr == typeof(DateTime) || clr == typeof(DateTimeOffset) ? DatasetType.TimestampUtc
        : DatasetType.Text;

    /// <summary>A DuckDB value as the dataset type of its column: sums of BIGINT (HUGEINT) and DECIMALs as double.</summary>
    private static object Value(object value, DatasetType type) => type switch
    {
        DatasetType.Int64 => Convert.ToInt64(value, CultureInfo.InvariantCulture),
        DatasetType.Double => value is BigInteger big ? (double)big : Convert.ToDouble(value, CultureInfo.InvariantCulture),
        DatasetType.Boolean => (bool)value,
        DatasetType.TimestampUtc => value is DateTimeOffset o ? o.UtcDateTime : DateTime.SpecifyKind((DateTime)value, DateTimeKind.Utc),
        _ => Convert.ToString(value, CultureInfo.InvariantCulture) ?? "",
    };

    private void Execute(string sql)
    {
        using var command = _db.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    public void Dispose() => _db.Dispose();
}
