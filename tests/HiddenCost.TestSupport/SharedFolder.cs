using System.IO.Compression;
using Microsoft.VisualStudio.TestTools.UnitTesting;

namespace HiddenCost.TestSupport;

/// <summary>
/// Finds the project's <c>../shared</c> folder (real traces, API listings) relative to the repository.
/// When it is absent (a user's fresh clone), tests that need it are skipped with one line naming the
/// missing folder; <c>.ci/run</c> makes that absence a failure so CI always runs them.
/// </summary>
public static class SharedFolder
{
    private static readonly Lazy<string?> Root = new(FindRoot);
    private static readonly object UnzipLock = new();

    /// <summary>The repository root (the folder holding <c>HiddenCost.slnx</c>).</summary>
    public static string RepositoryRoot { get; } = FindRepositoryRoot();

    /// <summary>The <c>shared</c> folder beside the repository, or null when it is missing.</summary>
    public static string? Path => Root.Value;

    /// <summary>The shared folder, or marks the calling test inconclusive (skipped) naming the folder.</summary>
    public static string Require()
    {
        if (Root.Value is { } root) return root;
        if (Environment.GetEnvironmentVariable("HIDDENCOST_REQUIRE_SHARED") == "1")
            Assert.Fail($"shared folder not found at {ExpectedPath()}; CI requires it (HIDDENCOST_REQUIRE_SHARED=1)");
        Assert.Inconclusive($"skipped: shared folder not found at {ExpectedPath()} (real traces and API listings live there)");
        return null!;
    }

    /// <summary>A file under <c>shared/etl-samples</c>; a <c>.zip</c> is unpacked once into a temp folder.</summary>
    public static string EtlSample(string relativePath)
    {
        var root = Require();
        var full = System.IO.Path.Combine(root, "etl-samples", relativePath);
        if (!full.EndsWith(".zip", StringComparison.OrdinalIgnoreCase)) return full;
        var target = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "hiddencost-samples",
            System.IO.Path.GetFileNameWithoutExtension(full));
        lock (UnzipLock)
        {
            if (File.Exists(target)) return target;
            Directory.CreateDirectory(System.IO.Path.GetDirectoryName(target)!);
            using var zip = ZipFile.OpenRead(full);
            var entry = zip.Entries.Single(e => e.Name.EndsWith(".etl", StringComparison.OrdinalIgnoreCase));
            var temp = target + "." + Environment.ProcessId + ".tmp";
            entry.ExtractToFile(temp, overwrite: true);
            File.Move(temp, target, overwrite: true);
            return target;
        }
    }

    private static string ExpectedPath() => System.IO.Path.GetFullPath(System.IO.Path.Combine(RepositoryRoot, "..", "shared"));

    private static string? FindRoot()
    {
        var overridePath = Environment.GetEnvironmentVariable("HIDDENCOST_SHARED");
        if (!string.IsNullOrEmpty(overridePath) && Directory.Exists(overridePath)) return overridePath;
        var candidate = ExpectedPath();
        return Directory.Exists(System.IO.Path.Combine(candidate, "etl-samples")) ? candidate : null;
    }

    /// <summary>
    /// Above the program's folder (tests run from the build output), else above the working directory: a tool published
    /// elsewhere (the fuzz target in /tmp/etl-fuzz) is run from the repository root.
    /// </summary>
    private static string FindRepositoryRoot() =>
        SolutionAbove(AppContext.BaseDirectory) ?? SolutionAbove(Environment.CurrentDirectory) ??
        throw new InvalidOperationException(
            $"HiddenCost.slnx not found above {AppContext.BaseDirectory} or above the working directory {Environment.CurrentDirectory}: run from the repository");

    private static string? SolutionAbove(string start)
    {
        var dir = new DirectoryInfo(start);
        while (dir is not null && !File.Exists(System.IO.Path.Combine(dir.FullName, "HiddenCost.slnx")))
            dir = dir.Parent;
        return dir?.FullName;
    }
}
