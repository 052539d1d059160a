using HiddenCost.PackTool.Common;
using HiddenCost.TestSupport;

namespace HiddenCost.ProfilePack.Tests;

/// <summary>The repository's profile-pack files and the allowed WPR values, for every test.</summary>
internal static class Pack
{
    public static RepositoryLayout Layout { get; } = new(SharedFolder.RepositoryRoot);

    public static IReadOnlySet<string> Keywords { get; } = WordList.Load(Layout.SystemKeywords);

    public static IReadOnlySet<string> Stacks { get; } = WordList.Load(Layout.SystemStacks);

    public static string Read(string path) => File.ReadAllText(path);

    /// <summary>Fails with every issue listed, one per line, so a broken file reads like a compiler log.</summary>
    public static void AssertNoIssues(IEnumerable<PackIssue> issues)
    {
        var list = issues.ToList();
        Assert.AreEqual(0, list.Count, "issues:\n" + string.Join("\n", list));
    }

    /// <summary>Asserts exactly one issue with <paramref name="rule"/> at <paramref name="line"/> and returns it.</summary>
    public static PackIssue AssertSingle(IEnumerable<PackIssue> issues, string rule, int line)
    {
        var matching = issues.Where(i => i.Rule == rule).ToList();
        Assert.AreEqual(1, matching.Count, $"expected one '{rule}' issue, got:\n" + string.Join("\n", issues));
        Assert.AreEqual(line, matching[0].Line, matching[0].ToString());
        return matching[0];
    }
}
