namespace HiddenCost.Cli;

/// <summary>
/// Finds the bundled synthetic sample trace (samples/hiddencost-sample.etl) that `hiddencost` analyses when
/// given no trace: next to the program first (it is copied there at build), else up the folder tree.
/// </summary>
public static class SampleLocator
{
    public const string SampleFileName = "hiddencost-sample.etl";

    public static string? Find() => Copies().FirstOrDefault();

    /// <summary>
    /// Every copy there is, the one <see cref="Find"/> gives first: the copy beside the program, then those up the
    /// folder tree (in a repository, the committed sample the build copies).
    /// </summary>
    public static IEnumerable<string> Copies()
    {
        var beside = Path.Combine(AppContext.BaseDirectory, "samples", SampleFileName);
        if (File.Exists(beside)) yield return beside;
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            var candidate = Path.Combine(dir.FullName, "samples", SampleFileName);
            if (candidate != beside && File.Exists(candidate)) yield return candidate;
        }
    }
}
