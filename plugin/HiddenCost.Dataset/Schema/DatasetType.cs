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

/// <summary>How each dataset type is named by DuckDB and by Parquet's schema.</summary>
public static class DatasetTypes
{
    public static string DuckDbName(DatasetType type) => type switch
    {
        DatasetType.Int64 => "BIGINT",
        DatasetType.Double => "DOUBLE",
        DatasetType.Text => "VARCHAR",
        DatasetType.Boolean => "BOOLEAN",
        DatasetType.TimestampUtc => "TIMESTAMPTZ",
        _ => throw new ArgumentOutOfRangeException(nameof(type), type, null),
    };

    /// <summary>The Parquet physical type and converted or logical type, as parquet_schema() shows them and the schema test checks them.</summary>
    public static (string Physical, string Logical) Parquet(DatasetType type) => type switch
    {
        DatasetType.Int64 => ("INT64", "INT_64 (signed)"),
        DatasetType.Double => ("DOUBLE", "none"),
        DatasetType.Text => ("BYTE_ARRAY", "UTF8 (string)"),
        DatasetType.Boolean => ("BOOLEAN", "none"),
        DatasetType.TimestampUtc => ("INT64", "TIMESTAMP(isAdjustedToUTC=true, MICROS)"),
        _ => throw new ArgumentOutOfRangeException(nameof(type), type, null),
    };

    /// <summary>The type Spark SQL gives the column (for the README's DDL).</summary>
    public static string SparkName(DatasetType type) => type switch
    {
        DatasetType.Int64 => "BIGINT",
        DatasetType.Double => "DOUBLE",
        DatasetType.Text => "STRING",
        DatasetType.Boolean => "BOOLEAN",
        DatasetType.TimestampUtc => "TIMESTAMP",
        _ => throw new ArgumentOutOfRangeException(nameof(type), type, null),
    };

    /// <summary>The type a Kusto external table declares for the column.</summary>
    public static string KustoName(DatasetType type) => type switch
    {
        DatasetType.Int64 => "long",
        DatasetType.Double => "real",
        DatasetType.Text => "string",
        DatasetType.Boolean => "bool",
        DatasetType.TimestampUtc => "datetime",
        _ => throw new ArgumentOutOfRangeException(nameof(type), type, null),
    };
}
