using System.Globalization;
using System.Text.Json;
using HiddenCost.Analysis.Tables.Findings;
using HiddenCost.Analysis.Tables.Findings.Comparison;

namespace HiddenCost.Cli.Output;

/// <summary>
/// `compare` output. Text: the verdict line, then each finding with its figures before → after and the change. CSV: one
/// row per finding and figure, after a first row whose Problem is "Verdict". JSON: one object with the verdict, the
/// counts and the findings with their figures (numbers as numbers, null where a trace has none).
/// </summary>
public static class ComparisonWriter
{
    public static void Write(TextWriter w, OutputFormat format, string before, string after, ComparisonResult c)
    {
        switch (format)
        {
            case OutputFormat.Json: Json(w, before, after, c); break;
            case OutputFormat.Csv: Csv(w, before, after, c); break;
            default: Text(w, before, after, c); break;
        }
    }

    private static void Text(TextWriter w, string before, string after, ComparisonResult c)
    {
        w.WriteLine($"# compare {before} -> {after}");
        w.WriteLine($"Verdict: {c.VerdictLine}.");
        foreach (var f in c.Findings)
        {
            w.WriteLine();
            w.WriteLine($"{Word(f.Change)}: {f.Problem}: {f.Culprit} (severity {SeverityNames.Name(f.Before)} -> {SeverityNames.Name(f.After)})");
            int width = f.Figures.Max(x => Label(x).Length);
            foreach (var x in f.Figures)
                w.WriteLine($"  {Label(x).PadRight(width)}  {Value(x.Before)} -> {Value(x.After)}{Difference(x)}");
            w.WriteLine($"  Recommendation: {f.Recommendation}");
        }
    }

    private static void Csv(TextWriter w, string before, string after, ComparisonResult c)
    {
        w.WriteLine("Before Trace,After Trace,Problem,Culprit,Change,Severity Before,Severity After,Figure,Unit,Before,After,Difference,Difference (%),Beyond Noise");
        w.WriteLine(Line(before, after, "Verdict", "", c.Verdict.ToString().ToLowerInvariant(), "", "", "", "", "", "", "", "", ""));
        foreach (var f in c.Findings)
            foreach (var x in f.Figures)
                w.WriteLine(Line(before, after, f.Problem, f.Culprit, Word(f.Change).ToLowerInvariant(), SeverityNames.Name(f.Before), SeverityNames.Name(f.After),
                    x.Name, x.Unit, Raw(x.Before), Raw(x.After), Raw(x.Difference), Raw(x.DifferencePercent), x.Moved ? "yes" : "no"));
    }

    private static void Json(TextWriter w, string before, string after, ComparisonResult c)
    {
        using var stream = new TextWriterStream(w);
        using var j = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true });
        j.WriteStartObject();
        j.WriteString("before", before);
        j.WriteString("after", after);
        j.WriteString("verdict", c.Verdict.ToString().ToLowerInvariant());
        j.WriteStartObject("counts");
        foreach (var change in Enum.GetValues<Change>()) j.WriteNumber(Word(change).ToLowerInvariant(), c.Count(change));
        j.WriteEndObject();
        j.WriteStartArray("findings");
        foreach (var f in c.Findings)
        {
            j.WriteStartObject();
            j.WriteString("problem", f.Problem);
            j.WriteString("culprit", f.Culprit);
            j.WriteString("change", Word(f.Change).ToLowerInvariant());
            j.WriteString("severityBefore", SeverityNames.Name(f.Before));
            j.WriteString("severityAfter", SeverityNames.Name(f.After));
            j.WriteString("recommendation", f.Recommendation);
            j.WriteStartArray("figures");
            foreach (var x in f.Figures)
            {
                j.WriteStartObject();
                j.WriteString("name", x.Name);
                j.WriteString("unit", x.Unit);
                Number(j, "before", x.Before);
                Number(j, "after", x.After);
                Number(j, "difference", x.Difference);
                Number(j, "differencePercent", x.DifferencePercent);
                j.WriteBoolean("beyondNoise", x.Moved);
                j.WriteEndObject();
            }
            j.WriteEndArray();
            j.WriteEndObject();
        }
        j.WriteEndArray();
        j.WriteEndObject();
        j.Flush();
        w.WriteLine();
    }

    private static void Number(Utf8JsonWriter j, string name, double? value)
    {
        if (value is { } v && double.IsFinite(v)) j.WriteNumber(name, v);
        else j.WriteNull(name);
    }

    private static string Word(Change change) => change == Change.NotChecked ? "Not checked after" : change.ToString();

    private static string Label(FigureChange x) => x.Unit.Length > 0 ? $"{x.Name} ({x.Unit})" : x.Name;

    private static string Value(double? v) => v is { } d ? d.ToString(Math.Abs(d) >= 100 || d == Math.Round(d) ? "#,0.#" : "#,0.###", CultureInfo.InvariantCulture) : "-";

    private static string Difference(FigureChange x)
    {
        if (x.Difference is not { } d) return "";
        var percent = x.DifferencePercent is { } p ? $", {p.ToString("+0.0;-0.0;0", CultureInfo.InvariantCulture)}%" : "";
        var sign = d > 0 ? "+" : "";
        return $"  ({sign}{Value(d)}{percent}{(x.Moved ? "" : ", within noise")})";
    }

    private static string Raw(double? v) => v is { } d ? d.ToString("R", CultureInfo.InvariantCulture) : "";

    private static string Line(params string[] cells) =>
        string.Join(",", cells.Select(s => s.IndexOfAny([',', '"', '\n', '\r']) >= 0 ? "\"" + s.Replace("\"", "\"\"") + "\"" : s));
}
