using System.Globalization;
using System.Reflection;

namespace HiddenCost.Dataset.Query;

/// <summary>
/// A query shipped with HiddenCost (Queries/NAME.sql), run by name. Its first lines say what it answers
/// (<c>-- title: …</c>) and which parameters it takes with their defaults (<c>-- param: min_us = 1.0</c>); the SQL
/// refers to a parameter as <c>$min_us</c>.
/// </summary>
public sealed record NamedQuery(string Name, string Title, string Sql, IReadOnlyDictionary<string, object> Defaults)
{
    private const string Prefix = "HiddenCost.Dataset.Queries.";

    public static IReadOnlyList<NamedQuery> All { get; } = Load();

    public static NamedQuery? Find(string name) => All.FirstOrDefault(q => string.Equals(q.Name, name, StringComparison.OrdinalIgnoreCase));

    /// <summary>A parameter's value from the command line: a number when it reads as one, else text.</summary>
    public static object ParseValue(string text) =>
        long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var l) ? l
        : double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var d) ? d
        : text;

    private static NamedQuery[] Load()
    {
        var assembly = typeof(NamedQuery).Assembly;
        return assembly.GetManifestResourceNames()
            .Where(n => n.StartsWith(Prefix, StringComparison.Ordinal) && n.EndsWith(".sql", StringComparison.Ordinal))
            .Select(n => Parse(n[Prefix.Length..^4], Read(assembly, n)))
            .OrderBy(q => q.Name, StringComparer.Ordinal)
            .ToArray();
    }

    private static string Read(Assembly assembly, string resource)
    {
        using var stream = assembly.GetManifestResourceStream(resource)!;
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }

    internal static NamedQuery Parse(string name, string sql)
    {
        string title = name;
        var defaults = new Dictionary<string, object>(StringComparer.Ordinal);
        foreach (var line in sql.Split('\n').Select(l => l.Trim()).TakeWhile(l => l.StartsWith("--", StringComparison.Ordinal)))
        {
            var text = line[2..].Trim();
            if (text.StartsWith("title:", StringComparison.Ordinal)) title = text["title:".Length..].Trim();
            else if (text.StartsWith("param:", StringComparison.Ordinal))
            {
                var parts = text["param:".Length..].Split('=', 2, StringSplitOptions.TrimEntries);
                if (parts.Length != 2) throw new FormatException($"query {name}: '{line}' is not 'param: NAME = DEFAULT'");
                defaults[parts[0]] = ParseValue(parts[1]);
            }
        }
        return new NamedQuery(name, title, sql, defaults);
    }
}
