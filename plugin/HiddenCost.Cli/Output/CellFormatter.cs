using System.Globalization;
using HiddenCost.Analysis.Model;

namespace HiddenCost.Cli.Output;

/// <summary>
/// How a cell reads in text output: timestamps and durations in seconds/ms the way WPA shows them, decimals
/// rounded to one precision per column (by its unit, so a column's figures line up), counts grouped in thousands,
/// identifiers (a PID, a build number: integers without a unit) not, lock ids in hex. CSV and JSON keep the typed
/// raw values instead.
/// </summary>
public static class CellFormatter
{
    public static string Text(ColumnSpec column, object? value) => value switch
    {
        null => "",
        long ns when column.Type == ColumnType.Timestamp => (ns / 1e9).ToString("0.000000000", CultureInfo.InvariantCulture) + " s",
        long ns when column.Type == ColumnType.Duration => (ns / 1e6).ToString("#,0.000", CultureInfo.InvariantCulture) + " ms",
        long n when column.Format == "hex" => "0x" + n.ToString("X", CultureInfo.InvariantCulture),
        long n when column.Unit == ColumnUnit.None => n.ToString(CultureInfo.InvariantCulture),
        long n => n.ToString("N0", CultureInfo.InvariantCulture),
        double d when double.IsNaN(d) || double.IsInfinity(d) => "",
        double d => Decimal(d, column.Unit),
        bool b => b ? "yes" : "no",
        Guid g => g.ToString(),
        string s => s,
        _ => Convert.ToString(value, CultureInfo.InvariantCulture) ?? "",
    };

    /// <summary>Every cell of the table as <see cref="Text"/> writes it, row by row.</summary>
    public static string[][] TextCells(Table table)
    {
        var cells = new string[table.RowCount][];
        for (int row = 0; row < cells.Length; row++)
        {
            cells[row] = new string[table.Columns.Count];
            for (int column = 0; column < cells[row].Length; column++)
                cells[row][column] = Text(table.Spec.Columns[column], table.Value(row, column));
        }
        return cells;
    }

    /// <summary>
    /// The column's precision, except that a figure it would round to zero keeps two significant digits: a rate of one
    /// yield in 30 s is 0.033, not 0.0, and 4 KB read is 0.0039 MB, not 0.00.
    /// </summary>
    private static string Decimal(double d, ColumnUnit unit)
    {
        var text = d.ToString(DecimalFormat(unit), CultureInfo.InvariantCulture);
        if (d == 0 || text.Any(c => c is >= '1' and <= '9')) return text;
        int places = Math.Min(15, 1 - (int)Math.Floor(Math.Log10(Math.Abs(d))));
        return d.ToString("0." + new string('#', places), CultureInfo.InvariantCulture);
    }

    /// <summary>Milliseconds and microseconds to the thousandth (µs and ns, as durations print), shares to a tenth.</summary>
    private static string DecimalFormat(ColumnUnit unit) => unit switch
    {
        ColumnUnit.Milliseconds or ColumnUnit.Microseconds or ColumnUnit.Nanoseconds => "#,0.000",
        ColumnUnit.Ratio or ColumnUnit.Megabytes => "#,0.00",
        ColumnUnit.Percent or ColumnUnit.PerSecond or ColumnUnit.Bytes or ColumnUnit.Count => "#,0.0",
        _ => "#,0.###",
    };

    /// <summary>A table's size in its heading: "1 row", "8,192 rows".</summary>
    public static string RowCount(int count) =>
        count == 1 ? "1 row" : count.ToString("N0", CultureInfo.InvariantCulture) + " rows";

    /// <summary>Raw invariant text for CSV: numbers unformatted, timestamps in ns.</summary>
    public static string Raw(object? value) => value switch
    {
        null => "",
        double d => d.ToString("R", CultureInfo.InvariantCulture),
        IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };

    /// <summary>Numbers right-aligned in text tables.</summary>
    public static bool IsNumeric(ColumnSpec column) =>
        column.Type is ColumnType.Integer or ColumnType.Decimal or ColumnType.Timestamp or ColumnType.Duration;

    public static string UnitName(ColumnUnit unit, ColumnType type) => type switch
    {
        ColumnType.Timestamp or ColumnType.Duration => "ns",
        _ => unit switch
        {
            ColumnUnit.None => "",
            ColumnUnit.Count => "count",
            ColumnUnit.Bytes => "bytes",
            ColumnUnit.Megabytes => "MB",
            ColumnUnit.Nanoseconds => "ns",
            ColumnUnit.Microseconds => "us",
            ColumnUnit.Milliseconds => "ms",
            ColumnUnit.Percent => "%",
            ColumnUnit.PerSecond => "1/s",
            ColumnUnit.Ratio => "x",
            ColumnUnit.Megahertz => "MHz",
            _ => unit.ToString(),
        },
    };

    public static string TypeName(ColumnType type) => type switch
    {
        ColumnType.Text => "string",
        ColumnType.Integer => "integer",
        ColumnType.Decimal => "number",
        ColumnType.Timestamp => "timestamp",
        ColumnType.Duration => "duration",
        ColumnType.Guid => "guid",
        ColumnType.Boolean => "boolean",
        _ => type.ToString(),
    };
}
