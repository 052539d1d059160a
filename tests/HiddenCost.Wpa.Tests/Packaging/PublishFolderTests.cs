using System.Diagnostics;
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using HiddenCost.TestSupport;

namespace HiddenCost.Wpa.Tests.Packaging;

/// <summary>
/// What `dotnet publish plugin/HiddenCost.Wpa` hands the user: WPA loads the plugin from that one folder, so
/// every assembly the plugin needs must be there, and the SDK contract must not (WPA supplies the real SDK).
/// </summary>
[TestClass]
public sealed class PublishFolderTests
{
    [TestMethod]
    public void Publish_folder_holds_the_plugin_and_everything_it_references_except_the_SDK()
    {
        var folder = Path.Combine(Path.GetTempPath(), "hiddencost-publish-" + Guid.NewGuid().ToString("N"));
        try
        {
            Publish(folder);
            var assemblies = Directory.GetFiles(folder, "*.dll").Select(Path.GetFileName).Order(StringComparer.Ordinal).ToList();

            CollectionAssert.AreEqual(new[] { "HiddenCost.Analysis.dll", "HiddenCost.Etl.dll", "HiddenCost.Symbols.dll", "HiddenCost.Wpa.dll" }, assemblies);
            foreach (var file in assemblies)
                foreach (var reference in References(Path.Combine(folder, file!)))
                {
                    bool shipped = File.Exists(Path.Combine(folder, reference + ".dll"));
                    bool fromHost = reference == "Microsoft.Performance.SDK" || IsFramework(reference);
                    Assert.IsTrue(shipped != fromHost, $"{file} references {reference}: shipped={shipped}, from the host={fromHost}");
                }
        }
        finally
        {
            if (Directory.Exists(folder)) Directory.Delete(folder, recursive: true);
        }
    }

    private static bool IsFramework(string name) =>
        name is "netstandard" or "mscorlib" || name.StartsWith("System.", StringComparison.Ordinal)
        || name.StartsWith("Microsoft.Win32.", StringComparison.Ordinal);

    private static IReadOnlyList<string> References(string path)
    {
        using var stream = File.OpenRead(path);
        using var pe = new PEReader(stream);
        var metadata = pe.GetMetadataReader();
        return metadata.AssemblyReferences.Select(h => metadata.GetString(metadata.GetAssemblyReference(h).Name)).ToList();
    }

    private static void Publish(string folder)
    {
        var configuration = typeof(PublishFolderTests).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()!.Configuration;
        var project = Path.Combine(SharedFolder.RepositoryRoot, "plugin", "HiddenCost.Wpa", "HiddenCost.Wpa.csproj");
        var start = new ProcessStartInfo("dotnet", ["publish", project, "--no-build", "-c", configuration, "-o", folder, "-nologo"])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        Assert.IsTrue(process.WaitForExit(TimeSpan.FromMinutes(5)), "dotnet publish did not finish in 5 minutes");
        Assert.AreEqual(0, process.ExitCode, output.Result + errors.Result);
    }
}
