using HiddenCost.Analysis;
using HiddenCost.Cli.Commands;
using HiddenCost.Cli.Output;
using HiddenCost.Dataset.Adapter;
using HiddenCost.Dataset.Extract;
using HiddenCost.Dataset.Schema;

namespace HiddenCost.Dataset.Tests;

[TestClass]
public sealed class ExtractTests
{
    [TestMethod]
    public void SharedTracesAndSamples_AreExtractedOnceEach_AndAShippedQueryAnswers()
    {
        using var fixture = new DatasetFixture();
        fixture.Add(DatasetFixture.RepositorySamples(), "samples");
        fixture.Add(DatasetFixture.SharedTraces(), "shared");
        var (exit, output, errors) = fixture.Extract();

        // EmptyETL.etl (0 bytes) is refused: exit 1, with its error, and the run goes on.
        Assert.AreEqual(1, exit, errors);
        StringAssert.StartsWith(output, "14 traces extracted (13 ok, 0 damaged, 1 refused, 0 failed); 0 skipped (already in the dataset);");
        StringAssert.Contains(errors, "EmptyETL.etl: offset 0x0: empty file (0 bytes)");
        Assert.AreEqual(14, fixture.Scalar("SELECT count(*) FROM traces"));
        Assert.AreEqual(14, fixture.Scalar("SELECT count(DISTINCT trace_id) FROM traces"));
        Assert.AreEqual(13, fixture.Scalar("SELECT count(*) FROM traces WHERE status = 'ok' AND message IS NULL"));
        Assert.AreEqual(1, fixture.Scalar("SELECT count(*) FROM traces WHERE status = 'refused' AND path LIKE '%/EmptyETL.etl' AND size_bytes = 0"));
        // The trace header's facts, for a real trace (etl-parser's ShutdownPerfDiagLogger: Windows 10 18362, 2 CPUs).
        var shutdown = fixture.Query("SELECT os_build, processors, start_utc, trace_id FROM traces WHERE path LIKE '%/ShutdownPerfDiagLogger.etl'").Rows.Single();
        Assert.AreEqual(18362L, shutdown[0]);
        Assert.AreEqual(2L, shutdown[1]);
        Assert.AreEqual(new DateTime(2020, 2, 28, 9, 3, 47, DateTimeKind.Utc), ((DateTime)shutdown[2]!).AddTicks(-(((DateTime)shutdown[2]!).Ticks % TimeSpan.TicksPerSecond)));
        Assert.AreEqual(TraceHasher.OfContent(DatasetFixture.SharedTraces()[1]), shutdown[3]);

        // Every analysed table holds, for every trace, the rows the analysis gives (read back by trace id).
        foreach (var trace in Directory.GetFiles(fixture.Inputs, "*.etl", SearchOption.AllDirectories))
        {
            var id = TraceHasher.OfContent(trace);
            var result = TraceAnalyzer.Analyze(trace);
            foreach (var (table, rows) in TableModelAdapter.Rows(result))
                Assert.AreEqual(rows.LongCount(), fixture.Scalar($"SELECT count(*) FROM {table.Name} WHERE trace_id = '{id}'"), $"{trace}: {table.Name}");
            Assert.AreEqual(TableModelAdapter.Notes(result).LongCount(), fixture.Scalar($"SELECT count(*) FROM notes WHERE trace_id = '{id}'"), trace);
        }

        // The shipped query finds the synthetic samples' security driver (tedrdrv.sys in hiddencost-sample and syscall-hook-storm).
        var text = new StringWriter();
        var queryErrors = new StringWriter();
        Assert.AreEqual(0, QueryCommand.Run(fixture.Dataset, null, "hooked-syscalls", ["min_us=1"], false, OutputFormat.Csv, null, queryErrors, text), queryErrors.ToString());
        var lines = text.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.AreEqual("Trace,HiddenCost Table,driver,vendor,product,category,machines,traces,max_us_per_syscall,hook_cpu_ms,syscalls,first_machines", lines[0]);
        Assert.AreEqual(2, lines.Length, text.ToString());
        StringAssert.StartsWith(lines[1], $"{Path.GetFullPath(fixture.Dataset)},hooked-syscalls,tedrdrv.sys,Palo Alto Networks,Cortex XDR,EDR,2,2,");
        StringAssert.Contains(lines[1], ",37310,");
    }

    [TestMethod]
    public void SecondExtract_AddsNothing()
    {
        using var fixture = new DatasetFixture();
        fixture.Add(DatasetFixture.RepositorySamples());
        Assert.AreEqual(0, fixture.Extract().Exit);
        var files = Directory.GetFiles(fixture.Dataset, "*", SearchOption.AllDirectories).Order().ToArray();
        var stamps = files.Select(File.GetLastWriteTimeUtc).ToArray();

        var (exit, output, errors) = fixture.Extract();
        Assert.AreEqual(0, exit, errors);
        StringAssert.StartsWith(output, "0 traces extracted (0 ok, 0 damaged, 0 refused, 0 failed); 5 skipped (already in the dataset);");
        StringAssert.EndsWith(output.TrimEnd(), "nothing committed");
        CollectionAssert.AreEqual(files, Directory.GetFiles(fixture.Dataset, "*", SearchOption.AllDirectories).Order().ToArray());
        CollectionAssert.AreEqual(stamps, files.Select(File.GetLastWriteTimeUtc).ToArray());
        Assert.AreEqual(5, fixture.Scalar("SELECT count(*) FROM traces"));
    }

