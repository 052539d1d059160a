using System.Text.RegularExpressions;
using System.Xml.Linq;
using HiddenCost.Analysis;
using HiddenCost.TestSupport;

namespace HiddenCost.Cli.Tests.Readme;

/// <summary>
/// Keeps the top-level README.md true: its table list is the plugin's tables with their GUIDs, its links lead
/// somewhere, it stays short, and the commands, WPR profiles and CLI options it gives exist.
/// </summary>
[TestClass]
public sealed partial class ReadmeTruthTests
{
    private const int MaxReadmeLines = 150;
    private const string TestCommand = "dotnet test HiddenCost.slnx -c Release";
    private const string RunCommand = "dotnet run --project plugin/HiddenCost.Cli -c Release";

    private static string Root => SharedFolder.RepositoryRoot;
    private static MarkdownFile Readme => new(System.IO.Path.Combine(Root, "README.md"));
    private static string TablesFolder => System.IO.Path.Combine(Root, "plugin", "HiddenCost.Analysis", "Tables");

    [TestMethod]
    public void Readme_is_at_most_150_lines()
    {
        Assert.IsTrue(Readme.Lines.Length <= MaxReadmeLines,
            $"README.md has {Readme.Lines.Length} lines; at most {MaxReadmeLines}: move detail to the README of the folder that owns it");
    }

    [TestMethod]
    public void Every_table_in_the_readme_list_exists_with_its_guid_and_every_table_is_listed()
    {
        var listed = Readme.TableUnder("## Tables").Select(r => (Name: r[0], Guid: Guid.Parse(r[1]))).ToList();
        var actual = TableCatalog.All.Select(t => (t.Name, Guid: t.Id)).ToList();
        foreach (var row in listed)
            Assert.IsTrue(actual.Contains(row), $"README lists '{row.Name}' with GUID {row.Guid}, which no table of the plugin has");
        foreach (var table in actual)
            Assert.IsTrue(listed.Contains(table), $"table '{table.Name}' ({table.Guid}) is missing from README's table list");
        Assert.AreEqual(actual.Count, listed.Count, "each table listed once");
    }

    [TestMethod]
    public void Every_table_folder_has_a_method_readme_linked_from_the_table_list()
    {
        var methodLinks = Readme.TableUnder("## Tables").Select(r => LinkTarget(r[^1])).ToHashSet(StringComparer.Ordinal);
        foreach (var folder in Directory.GetDirectories(TablesFolder).Where(d => !IsBuildOutput(d)))
        {
            var readme = System.IO.Path.Combine(folder, "README.md");
            Assert.IsTrue(File.Exists(readme), $"{Relative(folder)} has no README.md saying how its figures are made");
            Assert.IsTrue(methodLinks.Contains(Relative(readme)), $"README's table list links no table to {Relative(readme)}");
        }
    }

    [TestMethod]
    public void The_recording_guide_the_cli_reference_and_every_readme_are_reached_from_readme()
    {
        var direct = Readme.Links().Select(l => Resolve(Readme, l.Target).Path).ToHashSet(StringComparer.Ordinal);
        foreach (var guide in new[] { "wprp/README.md", "plugin/HiddenCost.Cli/README.md", "wpaProfiles/README.md", "plugin/README.md" })
            Assert.IsTrue(direct.Contains(Full(guide)), $"README.md does not link {guide} (one click from README)");

        var reached = new HashSet<string>(StringComparer.Ordinal) { Readme.Path };
        var queue = new Queue<MarkdownFile>([Readme]);
        while (queue.Count > 0)
        {
            var file = queue.Dequeue();
            foreach (var (_, target) in file.Links())
            {
                var (path, _) = Resolve(file, target);
                if (Directory.Exists(path)) path = System.IO.Path.Combine(path, "README.md");
                if (path.EndsWith(".md", StringComparison.Ordinal) && File.Exists(path) && reached.Add(path))
                    queue.Enqueue(new MarkdownFile(path));
            }
        }
        foreach (var readme in AllReadmes())
            Assert.IsTrue(reached.Contains(readme), $"{Relative(readme)} cannot be reached by links from README.md");
    }

    [TestMethod]
    public void Every_relative_link_in_the_readmes_points_to_an_existing_file_folder_and_heading()
    {
        var broken = new List<string>();
        foreach (var file in AllReadmes().Select(p => new MarkdownFile(p)))
        {
            foreach (var (line, target) in file.Links())
            {
                if (IsExternal(target)) continue;
                var (path, anchor) = Resolve(file, target);
                if (!File.Exists(path) && !Directory.Exists(path))
                    broken.Add($"{Relative(file.Path)}:{line}: {target} (no such file or folder)");
                else if (anchor is not null && File.Exists(path) && path.EndsWith(".md", StringComparison.Ordinal)
                         && !new MarkdownFile(path).Anchors().Contains(anchor))
                    broken.Add($"{Relative(file.Path)}:{line}: {target} (no heading #{anchor} in {Relative(path)})");
            }
        }
        Assert.AreEqual(0, broken.Count, "broken links:\n" + string.Join("\n", broken));
    }

