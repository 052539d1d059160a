namespace HiddenCost.PackTool.Common;

/// <summary>Where the profile-pack files live, relative to the repository root (the folder with HiddenCost.slnx).</summary>
public sealed record RepositoryLayout(string Root)
{
    public string Wprp => Path.Combine(Root, "wprp", "MultiProfile.wprp");
    public string SystemKeywords => Path.Combine(Root, "wprp", "schema", "system-keywords.txt");
    public string SystemStacks => Path.Combine(Root, "wprp", "schema", "system-stacks.txt");
    public string StackTags => Path.Combine(Root, "stacktags", "HiddenCost.stacktags");
    public string WpaProfiles => Path.Combine(Root, "wpaProfiles");
    public string HiddenCostTables => Path.Combine(WpaProfiles, "hiddencost-tables.txt");
    public string WpaBuiltInTables => Path.Combine(WpaProfiles, "wpa-builtin-tables.txt");
    public string SecurityDrivers => Path.Combine(Root, "plugin", "HiddenCost.Analysis", "Catalogs", "SecurityDrivers.tsv");

    /// <summary>The path relative to the root with forward slashes, for messages that read the same everywhere.</summary>
    public string Display(string path) => Path.GetRelativePath(Root, path).Replace('\\', '/');

    /// <summary>Walks up from <paramref name="start"/> to the folder holding HiddenCost.slnx.</summary>
    public static RepositoryLayout Find(string start)
    {
        for (var dir = new DirectoryInfo(start); dir is not null; dir = dir.Parent)
            if (File.Exists(Path.Combine(dir.FullName, "HiddenCost.slnx"))) return new RepositoryLayout(dir.FullName);
        throw new DirectoryNotFoundException($"HiddenCost.slnx not found in {start} or any folder above it");
    }
}
