using System.Diagnostics;
using HiddenCost.Analysis;
using HiddenCost.Etl;
using HiddenCost.Symbols.Pdb;
using HiddenCost.Symbols.Resolution;
using HiddenCost.Symbols.Store;
using HiddenCost.Synthetic.Model;

namespace HiddenCost.Benchmarks;

/// <summary>
/// What resolving native frames costs a whole analysis (issue 34 item 7): a synthetic trace (written by
/// HiddenCost.Synthetic, labelled synthetic) of about a million CPU samples whose user frames fall in big.exe, the
/// image the <c>pdb</c> benchmark builds with clang-cl and lld-link (120,000 functions), the trace's DbgID_RSDS record
/// carrying big.pdb's real GUID and age; every table is built without a symbol path, then with a store holding
/// big.pdb, alternately, and the ratio of the medians printed.
/// </summary>
internal static class SymbolsTraceBenchmark
{
    public static int Run(string[] args)
    {
        int samples = 1_000_000, repeats = 3;
        string folder = Path.Combine(Path.GetTempPath(), "hiddencost-bench");
        for (int i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--samples": samples = int.Parse(args[++i], System.Globalization.CultureInfo.InvariantCulture); break;
                case "--repeats": repeats = int.Parse(args[++i], System.Globalization.CultureInfo.InvariantCulture); break;
                case "--dir": folder = args[++i]; break;
                default:
                    Console.Error.WriteLine($"unknown argument {args[i]} (symbols-trace [--samples N] [--repeats N] [--dir DIR])");
                    return 2;
            }
        }
        var pdb = PdbBenchmark.Build(folder, 120_000);
        if (pdb is null) return 0;
        var store = Path.Combine(folder, "symbols-trace-store");
        var trace = Generate(pdb, samples, folder, store);
        Console.WriteLine($"trace {trace} ({new FileInfo(trace).Length / 1e6:0.0} MB), store {store}");

        var without = new List<double>();
        var with = new List<double>();
        long resolved = 0;
        var loads = new List<double>();
        for (int r = 0; r < repeats; r++)
        {
            var clock = Stopwatch.StartNew();
            TraceAnalyzer.Analyze(trace);
            without.Add(clock.Elapsed.TotalSeconds);

            clock.Restart();
            using (var resolver = new SymbolResolver(new SymbolResolverOptions { Path = SymbolPath.Parse(store, _ => null), Offline = true }))
            {
                TraceAnalyzer.Analyze(new TraceFileName(trace, trace), symbols: resolver);
                with.Add(clock.Elapsed.TotalSeconds);
                var status = resolver.Statuses.Single(s => s.ImageFileName == "big.exe");
                if (status.State != PdbState.Loaded) throw new InvalidOperationException($"big.pdb did not load: {status.Message}");
                resolved = status.FramesResolved;
                loads.Add(status.LoadMilliseconds);
            }
            Console.WriteLine($"  run {r + 1}: without symbols {without[^1]:0.000} s, with symbols {with[^1]:0.000} s");
        }
        double a = Median(without), b = Median(with);
        Console.WriteLine($"all tables, median of {repeats}: without symbols {a:0.000} s, with symbols {b:0.000} s, ratio {b / a:0.000} ({(b / a - 1) * 100:+0.0;-0.0}%), big.exe frames resolved {resolved:N0}, big.pdb open and publics index {Median(loads):0} ms (median) of the difference");
        return 0;
    }

    private static double Median(List<double> values)
    {
        var sorted = values.Order().ToArray();
        return sorted[sorted.Length / 2];
    }

    /// <summary>
    /// The trace (built once): 8 CPUs, each running a big.exe thread whose samples take one of 4,096 stacks of 8 frames
    /// at addresses spread over big.exe's code section; and the store holding big.pdb under its key.
    /// </summary>
    private static string Generate(string pdbPath, int samples, string folder, string store)
    {
        var path = Path.Combine(folder, $"symbols-trace-{samples}.etl");
        Guid guid;
        uint age;
        ImageSection text;
        using (var pdb = PdbFile.Open(pdbPath))
        {
            guid = pdb.Guid;
            age = pdb.Age;
            text = pdb.ReadSections().First(s => s.Executable);
        }
        var key = new PdbKey("big.pdb", guid, age);
        var stored = Path.Combine(store, key.StorePath);
        if (!File.Exists(stored))
        {
            Directory.CreateDirectory(Path.GetDirectoryName(stored)!);
            File.Copy(pdbPath, stored);
        }
        if (File.Exists(path)) return path;

        const int cpus = 8;
        const double intervalMs = 0.125;
        var b = new TraceBuilder(new TraceBuilderSettings { Cpus = cpus, SampleIntervalMs = intervalMs, Compress = true });
        var process = b.AddProcess("big.exe", @"""C:\Bench\big.exe""");
        ulong imageSize = (text.VirtualAddress + text.Size + 0xFFFFu) & ~0xFFFFul;
        var image = b.AddImage(process, @"\Device\HarddiskVolume3\Bench\big.exe", imageSize, pdb: new PdbIdentity(guid, age, "big.pdb"));
        var random = new Random(34);
        var stacks = Enumerable.Range(0, 4096)
            .Select(_ => Enumerable.Range(0, 8).Select(_ => image.At(text.VirtualAddress + (ulong)random.NextInt64(text.Size))).ToArray())
            .ToArray();
        var work = new HiddenCost.Synthetic.Model.Activity("big.exe work", stacks);
        double durationMs = samples / (double)cpus * intervalMs;
        for (int cpu = 0; cpu < cpus; cpu++)
            b.Run(cpu, b.AddThread(process, $"worker {cpu}"), b.At(0) + 2, b.At(durationMs), work);
        var built = b.Build();
        built.Save(path + ".tmp");
        File.Move(path + ".tmp", path, overwrite: true);
        return path;
    }
}
