using System.Diagnostics;
using HiddenCost.Symbols.Pdb;
using HiddenCost.Symbols.Resolution;
using HiddenCost.Symbols.Store;

namespace HiddenCost.Benchmarks;

/// <summary>
/// The PDB reader on a large real PDB (issue 34, item 7): opening it and indexing its publics (time, peak working
/// set, managed heap, bytes allocated, what the index keeps), then lookups (RVA → public, and through the resolver
/// → <c>module!Function</c>). The PDB is built once with clang-cl and lld-link from a generated C file of N functions
/// (default 120,000, each a public) and kept in the benchmark folder; without clang-cl the section says so and skips.
/// </summary>
internal static class PdbBenchmark
{
    public static int Run(string[] args)
    {
        int functions = 120_000;
        string? pdb = null;
        string folder = Path.Combine(Path.GetTempPath(), "hiddencost-bench");
        for (int i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--functions": functions = int.Parse(args[++i], System.Globalization.CultureInfo.InvariantCulture); break;
                case "--pdb": pdb = args[++i]; break;
                case "--dir": folder = args[++i]; break;
                case "--cpu-time": PassResult.UseCpuTime = true; break;
                default:
                    Console.Error.WriteLine($"unknown argument {args[i]} (pdb [--functions N] [--pdb FILE] [--dir DIR] [--cpu-time])");
                    return 2;
            }
        }
        pdb ??= Build(folder, functions);
        if (pdb is null) return 0;
        Report(pdb);
        return 0;
    }

    private static void Report(string path)
    {
        Console.WriteLine($"PDB benchmark: {path} ({new FileInfo(path).Length / 1e6:F1} MB)");
        if (File.Exists("/proc/loadavg")) Console.WriteLine($"load average at start: {File.ReadAllText("/proc/loadavg").Trim()}");
        Console.WriteLine(PassResult.UseCpuTime ? "times: this process's CPU time (--cpu-time)" : "times: wall clock (--cpu-time for CPU time on a busy machine)");

        // The first open in the process: what a run of the CLI pays (JIT included).
        long before = Environment.WorkingSet;
        var watch = Stopwatch.StartNew();
        PublicSymbolTable first;
        Guid guid;
        uint age;
        using (var file = PdbFile.Open(path))
        {
            first = file.ReadPublics();
            guid = file.Guid;
            age = file.Age;
        }
        watch.Stop();
        Console.WriteLine($"first open + publics index (cold JIT): {watch.Elapsed.TotalMilliseconds:F0} ms, {first.PublicCount:N0} publics, {first.Count:N0} indexed in code");

        Func<long> openPass = () =>
        {
            using var file = PdbFile.Open(path);
            return file.ReadPublics().Count;
        };
        var open = Measurement.Measure(new FileInfo(path).Length, openPass, TimeSpan.FromMilliseconds(1000));
        Console.WriteLine($"open + publics index (warm, mean of back-to-back repeats): {open.Elapsed.TotalMilliseconds:F1} ms; allocated {open.Allocated / 1e6:F1} MB per open");
        // Memory of one open, from a collected heap (back-to-back repeats pile up garbage between collections). What it
        // allocates bounds the managed heap's growth; the sampler (every 10 ms) may miss a peak shorter than that.
        GC.Collect();
        var one = Measurement.Measure(new FileInfo(path).Length, openPass, TimeSpan.Zero);
        Console.WriteLine($"one open: allocated {one.Allocated / 1e6:F1} MB (the bound on the heap's growth); peak working set sampled +{(one.PeakWorkingSet - one.BaseWorkingSet) / 1e6:F0} MB over the process's {one.BaseWorkingSet / 1e6:F0} MB");

        GC.Collect();
        long heapBefore = GC.GetTotalMemory(true);
        PublicSymbolTable kept;
        using (var file = PdbFile.Open(path)) kept = file.ReadPublics();
        long heapAfter = GC.GetTotalMemory(true);
        Console.WriteLine($"kept by the index: {(heapAfter - heapBefore) / 1e6:F1} MB managed ({kept.Count:N0} publics)");
        Console.WriteLine($"working set growth of the first open: {(Environment.WorkingSet - before) / 1e6:F0} MB");

        // Lookups: a million addresses spread over the code sections.
        var code = kept.Sections.Where(s => s.Executable).ToArray();
        var random = new Random(34);
        var rvas = new uint[1_000_000];
        for (int i = 0; i < rvas.Length; i++)
        {
            var s = code[random.Next(code.Length)];
            rvas[i] = s.VirtualAddress + (uint)random.Next((int)Math.Min(s.Size, int.MaxValue));
        }
        var index = Measurement.Measure(0, () =>
        {
            long hits = 0;
            foreach (var rva in rvas) if (kept.IndexOf(rva) >= 0) hits++;
            return hits;
        }, TimeSpan.FromMilliseconds(500));
        Console.WriteLine($"RVA → public index: {index.Elapsed.TotalMilliseconds * 1e6 / rvas.Length:F0} ns per lookup ({index.Events:N0} of {rvas.Length:N0} named)");

        var folder = Path.GetDirectoryName(Path.GetFullPath(path))!;
        using var resolver = new SymbolResolver(new SymbolResolverOptions { Path = SymbolPath.Parse(folder, _ => null) });
        var key = new PdbKey(Path.GetFileName(path), guid, age);
        watch.Restart();
        var module = resolver.GetModule("big.exe", key);
        watch.Stop();
        Console.WriteLine($"resolver: {module.State} in {watch.Elapsed.TotalMilliseconds:F0} ms (load {module.LoadMilliseconds:F0} ms) from {module.Source}");
        var resolve = Measurement.Measure(0, () =>
        {
            long named = 0;
            foreach (var rva in rvas) if (module.Resolve(rva) is not null) named++;
            return named;
        }, TimeSpan.FromMilliseconds(500));
        Console.WriteLine($"resolver module!Function: {resolve.Elapsed.TotalMilliseconds * 1e6 / rvas.Length:F0} ns per frame " +
            $"({resolve.Elapsed.TotalMilliseconds:F0} ms per million frames; names made once, then reused)");
    }

    /// <summary>Builds (once) a PDB of <paramref name="functions"/> public functions with clang-cl and lld-link; null when they are missing.</summary>
    internal static string? Build(string folder, int functions)
    {
        var dir = Path.Combine(folder, $"pdb-{functions}");
        var pdb = Path.Combine(dir, "big.pdb");
        if (File.Exists(pdb)) return pdb;
        var cc = Which("clang-cl") ?? Which("clang-cl-14");
        var link = Which("lld-link") ?? Which("lld-link-14");
        if (cc is null || link is null)
        {
            Console.WriteLine("PDB benchmark skipped: clang-cl and lld-link are needed to build a large PDB (Debian: apt-get install clang lld), or pass --pdb FILE");
            return null;
        }
        Directory.CreateDirectory(dir);
        var source = Path.Combine(dir, "big.c");
        using (var w = new StreamWriter(source))
        {
            for (int i = 0; i < functions; i++) w.WriteLine($"int fn_{i:D6}_work(int a) {{ return a * {i % 97 + 1} + {i}; }}");
            w.WriteLine("int mainCRTStartup(void) { return fn_000001_work(1); }");
        }
        Console.WriteLine($"building (once) a PDB of {functions:N0} functions in {dir} with {cc} (minutes on a busy machine) ...");
        if (!RunTool(cc, dir, "/nologo", "/c", "/Z7", "/O1", "/GS-", "/Brepro", "big.c", "/Fobig.obj")) return null;
        if (!RunTool(link, dir, "/nologo", "/debug", "/Brepro", "/nodefaultlib", "/entry:mainCRTStartup", "/subsystem:console", "big.obj",
                "/out:big.exe", "/pdb:big.pdb.tmp", "/pdbaltpath:big.pdb")) return null;
        File.Move(Path.Combine(dir, "big.pdb.tmp"), pdb);
        File.Delete(Path.Combine(dir, "big.obj"));
        return pdb;
    }

    private static bool RunTool(string tool, string dir, params string[] args)
    {
        var start = new ProcessStartInfo(tool) { WorkingDirectory = dir, RedirectStandardError = true, RedirectStandardOutput = true };
        foreach (var a in args) start.ArgumentList.Add(a);
        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEnd();
        process.WaitForExit();
        if (process.ExitCode == 0) return true;
        Console.WriteLine($"PDB benchmark skipped: {Path.GetFileName(tool)} failed (exit {process.ExitCode}): {stdout.Result}{stderr}");
        return false;
    }

    private static string? Which(string name) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator)
            .Select(d => Path.Combine(d, name)).FirstOrDefault(File.Exists);
}
