using System.Diagnostics;
using System.Globalization;
using DuckDB.NET.Data;
using HiddenCost.Dataset.Extract;
using HiddenCost.Dataset.Query;
using HiddenCost.Dataset.Schema;
using HiddenCost.Dataset.Storage;
using HiddenCost.TestSupport;

namespace HiddenCost.Benchmarks;

/// <summary>
/// `dataset`: the extract of many traces into a Parquet dataset (traces/s, MB/s, peak memory for -j N), the 1 GiB trace
/// extracted alone, and a grouped aggregate over a dataset of 10,000 traces' rows. The many traces are copies of the
/// repository's samples and of the shared real traces, each made distinct by <see cref="TraceVariants"/> (a number in
/// unused buffer slack: same events, different SHA-256, so none is skipped as a duplicate).
/// </summary>
internal static class DatasetBenchmark
{
    public static int Run(string[] args)
    {
        int traces = 1000, jobs = 2, queryTraces = 10_000;
        bool large = true;
        string folder = Path.Combine(Path.GetTempPath(), "hiddencost-dataset-bench");
        for (int i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--traces": traces = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--jobs": jobs = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--query-traces": queryTraces = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--no-large": large = false; break;
                case "--dir": folder = args[++i]; break;
                default:
                    Console.Error.WriteLine($"unknown argument {args[i]}");
                    return 2;
            }
        }
        if (Directory.Exists(folder)) Directory.Delete(folder, recursive: true);
        var inputs = Directory.CreateDirectory(Path.Combine(folder, "traces")).FullName;
        Console.WriteLine($"dataset benchmark: {Environment.ProcessorCount} processors, -j {jobs}, HiddenCost {Extractor.Version}");

