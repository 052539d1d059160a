using System.Text.Json;
using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;

namespace HiddenCost.Cli.Output;

/// <summary>
/// JSON: one object per trace, <c>{ "trace", "error", "warning", "tables": [{ "name", "guid", "notes", "columns":
/// [{"name","unit","type"}], "rows": [[typed values…]] }] }</c>; timestamps and durations as integer ns.
/// </summary>
public static class JsonWriter
{
    public static void WriteTrace(Utf8JsonWriter j, AnalysisResult result, IReadOnlyList<Table> tables)
    {
        j.WriteStartObject();
        j.WriteString("trace", result.TracePath);
        if (result.Error is null) j.WriteNull("error");
        else j.WriteString("error", result.Error);
        if (result.Warning is null) j.WriteNull("warning");
        else j.WriteString("warning", result.Warning);
        j.WriteStartArray("tables");
        foreach (var table in tables)
        {
            j.WriteStartObject();
            j.WriteString("name", table.Spec.Name);
            j.WriteString("guid", table.Spec.Id);
            j.WriteStartArray("notes");
            foreach (var n in table.Notes) j.WriteStringValue(n.Text);
            j.WriteEndArray();
            j.WriteStartArray("columns");
            foreach (var c in table.Spec.Columns)
            {
                j.WriteStartObject();
                j.WriteString("name", c.Name);
                j.WriteString("unit", CellFormatter.UnitName(c.Unit, c.Type));
                j.WriteString("type", CellFormatter.TypeName(c.Type));
                j.WriteEndObject();
            }
            j.WriteEndArray();
            j.WriteStartArray("rows");
            for (int row = 0; row < table.RowCount; row++)
            {
                j.WriteStartArray();
                for (int column = 0; column < table.Columns.Count; column++) WriteValue(j, table.Value(row, column));
                j.WriteEndArray();
            }
            j.WriteEndArray();
            j.WriteEndObject();
        }
        j.WriteEndArray();
        j.WriteEndObject();
    }

    private static void WriteValue(Utf8JsonWriter j, object? value)
    {
        switch (value)
        {
            case null: j.WriteNullValue(); break;
            case long l: j.WriteNumberValue(l); break;
            case double d when double.IsFinite(d): j.WriteNumberValue(d); break;
            case double: j.WriteNullValue(); break;
            case bool b: j.WriteBooleanValue(b); break;
            case Guid g: j.WriteStringValue(g); break;
            default: j.WriteStringValue(value.ToString()); break;
        }
    }
}