    [TestMethod]
    public void Every_source_file_the_readmes_name_exists_beside_them()
    {
        var missing = new List<string>();
        foreach (var file in AllReadmes().Select(p => new MarkdownFile(p)))
        {
            var folder = System.IO.Path.GetDirectoryName(file.Path)!;
            foreach (Match m in SourceFilePattern().Matches(string.Join("\n", file.Lines)))
            {
                var named = m.Groups[1].Value;
                // A path from the repository root, or a file in the README's folder or below it (code renamed or moved
                // without its README shows here).
                bool found = File.Exists(Full(named)) || Directory.EnumerateFiles(folder, System.IO.Path.GetFileName(named), SearchOption.AllDirectories)
                    .Any(p => !IsBuildOutput(p) && Relative(p).EndsWith("/" + named, StringComparison.Ordinal));
                if (!found) missing.Add($"{Relative(file.Path)}: {named}");
            }
        }
        Assert.AreEqual(0, missing.Count, "source files the READMEs name but the repository does not hold:\n" + string.Join("\n", missing));
    }

    [TestMethod]
    public void The_test_command_is_given_verbatim_and_is_the_one_ci_runs()
    {
        Assert.IsTrue(Readme.Lines.Contains("    " + TestCommand), $"README.md must give `{TestCommand}` as a command line");
        var ci = File.ReadAllLines(System.IO.Path.Combine(Root, ".ci", "run"));
        Assert.IsTrue(ci.Any(l => l.TrimStart().StartsWith(TestCommand + " ", StringComparison.Ordinal)),
            ".ci/run runs another test command than README's");
        Assert.IsTrue(File.Exists(System.IO.Path.Combine(Root, "HiddenCost.slnx")));
    }

    [TestMethod]
    public void The_run_command_names_the_cli_project_and_the_bundled_sample_it_opens()
    {
        Assert.IsTrue(Readme.Lines.Contains("    " + RunCommand), $"README.md must give `{RunCommand}` as a command line");
        var project = File.ReadAllText(Full("plugin/HiddenCost.Cli/HiddenCost.Cli.csproj"));
        StringAssert.Contains(project, "<AssemblyName>hiddencost</AssemblyName>", "the project README runs is the `hiddencost` command");
        foreach (Match m in SamplePathPattern().Matches(string.Join("\n", Readme.Lines)))
            Assert.IsTrue(File.Exists(Full(m.Value)), $"README names {m.Value}, which does not exist");
        foreach (Match m in ProjectPathPattern().Matches(string.Join("\n", Readme.Lines)))
            Assert.IsTrue(Directory.EnumerateFiles(Full(m.Groups[1].Value), "*.csproj").Any(),
                $"README runs `{m.Value}`, but {m.Groups[1].Value} holds no project");
    }

    [TestMethod]
    public void Every_wpr_profile_and_wpa_preset_the_readmes_name_exists()
    {
        var wprp = XDocument.Load(Full("wprp/MultiProfile.wprp"));
        var profiles = wprp.Descendants().Where(e => e.Name.LocalName == "Profile")
            .Select(e => (string?)e.Attribute("Name")).OfType<string>().ToHashSet(StringComparer.Ordinal);
        foreach (var file in new[] { Readme, new MarkdownFile(Full("wprp/README.md")) })
        {
            var text = string.Join("\n", file.Lines);
            var named = ProfilePattern().Matches(text).Select(m => m.Groups[1].Value)
                .Concat(ShortProfilePattern().Matches(text).Select(m => m.Groups[1].Value)).ToList();
            Assert.IsTrue(named.Count > 0, $"{Relative(file.Path)} names no WPR profile");
            foreach (var name in named)
                Assert.IsTrue(profiles.Contains(name), $"{Relative(file.Path)} names profile !{name}, which wprp/MultiProfile.wprp does not hold ({string.Join(", ", profiles)})");
            foreach (Match m in PresetPattern().Matches(text))
                Assert.IsTrue(File.Exists(Full("wpaProfiles/" + m.Groups[1].Value)), $"{Relative(file.Path)} names preset {m.Value}, which does not exist");
        }
    }

