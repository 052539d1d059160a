using HiddenCost.Analysis.Model;

namespace HiddenCost.Dataset.Schema;

/// <summary>
/// How a model column's type becomes a dataset type: integers (counts, bytes, ids) INT64; decimals (figures in ms, µs,
/// MB, %, ratios) DOUBLE; timestamps (ns since trace start) and durations (ns) INT64 named with "_ns"; text and GUIDs
/// UTF-8 strings (a GUID as its 36-character form: engines read the UUID logical type differently); booleans BOOLEAN.
/// </summary>
public static class TypeRule
{
    public static DatasetType For(ColumnType type) => type switch
    {
        ColumnType.Text or ColumnType.Guid => DatasetType.Text,
        ColumnType.Integer or ColumnType.Timestamp or ColumnType.Duration => DatasetType.Int64,
        ColumnType.Decimal => DatasetType.Double,
        ColumnType.Boolean => DatasetType.Boolean,
        _ => throw new ArgumentOutOfRangeException(nameof(type), type, null),
    };

    public static bool IsNanoseconds(ColumnType type) => type is ColumnType.Timestamp or ColumnType.Duration;

    public static string Unit(ColumnSpec c) => IsNanoseconds(c.Type) ? "ns" : c.Unit switch
    {
        ColumnUnit.None => "",
        ColumnUnit.Count => "count",
        ColumnUnit.Bytes => "bytes",
        ColumnUnit.Megabytes => "MB",
        ColumnUnit.Nanoseconds => "ns",
        ColumnUnit.Microseconds => "µs",
        ColumnUnit.Milliseconds => "ms",
        ColumnUnit.Percent => "%",
        ColumnUnit.PerSecond => "1/s",
        ColumnUnit.Ratio => "ratio",
        ColumnUnit.Megahertz => "MHz",
        _ => c.Unit.ToString(),
    };
}
