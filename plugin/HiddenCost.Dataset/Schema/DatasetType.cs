namespace HiddenCost.Dataset.Schema;

/// <summary>
/// The only column types a dataset holds: the ones Spark, Kusto, Trino and DuckDB read alike (no unsigned integers,
/// no UUID or nanosecond timestamp logical types, which engines read differently or not at all).
/// </summary>
public enum DatasetType
{
    /// <summary>Parquet INT64 with the converted type INT_64 (signed). CLR <see cref="long"/>.</summary>
    Int64,
    /// <summary>Parquet DOUBLE. CLR <see cref="double"/>.</summary>
    Double,
    /// <summary>Parquet BYTE_ARRAY with the converted type UTF8 (a string). CLR <see cref="string"/>.</summary>
    Text,
    /// <summary>Parquet BOOLEAN. CLR <see cref="bool"/>.</summary>
    Boolean,
    /// <summary>Parquet INT64 TIMESTAMP(isAdjustedToUTC=true, MICROS): an instant. CLR <see cref="DateTime"/> (UTC).</summary>
    TimestampUtc,
}

/// <summary>How each dataset type is named by DuckDB, by Parquet's schema, by Spark SQL and by Kusto: one row per type.</summary>
public static class DatasetTypes
{
    private readonly record struct Names(string DuckDb, string Physical, string Logical, string Spark, string Kusto);

    private static Names Of(DatasetType type) => type switch
    {
        DatasetType.Int64 => new("BIGINT", "INT64", "INT_64 (signed)", "BIGINT", "long"),
        DatasetType.Double => new("DOUBLE", "DOUBLE", "none", "DOUBLE", "real"),
        DatasetType.Text => new("VARCHAR", "BYTE_ARRAY", "UTF8 (string)", "STRING", "string"),
        DatasetType.Boolean => new("BOOLEAN", "BOOLEAN", "none", "BOOLEAN", "bool"),
        DatasetType.TimestampUtc => new("TIMESTAMPTZ", "INT64", "TIMESTAMP(isAdjustedToUTC=true, MICROS)", "TIMESTAMP", "datetime"),
        _ => throw new ArgumentOutOfRangeException(nameof(type), type, null),
    };

    public static string DuckDbName(DatasetType type) => Of(type).DuckDb;

    /// <summary>The Parquet physical type and converted or logical type, as parquet_schema() shows them and the schema test checks them.</summary>
    public static (string Physical, string Logical) Parquet(DatasetType type) => (Of(type).Physical, Of(type).Logical);

    /// <summary>The type Spark SQL reads the column as.</summary>
    public static string SparkName(DatasetType type) => Of(type).Spark;

    /// <summary>The type a Kusto external table declares for the column.</summary>
    public static string KustoName(DatasetType type) => Of(type).Kusto;
}
