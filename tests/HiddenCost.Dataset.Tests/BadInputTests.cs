using HiddenCost.Cli.Commands;
using HiddenCost.Cli.Output;

namespace HiddenCost.Dataset.Tests;

[TestClass]
public sealed class BadInputTests
{
    [TestMethod]
    public void FolderOfBadFiles_EachIsReportedAndRecorded_AndTheExitCodeIsTheWorst()
    {
        using var fixture = new DatasetFixture();
        var sample = DatasetFixture.RepositorySamples().Single(s => s.EndsWith("spin-contention.etl", StringComparison.Ordinal));
        File.WriteAllText(Path.Combine(fixture.Inputs, "notes.txt"), "not a trace");
        File.WriteAllBytes(Path.Combine(fixture.Inputs, "text-named.etl"), "this is text, not ETW"u8.ToArray());
        File.WriteAllBytes(Path.Combine(fixture.Inputs, "empty.etl"), []);
        var bytes = File.ReadAllBytes(sample);
        File.WriteAllBytes(Path.Combine(fixture.Inputs, "cut.etl"), bytes[..(bytes.Length / 2 + 1000)]); // ends mid-buffer
        File.CreateSymbolicLink(Path.Combine(fixture.Inputs, "gone.etl"), Path.Combine(fixture.Root, "deleted.etl")); // cannot be opened

        var (exit, output, errors) = fixture.Extract();
        Assert.AreEqual(1, exit, errors);
        StringAssert.StartsWith(output, "4 traces extracted (0 ok, 1 damaged, 2 refused, 1 failed); 0 skipped (already in the dataset); 1 non-.etl files ignored;");
        StringAssert.Contains(errors, "error: " + Path.Combine(fixture.Inputs, "empty.etl") + ": offset 0x0: empty file");
        StringAssert.Contains(errors, "error: " + Path.Combine(fixture.Inputs, "text-named.etl"));
        StringAssert.Contains(errors, "warning: " + Path.Combine(fixture.Inputs, "cut.etl") + " is damaged");
        StringAssert.Contains(errors, "error: " + Path.Combine(fixture.Inputs, "gone.etl") + ": cannot read the file");
        var statuses = fixture.Query("SELECT regexp_extract(path, '[^/]+$'), status, message IS NOT NULL FROM traces ORDER BY 1").Rows
            .Select(r => $"{r[0]} {r[1]} {r[2]}").ToArray();
        CollectionAssert.AreEqual(new[] { "cut.etl damaged True", "empty.etl refused True", "gone.etl failed True", "text-named.etl refused True" }, statuses);

        // The damaged trace alone exits 4; its rows are there (read in part).
        using var damagedOnly = new DatasetFixture();
        File.Copy(Path.Combine(fixture.Inputs, "cut.etl"), Path.Combine(damagedOnly.Inputs, "cut.etl"));
        Assert.AreEqual(4, damagedOnly.Extract().Exit);
        Assert.IsTrue(damagedOnly.Scalar("SELECT count(*) FROM event_counts") > 0);
    }

    [TestMethod]
    public void DatasetFolderThatIsNotOurs_IsRefused_AndLeftAlone()
    {
        using var fixture = new DatasetFixture();
        fixture.Add(DatasetFixture.RepositorySamples().Take(1));
        Directory.CreateDirectory(fixture.Dataset);
        var theirs = Path.Combine(fixture.Dataset, "report.docx");
        File.WriteAllText(theirs, "someone's file");

        var (exit, output, errors) = fixture.Extract();
        Assert.AreEqual(2, exit);
        Assert.AreEqual("", output);
        StringAssert.Contains(errors, "is not empty and is not a HiddenCost dataset (no _hiddencost_dataset.json)");
        CollectionAssert.AreEqual(new[] { theirs }, Directory.GetFileSystemEntries(fixture.Dataset));

        var queryErrors = new StringWriter();
        Assert.AreEqual(2, QueryCommand.Run(fixture.Dataset, "SELECT 1", null, [], false, OutputFormat.Text, null, queryErrors, new StringWriter()));
        StringAssert.Contains(queryErrors.ToString(), "is not a HiddenCost dataset");
    }

