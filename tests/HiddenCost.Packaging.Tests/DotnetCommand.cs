using System.Diagnostics;
using System.Reflection;
using HiddenCost.TestSupport;

namespace HiddenCost.Packaging.Tests;

/// <summary>Runs a program (dotnet, the installed tool) to its end and hands back what it printed.</summary>
internal static class DotnetCommand
{
    /// <summary>The configuration these tests were built in: what pack and publish take with --no-build.</summary>
    public static string Configuration { get; } =
        typeof(DotnetCommand).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()!.Configuration;

    public static string Project(params string[] parts) => Path.Combine([SharedFolder.RepositoryRoot, .. parts]);

    public static (int Exit, string Out, string Err) Run(
        string program, IEnumerable<string> arguments, string workingDirectory, IReadOnlyDictionary<string, string>? environment = null)
    {
        var start = new ProcessStartInfo(program, arguments)
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        start.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        start.Environment["DOTNET_NOLOGO"] = "1";
        foreach (var (name, value) in environment ?? new Dictionary<string, string>()) start.Environment[name] = value;
        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(TimeSpan.FromMinutes(5)))
        {
            process.Kill(entireProcessTree: true);
            Assert.Fail($"{program} {string.Join(' ', arguments)} did not finish in 5 minutes");
        }
        return (process.ExitCode, output.Result, errors.Result);
    }

    /// <summary>Runs `dotnet ARGS` from the repository root (its nuget.config applies) and fails the test unless it succeeds.</summary>
    public static string Dotnet(params string[] arguments) => Dotnet(arguments, environment: null);

    public static string Dotnet(string[] arguments, IReadOnlyDictionary<string, string>? environment)
    {
        var (exit, output, errors) = Run("dotnet", arguments, SharedFolder.RepositoryRoot, environment);
        Assert.AreEqual(0, exit, $"dotnet {string.Join(' ', arguments)} failed:\n{output}\n{errors}");
        return output;
    }

    public static string NewTempFolder(string purpose)
    {
        var folder = Path.Combine(Path.GetTempPath(), $"hiddencost-{purpose}-{Guid.NewGuid():N}");
        Directory.CreateDirectory(folder);
        return folder;
    }
}