        var sources = Sources();
        long bytes = 0;
        for (int i = 0, made = 0; made < traces; i++)
        {
            var source = sources[i % sources.Count];
            var target = Path.Combine(inputs, $"{made:D5}-{Path.GetFileName(source)}");
            if (!TraceVariants.Write(source, target, i + 1)) { File.Delete(target); continue; }
            bytes += new FileInfo(target).Length;
            made++;
        }
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"made {traces} distinct traces ({bytes / 1e6:0.0} MB) from {sources.Count} sources: {string.Join(", ", sources.Select(Path.GetFileName))}"));

        var many = Extract("many traces", inputs, Path.Combine(folder, "dataset"), jobs);
        if (large)
        {
            var big = LargeTraceBuilder.Build(SharedFolder.EtlSample("etwanalyzer/TraceLoggingTester.etl.zip"), 1L << 30, Path.Combine(Path.GetTempPath(), "hiddencost-bench"));
            Extract("the 1 GiB trace", big, Path.Combine(folder, "dataset-large"), jobs);
        }
        Query(many, Path.Combine(folder, "dataset-10k"), queryTraces);
        Directory.Delete(inputs, recursive: true);
        return 0;
    }

    /// <summary>The repository's samples and the shared real traces that have slack to vary (compressed ones have none).</summary>
    private static List<string> Sources()
    {
        var sources = Directory.GetFiles(Path.Combine(SharedFolder.RepositoryRoot, "samples"), "*.etl").Order(StringComparer.Ordinal).ToList();
        if (SharedFolder.Path is not null)
            foreach (var shared in new[] { "etl-parser/AMSITrace.etl", "etl-parser/ShutdownPerfDiagLogger.etl", "etl-parser/lxcore_kernel.etl",
                         "krabsetw/powershell.etl", "perfview/gcevents.etl.zip", "perfview/gcrundownevents.etl.zip", "perfview/primitive-types.etl.zip" })
                sources.Add(SharedFolder.EtlSample(shared));
        return sources;
    }

    private static DatasetFolder Extract(string what, string input, string datasetPath, int jobs)
    {
        GC.Collect();
        ResetPeak();
        var dataset = DatasetFolder.OpenOrCreate(datasetPath);
        var clock = Stopwatch.StartNew();
        var cpu = Process.GetCurrentProcess().TotalProcessorTime;
        double load = LoadAverage();
        var summary = new Extractor(dataset, jobs, null, _ => { }).Run(TraceInputs.Expand([input], dataset.Root));
        var elapsed = clock.Elapsed.TotalSeconds;
        var cpuSeconds = (Process.GetCurrentProcess().TotalProcessorTime - cpu).TotalSeconds;
        var parts = Directory.GetFiles(dataset.Root, "*.parquet", SearchOption.AllDirectories);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"extract {what}: {summary.Extracted} traces, {summary.BytesRead / 1e6:0.0} MB in {elapsed:0.00} s: {summary.Extracted / elapsed:0.0} traces/s, " +
            $"{summary.BytesRead / 1e6 / elapsed:0.0} MB/s; CPU {cpuSeconds:0.0} s; peak RSS {PeakMiB()} MiB (since reset, process-wide); " +
            $"{parts.Length} part files, {parts.Sum(p => new FileInfo(p).Length) / 1e6:0.00} MB; exit code {summary.ExitCode}; load average {load:0.0} before, {LoadAverage():0.0} after"));
        return dataset;
    }

    /// <summary>
    /// A dataset of <paramref name="traces"/> traces' rows, generated from the extracted one: each table's rows repeated
    /// with new trace ids (SHA-256 of the old id and the copy number), committed as one run. Then grouped aggregates over it.
    /// </summary>
    private static void Query(DatasetFolder source, string targetPath, int traces)
    {
        var committed = RunManifest.ReadAll(source);
        long have;
        using (var q = new DatasetQuery(source)) have = (long)q.Run("SELECT count(*) FROM traces").Rows[0][0]!;
        int copies = (int)Math.Ceiling(traces / (double)have);
        var target = DatasetFolder.OpenOrCreate(targetPath);
        var runId = "20000101T000000000Z-bench000";
        var files = new List<string>();
        using (var db = new DuckDBConnection("DataSource=:memory:"))
        {
            db.Open();
            foreach (var table in DatasetSchema.All)
            {
                var inputs = committed.SelectMany(r => r.Files).Where(f => f.StartsWith(table.Name + "/", StringComparison.Ordinal))
                    .Select(f => $"'{RunManifest.Locate(source, f)}'");
                var relative = $"{table.Name}/part-{runId}-00000.parquet";
                Directory.CreateDirectory(target.TableFolder(table.Name));
                using var command = db.CreateCommand();
                command.CommandText = $"COPY (SELECT * REPLACE (sha256(trace_id || '-' || k) AS trace_id, '{runId}' AS run_id) " +
                                      $"FROM read_parquet([{string.Join(", ", inputs)}]), range({copies}) AS c(k)) " +
                                      $"TO '{Path.Combine(target.Root, relative)}' (FORMAT parquet, COMPRESSION zstd)";
                command.ExecuteNonQuery();
                files.Add(relative);
            }
        }
        new RunManifest(runId, Extractor.Version, DateTime.UtcNow, DateTime.UtcNow, (int)(have * copies), files).Commit(target);

        var clock = Stopwatch.StartNew();
        using var query = new DatasetQuery(target);
        var open = clock.Elapsed.TotalMilliseconds;
        long rows = (long)query.Run("SELECT count(*) FROM traces").Rows[0][0]!;
        long eventRows = (long)query.Run("SELECT count(*) FROM event_counts").Rows[0][0]!;
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"query dataset: {rows:N0} traces, {eventRows:N0} event_counts rows ({copies} copies of each extracted trace's rows); views made in {open:0} ms"));
        Time("grouped aggregate: event counts by provider and event over every trace",
            "SELECT provider, event, count(DISTINCT trace_id) AS traces, sum(count) AS events FROM event_counts GROUP BY ALL ORDER BY events DESC LIMIT 20", query);
        Time("shipped query hooked-syscalls", NamedQuery.Find("hooked-syscalls")!.Sql, query, NamedQuery.Find("hooked-syscalls")!.Defaults);
        Time("grouped aggregate: traces per OS build and status", "SELECT os_build, status, count(*) AS traces, sum(size_bytes) AS bytes FROM traces GROUP BY ALL", query);
    }

    private static void Time(string what, string sql, DatasetQuery query, IReadOnlyDictionary<string, object>? parameters = null)
    {
        var times = new List<(double Wall, double Cpu)>();
        int rows = 0;
        var process = Process.GetCurrentProcess();
        for (int i = 0; i < 4; i++)
        {
            process.Refresh();
            var cpu = process.TotalProcessorTime;
            var clock = Stopwatch.StartNew();
            rows = query.Run(sql, parameters).Rows.Count;
            var wall = clock.Elapsed.TotalMilliseconds;
            process.Refresh();
            times.Add((wall, (process.TotalProcessorTime - cpu).TotalMilliseconds));
        }
        var best = times.Skip(1).MinBy(t => t.Wall);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  {what}: first {times[0].Wall:0} ms (CPU {times[0].Cpu:0} ms), best of the next three {best.Wall:0} ms (CPU {best.Cpu:0} ms) ({rows} rows)"));
    }

    /// <summary>The machine's one-minute load average (Linux), to read wall-clock figures by: this machine is shared.</summary>
    private static double LoadAverage()
    {
        try { return double.Parse(File.ReadAllText("/proc/loadavg").Split(' ')[0], CultureInfo.InvariantCulture); }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException) { return double.NaN; }
    }

    /// <summary>Resets the process's peak resident set (VmHWM) on Linux, so the next reading is this phase's.</summary>
    private static void ResetPeak()
    {
        try { File.WriteAllText("/proc/self/clear_refs", "5"); }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException) { }
    }

    private static string PeakMiB()
    {
        try
        {
            var line = File.ReadLines("/proc/self/status").First(l => l.StartsWith("VmHWM:", StringComparison.Ordinal));
            return (long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], CultureInfo.InvariantCulture) / 1024).ToString(CultureInfo.InvariantCulture);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidOperationException)
        {
            return (Process.GetCurrentProcess().PeakWorkingSet64 >> 20).ToString(CultureInfo.InvariantCulture) + " (whole run)";
        }
    }
}
