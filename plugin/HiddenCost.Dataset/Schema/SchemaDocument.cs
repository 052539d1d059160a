using System.Text;

namespace HiddenCost.Dataset.Schema;

/// <summary>
/// SCHEMA.md, generated from <see cref="DatasetSchema"/>: every table and column with its Parquet, Spark and Kusto
/// types. A test compares the committed file with this text, so the document cannot drift from the files.
/// </summary>
public static class SchemaDocument
{
    public const string FileName = "SCHEMA.md";

    public static string Markdown()
    {
        var s = new StringBuilder();
        s.Append("# HiddenCost dataset schema\n\n");
        s.Append("Generated from the table model by `SchemaDocument` (plugin/HiddenCost.Dataset/Schema); do not edit: the test\n");
        s.Append("`SchemaDocument_IsTheCommittedOne` fails when this file and the model disagree, and rewrites it when run with\n");
        s.Append("`HIDDENCOST_UPDATE_SCHEMA=1`. Rules (names, types, layout): [README.md](README.md).\n\n");
        s.Append("| Table | Folder and view | Columns |\n|---|---|---|\n");
        foreach (var t in DatasetSchema.All) s.Append($"| [{t.Title}](#{t.Name}) | `{t.Name}/` | {t.Columns.Count} |\n");
        foreach (var t in DatasetSchema.All)
        {
            s.Append($"\n## {t.Name}\n\n");
            s.Append(t.SourceId is { } id ? $"From the table **{t.Title}** (`{id}`). {t.Description}\n\n" : $"{t.Description}\n\n");
            s.Append("| Column | Parquet physical | Parquet converted / logical | Spark | Kusto | Unit | Model column | Description |\n");
            s.Append("|---|---|---|---|---|---|---|---|\n");
            foreach (var c in t.Columns)
            {
                var (physical, logical) = DatasetTypes.Parquet(c.Type);
                s.Append($"| `{c.Name}` | {physical} | {logical} | {DatasetTypes.SparkName(c.Type)} | {DatasetTypes.KustoName(c.Type)} | {c.Unit} | " +
                         $"{(c.SourceName is null ? "" : Cell(c.SourceName))} | {Cell(c.Description)} |\n");
            }
            s.Append($"\nKusto schema: `{KustoSchema(t)}`\n");
        }
        return s.ToString();
    }

    /// <summary>The column list a Kusto <c>.create external table</c> takes.</summary>
    public static string KustoSchema(DatasetTable table) =>
        string.Join(", ", table.Columns.Select(c => $"{c.Name}:{DatasetTypes.KustoName(c.Type)}"));

    private static string Cell(string text) => text.Replace("|", "\\|").Replace("\n", " ");
}
