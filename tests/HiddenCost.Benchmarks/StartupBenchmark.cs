using System.Diagnostics;
using HiddenCost.TestSupport;

namespace HiddenCost.Benchmarks;

/// <summary>
/// The start-up floor of each `hiddencost` build: wall time from process start to exit on the empty trace
/// (shared/etl-samples/etwanalyzer/EmptyETL.etl, 0 bytes: refused at once, exit 1), so the figure is the program's
/// start and end with no analysis. Builds: the framework-dependent build (`dotnet build`), the linux-x64 publish
/// profile's Native AOT binary, and any given as NAME=PATH (the folders .ci/package writes, a ReadyToRun build to
/// compare). A build that is absent, or made for another OS, is skipped with a line saying so.
/// </summary>
internal static class StartupBenchmark
{
    // Usage: startup [--runs N] [--package OUTDIR] [NAME=EXECUTABLE]...
    public static int Run(string[] args)
    {
        int runs = 20;
        var builds = new List<(string Name, string Path)>
        {
            ("framework-dependent", Cli("bin", "Release", "net10.0", Executable)),
            ("linux-x64 Native AOT (publish profile)", Cli("bin", "publish", "linux-x64", "hiddencost")),
        };
        for (int i = 0; i < args.Length; i++)
        {
            if (args[i] == "--runs") runs = int.Parse(args[++i]);
            else if (args[i] == "--package")
            {
                var package = args[++i];
                foreach (var (rid, file) in new[] { ("linux-x64", "hiddencost"), ("win-x64", "hiddencost.exe"), ("osx-arm64", "hiddencost") })
                    builds.Add(($"{rid} ({package})", Path.Combine(package, rid, file)));
            }
            else if (args[i].Split('=', 2) is [var name, var path]) builds.Add((name, path));
            else
            {
                Console.Error.WriteLine($"unknown argument {args[i]}: startup [--runs N] [--package OUTDIR] [NAME=EXECUTABLE]...");
                return 2;
            }
        }

        var empty = SharedFolder.EtlSample("etwanalyzer/EmptyETL.etl");
        Console.WriteLine($"start-up floor: `hiddencost {Path.GetFileName(empty)}` (0 bytes, refused at once), wall ms over {runs} runs after 2 warm-ups");
        Console.WriteLine($"{"build",-56} {"size (MB)",10} {"min",8} {"median",8} {"max",8}  exit");
        foreach (var (name, path) in builds)
        {
            if (!File.Exists(path))
            {
                Console.WriteLine($"{name,-56} skipped: {path} not found");
                continue;
            }
            if (!RunsHere(path))
            {
                Console.WriteLine($"{name,-56} skipped: {path} is not a program for this OS and processor");
                continue;
            }
            var times = new List<double>();
            int exit = 0;
            for (int i = 0; i < runs + 2; i++)
            {
                var (elapsed, code) = Time(path, empty);
                exit = code;
                if (i >= 2) times.Add(elapsed);
            }
            times.Sort();
            Console.WriteLine($"{name,-56} {Size(path) / 1e6,10:F1} {times[0],8:F1} {times[times.Count / 2],8:F1} {times[^1],8:F1}  {exit}");
        }
        return 0;
    }

    private static string Executable => OperatingSystem.IsWindows() ? "hiddencost.exe" : "hiddencost";

    private static string Cli(params string[] parts) => Path.Combine([SharedFolder.RepositoryRoot, "plugin", "HiddenCost.Cli", .. parts]);

    private static (double Milliseconds, int Exit) Time(string program, string trace)
    {
        var start = new ProcessStartInfo(program, [trace]) { RedirectStandardOutput = true, RedirectStandardError = true };
        var clock = Stopwatch.StartNew();
        using var process = Process.Start(start)!;
        process.StandardOutput.ReadToEnd();
        process.StandardError.ReadToEnd();
        process.WaitForExit();
        return (clock.Elapsed.TotalMilliseconds, process.ExitCode);
    }

    /// <summary>What the user gets: the program with what lies beside it (a framework-dependent build's assemblies), samples left out.</summary>
    private static long Size(string program)
    {
        var folder = Path.GetDirectoryName(Path.GetFullPath(program))!;
        return Directory.GetFiles(folder).Where(f => !f.EndsWith(".pdb", StringComparison.Ordinal) && !f.EndsWith(".dbg", StringComparison.Ordinal))
            .Sum(f => new FileInfo(f).Length);
    }

    /// <summary>An ELF file on Linux, a Mach-O on macOS, a PE on Windows: only those start here.</summary>
    private static bool RunsHere(string program)
    {
        Span<byte> magic = stackalloc byte[4];
        using (var file = File.OpenRead(program))
            if (file.Read(magic) < 4) return false;
        if (OperatingSystem.IsLinux()) return magic.SequenceEqual("\u007fELF"u8);
        if (OperatingSystem.IsWindows()) return magic[0] == 'M' && magic[1] == 'Z';
        if (OperatingSystem.IsMacOS()) return magic.SequenceEqual(new byte[] { 0xCF, 0xFA, 0xED, 0xFE });
        return false;
    }
}
