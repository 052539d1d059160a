using System.Text.RegularExpressions;

namespace HiddenCost.Cli.Tests.Readme;

/// <summary>
/// What the README tests read from a Markdown file: its lines, its links, its headings' anchors as GitHub makes
/// them, and the rows of a table under a heading. Only as much Markdown as our READMEs use.
/// </summary>
public sealed partial class MarkdownFile
{
    public string Path { get; }
    public string[] Lines { get; }

    public MarkdownFile(string path)
    {
        Path = path;
        Lines = File.ReadAllLines(path);
    }

    /// <summary>Link targets outside fenced code blocks, with the line each is on (1-based).</summary>
    public IEnumerable<(int Line, string Target)> Links()
    {
        bool fenced = false;
        for (int i = 0; i < Lines.Length; i++)
        {
            if (Lines[i].TrimStart().StartsWith("```", StringComparison.Ordinal)) fenced = !fenced;
            if (fenced) continue;
            foreach (Match m in LinkPattern().Matches(WithoutCodeSpans(Lines[i])))
                yield return (i + 1, m.Groups[1].Value);
        }
    }

    /// <summary>The anchors GitHub gives this file's headings (lower case, punctuation dropped, spaces to hyphens).</summary>
    public IReadOnlySet<string> Anchors()
    {
        var anchors = new HashSet<string>(StringComparer.Ordinal);
        bool fenced = false;
        foreach (var line in Lines)
        {
            if (line.TrimStart().StartsWith("```", StringComparison.Ordinal)) fenced = !fenced;
            if (fenced || !line.StartsWith('#')) continue;
            var text = line.TrimStart('#').Trim().ToLowerInvariant();
            var slug = new string(text.Where(c => char.IsLetterOrDigit(c) || c is ' ' or '-' or '_').ToArray()).Replace(' ', '-');
            anchors.Add(slug);
        }
        return anchors;
    }

    /// <summary>The cells of each row of the first table after the heading <paramref name="heading"/> (header and rule left out).</summary>
    public IReadOnlyList<string[]> TableUnder(string heading)
    {
        int start = Array.FindIndex(Lines, l => l.TrimEnd() == heading);
        if (start < 0) throw new AssertFailedException($"{Path} has no heading '{heading}'");
        var rows = Lines.Skip(start + 1).SkipWhile(l => !l.StartsWith('|')).TakeWhile(l => l.StartsWith('|'))
            .Select(l => l.Trim().Trim('|').Split('|').Select(c => c.Trim()).ToArray()).ToList();
        return rows.Skip(2).ToList();
    }

    private static string WithoutCodeSpans(string line) => CodeSpanPattern().Replace(line, "");

    [GeneratedRegex(@"\]\(([^)\s]+)\)")]
    private static partial Regex LinkPattern();

    [GeneratedRegex(@"`[^`]*`")]
    private static partial Regex CodeSpanPattern();
}
