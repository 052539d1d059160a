using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace HiddenCost.Cli.Tests.Golden;

/// <summary>
/// The CLI's JSON output for one trace in a form that diffs line by line: a header line (error, warning), then per
/// table a line with its name, GUID, notes and column names followed by one line per row (its cells as compact JSON).
/// The trace's path (which differs between machines, and for zipped samples is a temp copy) reads <c>{trace}</c>.
/// </summary>
public sealed record GoldenOutput(string Header, IReadOnlyList<GoldenTable> Tables)
{
    private const string TracePlaceholder = "{trace}";

    private static readonly JsonWriterOptions Compact = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    /// <summary>From the text `hiddencost --format json` writes for one trace.</summary>
    public static GoldenOutput FromCliJson(string cliJson, string tracePath)
    {
        using var doc = JsonDocument.Parse(cliJson);
        var trace = doc.RootElement.EnumerateArray().Single();
        var header = Line(w =>
        {
            w.WriteStartObject();
            w.WritePropertyName("error");
            trace.GetProperty("error").WriteTo(w);
            w.WritePropertyName("warning");
            trace.GetProperty("warning").WriteTo(w);
            w.WriteEndObject();
        }, tracePath);
        var tables = new List<GoldenTable>();
        foreach (var table in trace.GetProperty("tables").EnumerateArray())
        {
            var columns = table.GetProperty("columns").EnumerateArray().Select(c => c.GetProperty("name").GetString()!).ToArray();
            var rows = table.GetProperty("rows").EnumerateArray()
                .Select(row => row.EnumerateArray().Select(cell => Line(cell.WriteTo, tracePath)).ToArray())
                .ToArray();
            tables.Add(new GoldenTable(
                table.GetProperty("name").GetString()!,
                table.GetProperty("guid").GetString()!,
                table.GetProperty("notes").EnumerateArray().Select(n => n.GetString()!.Replace(tracePath, TracePlaceholder)).ToArray(),
                columns,
                rows));
        }
        return new GoldenOutput(header, tables);
    }

    /// <summary>The lines of a golden file.</summary>
    public string ToText()
    {
        var sb = new StringBuilder();
        sb.Append(Header).Append('\n');
        foreach (var t in Tables)
        {
            sb.Append(Line(w =>
            {
                w.WriteStartObject();
                w.WriteString("table", t.Name);
                w.WriteString("guid", t.Guid);
                w.WriteStartArray("notes");
                foreach (var n in t.Notes) w.WriteStringValue(n);
                w.WriteEndArray();
                w.WriteStartArray("columns");
                foreach (var c in t.Columns) w.WriteStringValue(c);
                w.WriteEndArray();
                w.WriteNumber("rows", t.Rows.Count);
                w.WriteEndObject();
            }, null)).Append('\n');
            foreach (var row in t.Rows) sb.Append('[').Append(string.Join(",", row)).Append("]\n");
        }
        return sb.ToString();
    }

    /// <summary>Reads a golden file written by <see cref="ToText"/>.</summary>
    public static GoldenOutput Parse(string text)
    {
        var lines = text.ReplaceLineEndings("\n").TrimEnd('\n').Split('\n');
        var tables = new List<GoldenTable>();
        int at = 1;
        while (at < lines.Length)
        {
            using var head = JsonDocument.Parse(lines[at++]);
            var h = head.RootElement;
            int count = h.GetProperty("rows").GetInt32();
            var rows = new List<string[]>();
            for (int r = 0; r < count; r++)
            {
                using var row = JsonDocument.Parse(lines[at++]);
                rows.Add(row.RootElement.EnumerateArray().Select(cell => Line(cell.WriteTo, null)).ToArray());
            }
            tables.Add(new GoldenTable(
                h.GetProperty("table").GetString()!,
                h.GetProperty("guid").GetString()!,
                h.GetProperty("notes").EnumerateArray().Select(n => n.GetString()!).ToArray(),
                h.GetProperty("columns").EnumerateArray().Select(c => c.GetString()!).ToArray(),
                rows));
        }
        return new GoldenOutput(lines[0], tables);
    }

    /// <summary>
    /// Null when <paramref name="actual"/> holds every table, column, note and cell of this golden output unchanged;
    /// else the first difference in words. Tables and columns the golden output lacks are not compared.
    /// </summary>
    public string? FirstDifference(GoldenOutput actual)
    {
        if (Header != actual.Header) return $"header: expected {Header}, got {actual.Header}";
        foreach (var expected in Tables)
        {
            var table = actual.Tables.FirstOrDefault(t => t.Guid == expected.Guid);
            if (table is null) return $"table {expected.Name} ({expected.Guid}) is missing";
            if (table.Name != expected.Name) return $"table {expected.Guid}: named '{table.Name}', expected '{expected.Name}'";
            if (!table.Notes.SequenceEqual(expected.Notes))
                return $"table {expected.Name}: notes differ: expected [{string.Join(" | ", expected.Notes)}], got [{string.Join(" | ", table.Notes)}]";
            if (table.Rows.Count != expected.Rows.Count) return $"table {expected.Name}: {table.Rows.Count} rows, expected {expected.Rows.Count}";
            for (int c = 0; c < expected.Columns.Count; c++)
            {
                int index = Array.IndexOf(table.Columns.ToArray(), expected.Columns[c]);
                if (index < 0) return $"table {expected.Name}: column '{expected.Columns[c]}' is missing";
                for (int r = 0; r < expected.Rows.Count; r++)
                    if (table.Rows[r][index] != expected.Rows[r][c])
                        return $"table {expected.Name}, row {r}, column '{expected.Columns[c]}': expected {expected.Rows[r][c]}, got {table.Rows[r][index]}";
            }
        }
        return null;
    }

    private static string Line(Action<Utf8JsonWriter> write, string? tracePath)
    {
        using var buffer = new MemoryStream();
        using (var w = new Utf8JsonWriter(buffer, Compact)) write(w);
        var text = Encoding.UTF8.GetString(buffer.ToArray());
        return tracePath is null ? text : text.Replace(tracePath, TracePlaceholder);
    }
}

/// <summary>One table of a <see cref="GoldenOutput"/>: its cells as compact JSON, row by row in column order.</summary>
public sealed record GoldenTable(string Name, string Guid, IReadOnlyList<string> Notes, IReadOnlyList<string> Columns, IReadOnlyList<string[]> Rows);
