using HiddenCost.Dataset.Schema;
using Parquet;
using Parquet.Schema;

namespace HiddenCost.Dataset.Tests;

/// <summary>The files themselves, read by DuckDB's parquet_schema() and by a second, independent reader (Parquet.Net).</summary>
[TestClass]
public sealed class ParquetFileTests
{
    private static readonly Lazy<DatasetFixture> Extracted = new(() =>
    {
        var fixture = new DatasetFixture();
        fixture.Add(DatasetFixture.RepositorySamples());
        var (exit, _, errors) = fixture.Extract();
        Assert.AreEqual(0, exit, errors);
        return fixture;
    });

    [ClassCleanup]
    public static void Cleanup()
    {
        if (Extracted.IsValueCreated) Extracted.Value.Dispose();
    }

    [TestMethod]
    public void EveryColumn_HasThePhysicalAndLogicalTypeOfItsRule()
    {
        var fixture = Extracted.Value;
        using var db = DatasetFixture.DuckDb();
        foreach (var table in DatasetSchema.All)
        {
            var file = Directory.GetFiles(fixture.Dataset.Replace('\\', '/') + "/" + table.Name, "*.parquet").Single();
            using var command = db.CreateCommand();
            command.CommandText = $"SELECT name, type, converted_type, logical_type FROM parquet_schema('{file}') WHERE num_children IS NULL OR num_children = 0";
            using var reader = command.ExecuteReader();
            var found = new List<(string Name, string Physical, string? Converted, string? Logical)>();
            while (reader.Read())
                found.Add((reader.GetString(0), reader.GetString(1), reader.IsDBNull(2) ? null : reader.GetString(2), reader.IsDBNull(3) ? null : reader.GetString(3)));
            CollectionAssert.AreEqual(table.Columns.Select(c => c.Name).ToArray(), found.Select(f => f.Name).ToArray(), table.Name);
            for (int i = 0; i < found.Count; i++)
            {
                var (name, physical, converted, logical) = found[i];
                var where = $"{table.Name}.{name}";
                switch (table.Columns[i].Type)
                {
                    case DatasetType.Int64:
                        Assert.AreEqual("INT64", physical, where);
                        Assert.AreEqual("INT_64", converted, where); // signed: UINT_64 would be unsigned
                        Assert.IsTrue(string.IsNullOrEmpty(logical) || logical.Contains("isSigned=1"), $"{where}: {logical}");
                        break;
                    case DatasetType.Double:
                        Assert.AreEqual("DOUBLE", physical, where);
                        Assert.IsTrue(string.IsNullOrEmpty(converted) && string.IsNullOrEmpty(logical), where);
                        break;
                    case DatasetType.Text:
                        Assert.AreEqual("BYTE_ARRAY", physical, where);
                        Assert.AreEqual("UTF8", converted, where);
                        Assert.IsTrue(string.IsNullOrEmpty(logical) || logical.StartsWith("StringType", StringComparison.Ordinal), $"{where}: {logical}");
                        break;
                    case DatasetType.Boolean:
                        Assert.AreEqual("BOOLEAN", physical, where);
                        break;
                    case DatasetType.TimestampUtc:
                        Assert.AreEqual("INT64", physical, where);
                        Assert.AreEqual("TIMESTAMP_MICROS", converted, where);
                        StringAssert.Contains(logical, "isAdjustedToUTC=1", where);
                        StringAssert.Contains(logical, "MICROS=MicroSeconds()", where);
                        break;
                }
            }
        }
    }

    [TestMethod]
    public async Task ParquetNet_ReadsTheSameValuesAsDuckDb()
    {
        var fixture = Extracted.Value;
        using var db = DatasetFixture.DuckDb();
        int compared = 0;
        foreach (var file in fixture.VisibleParquet())
        {
            var table = DatasetSchema.Find(Path.GetFileName(Path.GetDirectoryName(file))!)!;
            var expected = new List<object?[]>();
            using (var command = db.CreateCommand())
            {
                command.CommandText = $"SELECT * FROM read_parquet('{file}')";
                using var reader = command.ExecuteReader();
                while (reader.Read())
                {
                    var row = new object?[reader.FieldCount];
                    for (int i = 0; i < row.Length; i++) row[i] = reader.IsDBNull(i) ? null : reader.GetValue(i);
                    expected.Add(row);
                }
            }
            var actual = await ReadWithParquetNet(file, table);
            Assert.AreEqual(expected.Count, actual.Count, file);
            for (int r = 0; r < expected.Count; r++)
                for (int c = 0; c < table.Columns.Count; c++)
                {
                    var e = expected[r][c] is DateTime t ? DateTime.SpecifyKind(t, DateTimeKind.Utc) : expected[r][c];
                    var a = actual[r][c] is DateTime u ? u.ToUniversalTime() : actual[r][c];
                    Assert.AreEqual(e, a, $"{table.Name} row {r} column {table.Columns[c].Name}");
                    compared++;
                }
        }
        Assert.IsTrue(compared > 1000, $"only {compared} cells compared");
    }

    private static async Task<List<object?[]>> ReadWithParquetNet(string file, DatasetTable table)
    {
        await using var reader = await ParquetReader.CreateAsync(file);
        var fields = reader.Schema.GetDataFields();
        CollectionAssert.AreEqual(table.Columns.Select(c => c.Name).ToArray(), fields.Select(f => f.Name).ToArray());
        var rows = new List<object?[]>();
        for (int g = 0; g < reader.RowGroupCount; g++)
        {
            using var group = reader.OpenRowGroupReader(g);
            int n = checked((int)group.RowCount);
            var columns = new Array[fields.Length];
            for (int c = 0; c < fields.Length; c++) columns[c] = await ReadColumn(group, fields[c], table.Columns[c].Type, n);
            for (int r = 0; r < n; r++) rows.Add(columns.Select(col => col.GetValue(r)).ToArray());
        }
        return rows;
    }

    private static async Task<Array> ReadColumn(ParquetRowGroupReader group, DataField field, DatasetType type, int n)
    {
        switch (type)
        {
            case DatasetType.Int64: { var v = new long?[n]; await group.ReadAsync<long>(field, v); return v; }
            case DatasetType.Double: { var v = new double?[n]; await group.ReadAsync<double>(field, v); return v; }
            case DatasetType.Boolean: { var v = new bool?[n]; await group.ReadAsync<bool>(field, v); return v; }
            case DatasetType.TimestampUtc: { var v = new DateTime?[n]; await group.ReadAsync<DateTime>(field, v); return v; }
            default: { var v = new string?[n]; await group.ReadAsync(field, v.AsMemory()!); return v; }
        }
    }
}
