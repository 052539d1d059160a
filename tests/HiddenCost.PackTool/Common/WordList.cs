namespace HiddenCost.PackTool.Common;

/// <summary>
/// A data file of allowed values, one per line; <c>#</c> starts a comment. Used for the WPR keyword and stack
/// enumerations, whose sources the files name in their headers.
/// </summary>
public static class WordList
{
    public static IReadOnlySet<string> Load(string path) => Parse(File.ReadAllLines(path));

    public static IReadOnlySet<string> Parse(IEnumerable<string> lines)
    {
        var set = new HashSet<string>(StringComparer.Ordinal);
        foreach (var raw in lines)
        {
            var hash = raw.IndexOf('#');
            var word = (hash >= 0 ? raw[..hash] : raw).Trim();
            if (word.Length > 0) set.Add(word);
        }
        return set;
    }
}