    [TestMethod]
    public void BadArguments_ExitWith2AndSayWhy()
    {
        using var fixture = new DatasetFixture();
        var (exit, _, errors) = fixture.Extract(Path.Combine(fixture.Root, "no-such-folder"));
        Assert.AreEqual(2, exit);
        StringAssert.Contains(errors, "no-such-folder: no such trace file or folder");

        (exit, _, errors) = fixture.Extract(fixture.Inputs); // an empty folder
        Assert.AreEqual(2, exit);
        StringAssert.Contains(errors, "no .etl file in");

        fixture.Add(DatasetFixture.RepositorySamples().Take(1));
        Assert.AreEqual(0, fixture.Extract().Exit);
        var err = new StringWriter();
        Assert.AreEqual(2, QueryCommand.Run(fixture.Dataset, "SELECT no_such_column FROM traces", null, [], false, OutputFormat.Text, null, err, new StringWriter()));
        StringAssert.Contains(err.ToString(), "no_such_column");
        err = new StringWriter();
        Assert.AreEqual(2, QueryCommand.Run(fixture.Dataset, null, "no-such-query", [], false, OutputFormat.Text, null, err, new StringWriter()));
        StringAssert.Contains(err.ToString(), "no shipped query named 'no-such-query'. Queries: big-watch-buffers, eventlog-readers, hooked-syscalls, not-ready, spin-locks");
        err = new StringWriter();
        Assert.AreEqual(2, QueryCommand.Run(fixture.Dataset, null, "hooked-syscalls", ["limit=3"], false, OutputFormat.Text, null, err, new StringWriter()));
        StringAssert.Contains(err.ToString(), "the query takes min_us");
    }

    [TestMethod]
    public void EveryShippedQuery_RunsOnADatasetOfTheSamples()
    {
        using var fixture = new DatasetFixture();
        fixture.Add(DatasetFixture.RepositorySamples());
        Assert.AreEqual(0, fixture.Extract().Exit);
        var rows = new Dictionary<string, int>();
        foreach (var name in new[] { "hooked-syscalls", "big-watch-buffers", "eventlog-readers", "spin-locks", "not-ready" })
        {
            var output = new StringWriter();
            var err = new StringWriter();
            Assert.AreEqual(0, QueryCommand.Run(fixture.Dataset, null, name, [], false, OutputFormat.Json, null, err, output), err.ToString());
            using var json = System.Text.Json.JsonDocument.Parse(output.ToString());
            rows[name] = json.RootElement[0].GetProperty("tables")[0].GetProperty("rows").GetArrayLength();
        }
        // hiddencost-sample holds every scenario; each scenario sample holds its own: two traces show each problem.
        Assert.AreEqual(1, rows["hooked-syscalls"]);
        Assert.AreEqual(2, rows["big-watch-buffers"]);
        Assert.AreEqual(2, rows["eventlog-readers"]);
        Assert.AreEqual(8, rows["spin-locks"]);
        Assert.AreEqual(12, rows["not-ready"]);
    }
}

[TestClass]
public sealed class HostileDatasetTests
{
    [TestMethod]
    public void ManifestNamingAFileOutsideItsTable_IsRefused_AndNothingIsRenamed()
    {
        using var fixture = new DatasetFixture();
        fixture.Add(DatasetFixture.RepositorySamples().Take(1));
        Assert.AreEqual(0, fixture.Extract().Exit);
        var manifest = Directory.GetFiles(Path.Combine(fixture.Dataset, "_runs"), "*.json").Single();
        var runId = Path.GetFileNameWithoutExtension(manifest);
        var victim = Path.Combine(fixture.Root, "_victim");
        File.WriteAllText(victim, "not the dataset's");
        File.WriteAllText(manifest, File.ReadAllText(manifest).Replace($"\"traces/part-{runId}-00000.parquet\"", "\"../victim\""));

        var (exit, _, errors) = fixture.Extract();
        Assert.AreEqual(2, exit);
        StringAssert.Contains(errors, "'../victim' is not a part file of run " + runId);
        Assert.IsTrue(File.Exists(victim), "a hostile manifest must not make recovery rename files outside the dataset");
        var err = new StringWriter();
        Assert.AreEqual(2, QueryCommand.Run(fixture.Dataset, "SELECT 1", null, [], false, OutputFormat.Text, null, err, new StringWriter()));
        StringAssert.Contains(err.ToString(), "is not a part file of run");
    }

    [TestMethod]
    public void CommittedFileReplacedByGarbage_IsReportedAsNotOurs()
    {
        using var fixture = new DatasetFixture();
        fixture.Add(DatasetFixture.RepositorySamples().Take(1));
        Assert.AreEqual(0, fixture.Extract().Exit);
        File.WriteAllText(Directory.GetFiles(Path.Combine(fixture.Dataset, "traces"), "*.parquet").Single(), "garbage");
        fixture.Add(DatasetFixture.RepositorySamples().Skip(1).Take(1));
        var (exit, _, errors) = fixture.Extract();
        Assert.AreEqual(2, exit);
        StringAssert.Contains(errors, "the committed traces cannot be read");
    }
}