    [TestMethod]
    public void Every_cli_option_the_readmes_name_is_in_hiddencost_help()
    {
        var help = Help();
        var cliReadme = new MarkdownFile(Full("plugin/HiddenCost.Cli/README.md"));
        // README's lines that run `hiddencost`, the CLI README's usage line, and the first cell of its options table.
        var lines = Readme.Lines.Where(l => l.Contains("hiddencost ", StringComparison.Ordinal) && !l.Contains("dotnet ", StringComparison.Ordinal))
            .Concat(cliReadme.Lines.Where(l => l.StartsWith("    hiddencost ", StringComparison.Ordinal)))
            .Concat(cliReadme.TableUnder("## Options").Select(row => row[0]));
        var options = lines.SelectMany(l => OptionPattern().Matches(l).Select(m => m.Value)).ToHashSet(StringComparer.Ordinal);
        Assert.IsTrue(options.Count >= 3, $"found only {string.Join(", ", options)} in the READMEs");
        foreach (var option in options)
            Assert.IsTrue(Regex.IsMatch(help, $@"(^|[\s,]){Regex.Escape(option)}([\s,<]|$)", RegexOptions.Multiline),
                $"the READMEs name {option}, which hiddencost --help does not list:\n{help}");
        foreach (var format in new[] { "text|csv|json" })
            StringAssert.Contains(help, format);
    }

    private static string Help()
    {
        var start = new System.Diagnostics.ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(System.IO.Path.Combine(AppContext.BaseDirectory, "hiddencost.dll"));
        start.ArgumentList.Add("--help");
        using var process = System.Diagnostics.Process.Start(start)!;
        var output = process.StandardOutput.ReadToEnd();
        process.StandardError.ReadToEnd();
        Assert.IsTrue(process.WaitForExit(120_000), "hiddencost --help did not end");
        Assert.AreEqual(0, process.ExitCode, output);
        return output;
    }

    /// <summary>Every README.md in the repository, build output and git's folder left out.</summary>
    private static IEnumerable<string> AllReadmes() =>
        Directory.EnumerateFiles(Root, "README.md", SearchOption.AllDirectories)
            .Where(p => !IsBuildOutput(p) && !Relative(p).StartsWith(".git/", StringComparison.Ordinal))
            .Order(StringComparer.Ordinal);

    private static bool IsBuildOutput(string path) =>
        Relative(path).Split('/').Any(part => part is "bin" or "obj" or "TestResults");

    private static bool IsExternal(string target) =>
        target.Contains("://", StringComparison.Ordinal) || target.StartsWith("mailto:", StringComparison.Ordinal);

    /// <summary>The full path a link leads to from <paramref name="file"/>, and its anchor (null when none).</summary>
    private static (string Path, string? Anchor) Resolve(MarkdownFile file, string target)
    {
        int hash = target.IndexOf('#');
        var anchor = hash >= 0 ? target[(hash + 1)..] : null;
        var relative = hash >= 0 ? target[..hash] : target;
        var path = relative.Length == 0 ? file.Path
            : System.IO.Path.GetFullPath(System.IO.Path.Combine(System.IO.Path.GetDirectoryName(file.Path)!, relative));
        return (path.TrimEnd('/', System.IO.Path.DirectorySeparatorChar), anchor);
    }

    private static string LinkTarget(string cell)
    {
        var m = Regex.Match(cell, @"\]\(([^)]+)\)");
        Assert.IsTrue(m.Success, $"README table cell '{cell}' should link the table's method README");
        return m.Groups[1].Value;
    }

    private static string Full(string relative) => System.IO.Path.GetFullPath(System.IO.Path.Combine(Root, relative));

    private static string Relative(string path) => System.IO.Path.GetRelativePath(Root, path).Replace('\\', '/');

    [GeneratedRegex(@"MultiProfile\.wprp\^{0,2}!(\w+)")]
    private static partial Regex ProfilePattern();

    /// <summary>The short form README uses in a list of profiles: `!SpinWait`.</summary>
    [GeneratedRegex(@"`!(\w+)`")]
    private static partial Regex ShortProfilePattern();

    [GeneratedRegex(@"wpaProfiles[\\/](\w+\.wpaProfile)")]
    private static partial Regex PresetPattern();

    [GeneratedRegex(@"`([\w./-]+\.cs)`")]
    private static partial Regex SourceFilePattern();

    [GeneratedRegex(@"samples/[\w.-]+\.etl")]
    private static partial Regex SamplePathPattern();

    [GeneratedRegex(@"dotnet (?:run --project|publish|build) ([\w./-]+)")]
    private static partial Regex ProjectPathPattern();

    [GeneratedRegex(@"(?<![\w-])--?[a-z][a-z-]*")]
    private static partial Regex OptionPattern();
}
