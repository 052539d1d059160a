using System.Diagnostics;
using System.Globalization;
using HiddenCost.Analysis;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Analysis.Tables;
using HiddenCost.Etl;
using HiddenCost.TestSupport;

namespace HiddenCost.Benchmarks;

/// <summary>
/// What a user waits for: the whole analysis (`hiddencost`'s <see cref="TraceAnalyzer"/>), one pass per process as a
/// user runs it (cold: JIT included), against the header-only walk and the decode pass run the same way, on the large
/// repeated traces; peak memory (the process's VmHWM) at each size; and each analysis alone, for its share of the CPU.
/// Usage: <c>analysis [--sizes 0.25,1,4] [--large-dir DIR] [--no-shares] [--keep]</c> (README.md beside this file).
/// </summary>
internal static class AnalysisBenchmark
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>One pass in a process of its own: its wall and CPU time, its events and the process's peak resident memory.</summary>
    /// <param name="CallerCpuSeconds">CPU of the thread that called the pass (the analyses run on it): the part no second core can take.</param>
    /// <param name="BusiestThread">The thread that used the most CPU, and how much: the least wall time the pass could take with a core per thread.</param>
    private sealed record PassFigures(string Pass, double WallSeconds, double CpuSeconds, long Events, long PeakRssBytes, double CallerCpuSeconds,
        string BusiestThread = "");

    public static int Run(string[] args)
    {
        if (args is ["pass", var trace, var pass]) return OnePass(trace, pass);
        var sizes = new List<double> { 0.25, 1, 4 };
        string dir = Path.Combine(Path.GetTempPath(), "hiddencost-bench");
        bool shares = true, keep = false;
        for (int i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--sizes": sizes = args[++i].Split(',').Select(s => double.Parse(s, Invariant)).ToList(); break;
                case "--large-dir": dir = args[++i]; break;
                case "--no-shares": shares = false; break;
                case "--keep": keep = true; break;
                default: Console.Error.WriteLine($"unknown argument {args[i]}"); return 2;
            }
        }
        Console.WriteLine($"HiddenCost analysis benchmark — {System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription}, " +
            $"{Environment.ProcessorCount} cores; each figure one pass in a process of its own (cold, as a user runs it)");
        if (File.Exists("/proc/loadavg")) Console.WriteLine($"load average at start: {File.ReadAllText("/proc/loadavg").Trim()}");

        var compressed = SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip");
        var plain = SharedFolder.EtlSample("etwanalyzer/TraceLoggingTester.etl.zip");
        Ratios("uncompressed", LargeTraceBuilder.Build(plain, 1L << 30, dir));
        var oneGib = LargeTraceBuilder.Build(compressed, 1L << 30, dir);
        Ratios("compressed", oneGib);
        if (shares) Shares(oneGib);

        Console.WriteLine("\npeak memory of all tables (net.4.5.2.x64 repeated):");
        Console.WriteLine($"{"trace",-34} {"GB",6} {"events",12} {"wall s",7} {"CPU s",7} {"peak MB",8}");
        foreach (var gib in sizes)
        {
            long bytes = (long)(gib * (1L << 30));
            long free = new DriveInfo(Path.GetFullPath(dir)).AvailableFreeSpace;
            var path = Path.Combine(dir, $"net.4.5.2.x64-x{bytes >> 20}MiB.etl");
            bool built = File.Exists(path);
            if (!built && free < bytes * 3 / 2 + (2L << 30))
            {
                Console.WriteLine($"{Path.GetFileName(path),-34} skipped: {free >> 30} GiB free in {dir}");
                continue;
            }
            path = LargeTraceBuilder.Build(compressed, bytes, dir);
            var all = InChild(path, "all");
            Console.WriteLine($"{Path.GetFileName(path),-34} {new FileInfo(path).Length / 1e9,6:F2} {all.Events,12:N0} {all.WallSeconds,7:F1} {all.CpuSeconds,7:F1} {all.PeakRssBytes / 1e6,8:F0}");
            if (!built && !keep && bytes > 1L << 30) File.Delete(path); // the largest is built for this and deleted after
        }
        return 0;
    }

    /// <summary>All tables and Trace Info alone against the header-only walk and the decode pass.</summary>
    private static void Ratios(string kind, string path)
    {
        var header = InChild(path, "header");
        var decode = InChild(path, "decode");
        var info = InChild(path, "table:" + TableIds.TraceInfo);
        var all = InChild(path, "all");
        var lanes = InChild(path, "all-lanes");
        Console.WriteLine($"\n{Path.GetFileName(path)} ({kind}, {new FileInfo(path).Length / 1e9:F2} GB, {all.Events:N0} events):");
        Console.WriteLine($"  {"pass",-26} {"wall s",7} {"CPU s",7} {"caller s",8} {"peak MB",8}  busiest thread (CPU s)");
        foreach (var r in new[] { header, decode, info, all, lanes })
            Console.WriteLine($"  {r.Pass,-26} {r.WallSeconds,7:F2} {r.CpuSeconds,7:F2} {r.CallerCpuSeconds,8:F2} {r.PeakRssBytes / 1e6,8:F0}  {r.BusiestThread}");
        Console.WriteLine($"  all tables / header walk: {all.WallSeconds / header.WallSeconds:F2} (wall), {all.CpuSeconds / header.CpuSeconds:F2} (CPU)");
        Console.WriteLine($"  Trace Info / decode pass: {info.WallSeconds / decode.WallSeconds:F2} (wall), {info.CpuSeconds / decode.CpuSeconds:F2} (CPU)");
        // With a core per thread a pass takes about its busiest thread's CPU: compare like with like (the walk's busiest).
        Console.WriteLine($"  busiest thread / header walk's busiest thread: all tables {BusiestSeconds(all) / BusiestSeconds(header):F2}, " +
            $"two lanes {BusiestSeconds(lanes) / BusiestSeconds(header):F2} (the ratio on a machine with a core per thread)");
    }

    /// <summary>
    /// Each analysis alone (its tables asked for, so the session builds only what it reads): its CPU above Trace Info
    /// alone (the read, the decode check every pass makes, nothing of the session) is its cost, state included.
    /// </summary>
    private static void Shares(string path)
    {
        var baseline = InChild(path, "table:" + TableIds.TraceInfo);
        var runs = TableCatalog.Analyses.Skip(1)
            .Select(a => (Entry: a, Run: InChild(path, "table:" + string.Join('+', a.Tables.Select(t => t.Id)))))
            .ToArray();
        var all = InChild(path, "all");
        double sum = runs.Sum(r => Math.Max(0, r.Run.CpuSeconds - baseline.CpuSeconds));
        Console.WriteLine($"\nper-analysis CPU, {Path.GetFileName(path)}: each alone, above Trace Info alone ({baseline.CpuSeconds:F2} s CPU, {baseline.WallSeconds:F2} s wall)");
        Console.WriteLine($"  {"analysis (tables)",-58} {"needs",-42} {"wall s",7} {"CPU s",7} {"+CPU s",7} {"share",6} {"peak MB",8}");
        foreach (var (entry, run) in runs)
        {
            double extra = run.CpuSeconds - baseline.CpuSeconds;
            var name = string.Join(", ", entry.Tables.Select(t => t.Name));
            Console.WriteLine($"  {Clip(name, 58),-58} {entry.Needs,-42} {run.WallSeconds,7:F2} {run.CpuSeconds,7:F2} {extra,7:F2} {100 * Math.Max(0, extra) / sum,5:F0}% {run.PeakRssBytes / 1e6,8:F0}");
        }
        Console.WriteLine($"  {"all tables",-58} {"",-42} {all.WallSeconds,7:F2} {all.CpuSeconds,7:F2} {all.CpuSeconds - baseline.CpuSeconds,7:F2} {"",6} {all.PeakRssBytes / 1e6,8:F0}");
    }

    private static double BusiestSeconds(PassFigures run) =>
        run.BusiestThread.Split(' ') is [.., var seconds] && double.TryParse(seconds, Invariant, out var s) ? s : double.NaN;

    private static string Clip(string s, int n) => s.Length <= n ? s : s[..(n - 1)] + "…";

    /// <summary>Runs one pass in a child process and reads its RESULT line.</summary>
    private static PassFigures InChild(string path, string pass)
    {
        var self = Environment.ProcessPath!;
        var start = new ProcessStartInfo(self) { RedirectStandardOutput = true };
        if (Path.GetFileNameWithoutExtension(self) == "dotnet") start.ArgumentList.Add(typeof(AnalysisBenchmark).Assembly.Location);
        foreach (var a in new[] { "analysis", "pass", path, pass }) start.ArgumentList.Add(a);
        using var child = Process.Start(start)!;
        var output = child.StandardOutput.ReadToEnd();
        child.WaitForExit();
        var threads = output.Split('\n').FirstOrDefault(l => l.StartsWith("THREADS ", StringComparison.Ordinal))?["THREADS ".Length..].Split(", ")[0] ?? "";
        var line = output.Split('\n').FirstOrDefault(l => l.StartsWith("RESULT ", StringComparison.Ordinal))
            ?? throw new InvalidOperationException($"the {pass} pass over {path} failed (exit {child.ExitCode}): {output.Trim()}");
        var f = line.Split(' ');
        return new PassFigures(Label(pass), double.Parse(f[1], Invariant), double.Parse(f[2], Invariant), long.Parse(f[3], Invariant), long.Parse(f[4], Invariant),
            f.Length > 5 ? double.Parse(f[5], Invariant) : double.NaN, threads.Trim());
    }

    private static string Label(string pass) => pass switch
    {
        "header" => "header-only walk",
        "decode" => "decode pass",
        "all" => "all tables",
        "all-lanes" => "all tables, two lanes",
        _ when pass.StartsWith("table:", StringComparison.Ordinal) =>
            string.Join(" + ", pass["table:".Length..].Split('+').Select(id => TableCatalog.Find(id)?.Name ?? id)),
        _ => pass,
    };

    /// <summary>The child: one pass, then its figures on a RESULT line.</summary>
    private static int OnePass(string path, string pass)
    {
        var process = Process.GetCurrentProcess();
        var cpu = process.TotalProcessorTime;
        double callerCpu = CallerThreadCpuSeconds();
        var threads = ThreadCpuSampler.Applies ? new ThreadCpuSampler() : null;
        var watch = Stopwatch.StartNew();
        long events;
        switch (pass)
        {
            case "header":
            {
                using var reader = EtlReader.Open(path);
                events = reader.CountRecordsInFileOrder();
                break;
            }
            case "decode":
            {
                using var reader = EtlReader.Open(path);
                var decoding = TypedDecoding.Decode();
                events = 0;
                foreach (var e in reader.ReadEvents())
                {
                    events++;
                    decoding.Visit(e);
                }
                decoding.Complete();
                GC.KeepAlive(decoding.Decoded + decoding.Values);
                break;
            }
            default:
            {
                IEnumerable<Guid>? tables = pass is "all" or "all-lanes" ? null : pass["table:".Length..].Split('+').Select(Guid.Parse).ToArray();
                var plan = AnalysisPlan.For(TableCatalog.Analyses, tables);
                // all-lanes: the pass a machine of four cores or more runs (two lanes of analyses, merge ahead), whatever this one has.
                if (pass == "all-lanes") plan = plan.WithMaxLanes(2);
                var result = TraceAnalyzer.Analyze(path, plan, HeapProbe.FromEnvironment());
                if (result.Error is not null) throw new InvalidOperationException(result.Error);
                var info = result.Tables.FirstOrDefault(t => t.Spec.Id == TableIds.TraceInfo);
                events = info is { RowCount: > 0 } ? info.Value(0, info.Spec.IndexOf("Events")) as long? ?? -1 : -1;
                break;
            }
        }
        watch.Stop();
        process.Refresh();
        var cpuSeconds = (process.TotalProcessorTime - cpu).TotalSeconds;
        callerCpu = CallerThreadCpuSeconds() - callerCpu;
        // Allocation shows what the collector works through: small here (about 14 bytes an event for all tables).
        Console.WriteLine(FormattableString.Invariant($"ALLOCATED {GC.GetTotalAllocatedBytes(precise: true) / 1e6:F0} MB, {GC.CollectionCount(0)} young and {GC.CollectionCount(2)} full collections"));
        if (threads?.Stop() is { } byThread)
            Console.WriteLine("THREADS " + string.Join(", ", byThread.Select(t => FormattableString.Invariant($"{t.Name} {t.Seconds:F2}"))));
        Console.WriteLine(FormattableString.Invariant($"RESULT {watch.Elapsed.TotalSeconds:F3} {cpuSeconds:F3} {events} {PeakRss()} {callerCpu:F3}"));
        return 0;
    }

    /// <summary>
    /// For finding what grows with the trace: with HIDDENCOST_HEAP_PROBE set (fractions of the file, e.g. "0.25,0.5,1"),
    /// the analysis stops at each on its own thread, prints the live heap after a full collection, and waits until the
    /// file HIDDENCOST_HEAP_PROBE_GO names exists (then deletes it), so a heap dump (dotnet-gcdump) can be taken.
    /// </summary>
    private sealed class HeapProbe(Queue<double> fractions, string? go) : IProgress<double>
    {
        public static HeapProbe? FromEnvironment() => Environment.GetEnvironmentVariable("HIDDENCOST_HEAP_PROBE") is { } at
            ? new HeapProbe(new Queue<double>(at.Split(',').Select(f => double.Parse(f, Invariant))), Environment.GetEnvironmentVariable("HIDDENCOST_HEAP_PROBE_GO"))
            : null;

        public void Report(double value)
        {
            if (fractions.Count == 0 || value < fractions.Peek()) return;
            fractions.Dequeue();
            long peakSoFar = PeakRss(), rss = Environment.WorkingSet; // before the full collection the probe makes
            Console.Error.WriteLine(FormattableString.Invariant(
                $"PROBE pid {Environment.ProcessId} at {value:F2}: live heap {GC.GetTotalMemory(true) / 1e6:F1} MB, RSS {rss / 1e6:F0} MB, peak so far {peakSoFar / 1e6:F0} MB"));
            if (go is null) return;
            while (!File.Exists(go)) Thread.Sleep(200);
            File.Delete(go);
        }
    }

    /// <summary>This thread's CPU (user and system) from /proc/thread-self/stat, in clock ticks of 10 ms; NaN where there is none.</summary>
    private static double CallerThreadCpuSeconds()
    {
        if (!File.Exists("/proc/thread-self/stat")) return double.NaN;
        return ThreadCpuSampler.TicksOf(File.ReadAllText("/proc/thread-self/stat")) / 100.0;
    }

    /// <summary>The process's peak resident set (VmHWM), as /usr/bin/time reports it; the peak working set elsewhere.</summary>
    private static long PeakRss()
    {
        if (File.Exists("/proc/self/status"))
            foreach (var line in File.ReadLines("/proc/self/status"))
                if (line.StartsWith("VmHWM:", StringComparison.Ordinal))
                    return long.Parse(line["VmHWM:".Length..].Trim().Split(' ')[0], Invariant) * 1024;
        return Process.GetCurrentProcess().PeakWorkingSet64;
    }
}
