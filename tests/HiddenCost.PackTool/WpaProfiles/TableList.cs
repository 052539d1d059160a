using HiddenCost.PackTool.Common;

namespace HiddenCost.PackTool.WpaProfiles;

/// <summary>One line of a table list: a table name, its GUID and (for WPA's own tables) where the GUID was read.</summary>
public sealed record TableEntry(string Name, Guid Id, string Source, int Line);

/// <summary>
/// The table lists in wpaProfiles/: <c>hiddencost-tables.txt</c> (name → GUID) and <c>wpa-builtin-tables.txt</c>
/// (name → GUID → public source). Lines are tab-separated; <c>#</c> lines are comments.
/// </summary>
public sealed class TableList
{
    private TableList(IReadOnlyList<TableEntry> entries) => Entries = entries;

    public IReadOnlyList<TableEntry> Entries { get; }

    public TableEntry? ByName(string name) => Entries.FirstOrDefault(e => e.Name == name);

    public TableEntry? ById(Guid id) => Entries.FirstOrDefault(e => e.Id == id);

    public TableEntry Require(string name) => ByName(name)
        ?? throw new InvalidOperationException($"table '{name}' is not in the table list");

    /// <summary>Parses a list; <paramref name="sourceRequired"/> makes the third (source) column mandatory.</summary>
    public static TableList Parse(IEnumerable<string> lines, string fileName, bool sourceRequired, List<PackIssue> issues)
    {
        var entries = new List<TableEntry>();
        int n = 0;
        foreach (var line in lines)
        {
            n++;
            if (line.Length == 0 || line.StartsWith('#')) continue;
            var f = line.Split('\t');
            if (f.Length < 2 || f.Length > 3 || (sourceRequired && f.Length != 3))
            {
                issues.Add(new PackIssue(fileName, n, "field-count",
                    sourceRequired ? "expected: name<TAB>GUID<TAB>source" : "expected: name<TAB>GUID"));
                continue;
            }
            if (!Guid.TryParse(f[1], out var id))
            {
                issues.Add(new PackIssue(fileName, n, "table-guid", $"'{f[1]}' is not a GUID"));
                continue;
            }
            if (entries.FirstOrDefault(e => e.Name == f[0] || e.Id == id) is { } dup)
            {
                issues.Add(new PackIssue(fileName, n, "duplicate-table", $"'{f[0]}' {id} repeats line {dup.Line}"));
                continue;
            }
            entries.Add(new TableEntry(f[0], id, f.Length == 3 ? f[2] : "", n));
        }
        return new TableList(entries);
    }

    public static TableList Load(string path, string displayName, bool sourceRequired, List<PackIssue> issues) =>
        Parse(File.ReadAllLines(path), displayName, sourceRequired, issues);
}