    [TestMethod]
    public void CopiedOrRenamedTrace_IsTheSameTrace()
    {
        using var fixture = new DatasetFixture();
        var sample = DatasetFixture.RepositorySamples()[0];
        File.Copy(sample, Path.Combine(fixture.Inputs, "a.etl"));
        File.Copy(sample, Path.Combine(fixture.Inputs, "b-renamed.etl"));
        var (exit, output, errors) = fixture.Extract();
        Assert.AreEqual(0, exit, errors);
        StringAssert.StartsWith(output, "1 traces extracted (1 ok, 0 damaged, 0 refused, 0 failed); 0 skipped (already in the dataset); 1 duplicates (same content as another file);");
        // Workers hash in parallel, so either copy may be the one extracted: the note names the other as its duplicate.
        Assert.IsTrue(errors.Contains("b-renamed.etl: same content as ") && errors.Contains("a.etl (one trace)")
            || errors.Contains("a.etl: same content as ") && errors.Contains("b-renamed.etl (one trace)"), errors);
        Assert.AreEqual(1, fixture.Scalar("SELECT count(*) FROM traces"));
    }

    [TestMethod]
    public void TraceExtractedAgainByALaterRun_ShowsTheNewestRunsRowsOnly()
    {
        using var fixture = new DatasetFixture();
        fixture.Add(DatasetFixture.RepositorySamples());
        Assert.AreEqual(0, fixture.Extract().Exit);
        var first = (string)fixture.Query("SELECT min(run_id) FROM traces").Rows.Single()[0]!;
        // Another HiddenCost version: the run's manifest and rows say so; rewrite the committed traces rows' version as
        // an older release would have written it, so the next run extracts every trace again.
        using (var db = DatasetFixture.DuckDb())
        {
            var file = Directory.GetFiles(Path.Combine(fixture.Dataset, "traces"), "*.parquet").Single();
            using var command = db.CreateCommand();
            command.CommandText = $"COPY (SELECT * REPLACE ('0.0.1-older' AS hiddencost_version) FROM read_parquet('{file}')) TO '{file}.new' (FORMAT parquet)";
            command.ExecuteNonQuery();
            File.Move(file + ".new", file, overwrite: true);
        }
        Assert.AreEqual(5, fixture.Scalar("SELECT count(*) FROM traces WHERE hiddencost_version = '0.0.1-older'"));

        var (exit, output, errors) = fixture.Extract();
        Assert.AreEqual(0, exit, errors);
        StringAssert.StartsWith(output, "5 traces extracted (5 ok,");
        Assert.AreEqual(5, fixture.Scalar("SELECT count(*) FROM traces"));
        Assert.AreEqual(0, fixture.Scalar($"SELECT count(*) FROM traces WHERE run_id = '{first}' OR hiddencost_version = '0.0.1-older'"));
        Assert.AreEqual(0, fixture.Scalar($"SELECT count(*) FROM event_counts WHERE run_id = '{first}'"));
        // Both runs' files are there for engines that read folders; the views pick the newest run per trace.
        Assert.AreEqual(2 * DatasetSchema.All.Count, fixture.VisibleParquet().Count);
        Assert.AreEqual(fixture.Scalar("SELECT count(*) FROM event_counts") * 2,
            fixture.Scalar($"SELECT count(*) FROM read_parquet('{fixture.Dataset}/event_counts/*.parquet')"));
    }

    [TestMethod]
    public void TwoRunsAtOnce_WaitForEachOther_AndRecordEveryTraceOnce()
    {
        using var fixture = new DatasetFixture();
        fixture.AddVariants(12);
        var runs = Enumerable.Range(0, 2).Select(_ => Task.Run(() => fixture.ExtractWith(1))).ToArray();
        Task.WaitAll(runs);
        Assert.IsTrue(runs.All(r => r.Result.Exit == 0), string.Join("\n", runs.Select(r => r.Result.Errors)));
        // The second waited for the first's lock, then found every trace committed (or, started first, the other way round).
        var extracted = runs.Select(r => int.Parse(r.Result.Output.Split(' ')[0])).Order().ToArray();
        CollectionAssert.AreEqual(new[] { 0, 12 }, extracted);
        Assert.AreEqual(12, fixture.Scalar("SELECT count(*) FROM traces"));
        Assert.AreEqual(12, fixture.Scalar("SELECT count(DISTINCT trace_id) FROM traces"));
        Assert.AreEqual(1, Directory.GetFiles(Path.Combine(fixture.Dataset, "_runs")).Length);
    }

    [TestMethod]
    public void Variants_OfASample_AreDistinctTracesWithTheSampleSRows()
    {
        using var fixture = new DatasetFixture();
        fixture.AddVariants(5);
        Assert.AreEqual(0, fixture.Extract().Exit);
        Assert.AreEqual(5, fixture.Scalar("SELECT count(DISTINCT trace_id) FROM traces WHERE status = 'ok'"));
        var samples = new DatasetFixture();
        try
        {
            samples.Add(DatasetFixture.RepositorySamples());
            Assert.AreEqual(0, samples.Extract().Exit);
            Assert.AreEqual(samples.Scalar("SELECT count(*) FROM event_counts"), fixture.Scalar("SELECT count(*) FROM event_counts"));
            Assert.AreEqual(samples.Scalar("SELECT count(*) FROM syscall_hook_overhead"), fixture.Scalar("SELECT count(*) FROM syscall_hook_overhead"));
        }
        finally
        {
            samples.Dispose();
        }
    }
}
