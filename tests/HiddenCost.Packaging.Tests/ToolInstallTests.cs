using System.Reflection;
using HiddenCost.Cli;
using HiddenCost.Cli.Output;
using HiddenCost.TestSupport;
using HiddenCost.Wpa;

namespace HiddenCost.Packaging.Tests;

/// <summary>
/// The .NET tool as a user gets it: `dotnet pack` of the CLI, `dotnet tool install --tool-path … --add-source FOLDER`,
/// then the installed `hiddencost`. Packed and installed once for the class; each test runs the installed command.
/// </summary>
[TestClass]
public sealed class ToolInstallTests
{
    private static string _root = "";
    private static string _feed = "";
    private static string _tools = "";

    private static string Version { get; } =
        typeof(CliRunner).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()!.InformationalVersion;

    private static string Command => Path.Combine(_tools, OperatingSystem.IsWindows() ? "hiddencost.exe" : "hiddencost");

    [ClassInitialize]
    public static void PackAndInstall(TestContext _)
    {
        _root = DotnetCommand.NewTempFolder("tool");
        _feed = Path.Combine(_root, "feed");
        _tools = Path.Combine(_root, "tools");
        DotnetCommand.Dotnet("pack", DotnetCommand.Project("plugin", "HiddenCost.Cli", "HiddenCost.Cli.csproj"),
            "--no-build", "-c", DotnetCommand.Configuration, "-o", _feed, "-nologo");
        // A packages folder of its own: the machine's may hold an older HiddenCost of the same version, which
        // `dotnet tool install` would take instead of the package just made.
        DotnetCommand.Dotnet(
            ["tool", "install", "HiddenCost", "--version", Version, "--tool-path", _tools, "--add-source", _feed],
            new Dictionary<string, string> { ["NUGET_PACKAGES"] = Path.Combine(_root, "packages") });
    }

    [ClassCleanup]
    public static void Remove()
    {
        if (Directory.Exists(_root)) Directory.Delete(_root, recursive: true);
    }

    [TestMethod]
    public void Tool_package_is_named_for_the_one_version_and_carries_the_bundled_sample()
    {
        var package = Directory.GetFiles(_feed, "*.nupkg").Single();
        Assert.AreEqual($"HiddenCost.{Version}.nupkg", Path.GetFileName(package));
        using var zip = System.IO.Compression.ZipFile.OpenRead(package);
        var sample = zip.Entries.Single(e => e.FullName.EndsWith("/samples/" + SampleLocator.SampleFileName, StringComparison.Ordinal));
        Assert.AreEqual(new FileInfo(RepositorySample).Length, sample.Length);
        // A tool package carries everything it runs: it names no package it depends on.
        using var nuspec = new StreamReader(zip.Entries.Single(e => e.FullName == "HiddenCost.nuspec").Open());
        StringAssert.DoesNotMatch(nuspec.ReadToEnd(), new System.Text.RegularExpressions.Regex("<dependenc"));
    }

    [TestMethod]
    public void Installed_hiddencost_with_no_argument_analyses_its_bundled_sample_as_the_build_does()
    {
        var workingDirectory = DotnetCommand.NewTempFolder("tool-run"); // away from the repository and its sample
        try
        {
            var (exit, output, errors) = DotnetCommand.Run(Command, [], workingDirectory);

            Assert.AreEqual(0, exit, errors);
            var firstLine = output[..output.IndexOf('\n')];
            StringAssert.StartsWith(firstLine, "# " + Path.Combine(_tools, ".store", "hiddencost", Version));
            StringAssert.EndsWith(firstLine, Path.Combine("samples", SampleLocator.SampleFileName));
            var expected = InProcess([RepositorySample], OutputFormat.Text);
            Assert.AreEqual(expected[expected.IndexOf('\n')..], output[output.IndexOf('\n')..]);
        }
        finally
        {
            Directory.Delete(workingDirectory, recursive: true);
        }
    }

    [TestMethod]
    public void Installed_hiddencost_prints_the_same_json_as_the_build_on_a_real_trace()
    {
        var trace = SharedFolder.EtlSample("etl-parser/ShutdownPerfDiagLogger.etl");

        var (exit, output, errors) = DotnetCommand.Run(Command, [trace, "--format", "json"], _root);

        Assert.AreEqual(0, exit, errors);
        StringAssert.Contains(output, "\"name\": \"Syscall Hook Overhead\"");
        Assert.AreEqual(InProcess([trace], OutputFormat.Json), output);
    }

    [TestMethod]
    public void Installed_hiddencost_version_is_the_plugin_s_version()
    {
        var (exit, output, errors) = DotnetCommand.Run(Command, ["--version"], _root);

        Assert.AreEqual(0, exit, errors);
        Assert.AreEqual(Version, output.Trim());
        Assert.AreEqual(HiddenCostProcessingSource.ProductVersion, output.Trim());
    }

    private static string RepositorySample => DotnetCommand.Project("samples", SampleLocator.SampleFileName);

    private static string InProcess(IReadOnlyList<string> traces, OutputFormat format)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        Assert.AreEqual(0, new CliRunner(output, error, interactive: false).Run(traces, [], format), error.ToString());
        return output.ToString();
    }
}
