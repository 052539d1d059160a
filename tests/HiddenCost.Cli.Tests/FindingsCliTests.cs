using System.Text.Json;
using HiddenCost.Analysis.Tables.Findings;
using HiddenCost.Cli.Commands;
using HiddenCost.Cli.Output;

namespace HiddenCost.Cli.Tests;

/// <summary>Findings in the CLI: the opening sentences, --fail-on and its exit code, --thresholds, and compare (on the committed synthetic samples).</summary>
[TestClass]
public sealed class FindingsCliTests
{
    /// <summary>The repository's samples folder (the committed synthetic traces).</summary>
    private static string Samples(string name)
    {
        var committed = SampleLocator.Copies().Skip(1).FirstOrDefault() ?? SampleLocator.Find();
        Assert.IsNotNull(committed, "the samples folder is found up the folder tree");
        return Path.Combine(Path.GetDirectoryName(committed)!, name);
    }

    private static (int Exit, string Out, string Err) Run(string trace, IReadOnlyList<string> tables, OutputFormat format, FindingsSettings? findings = null)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        int exit = new CliRunner(output, error, interactive: false) { Findings = findings ?? FindingsSettings.Default }.Run([trace], tables, format);
        return (exit, output.ToString(), error.ToString());
    }

    [TestMethod]
    public void Text_output_opens_with_a_sentence_naming_the_watcher_its_buffer_the_bytes_zeroed_and_the_size_to_use()
    {
        var path = Samples("notify-buffer-storm.etl");
        var (exit, output, _) = Run(path, [], OutputFormat.Text);
        Assert.AreEqual(0, exit);
        var lines = output.Split('\n');
        Assert.AreEqual($"# {path}", lines[0]);
        Assert.AreEqual(
            @"High (Notify buffer): SyncAgent.exe watching \Device\HarddiskVolume3\Data\Inbox costs about 78.1 ms of CPU (estimated), 67.1% of the CPU " +
            @"sampled while it lasted. Give SyncAgent.exe's ReadDirectoryChangesW on \Device\HarddiskVolume3\Data\Inbox (FileSystemWatcher.InternalBufferSize) " +
            "a 65,536-byte buffer (64 KiB) instead of 2,097,152 bytes (2 MiB): its batches averaged 469 bytes of 2,097,152 bytes, and each of its 400 " +
            "completions made the kernel zero the whole buffer, 838,860,800 bytes in all.", lines[1]);
        Assert.AreEqual("Not checked (the trace lacks their events; Findings and Trace Readiness say which): Syscall hook, Spin-wait, Event-log render.", lines[2]);
        Assert.AreEqual("## Findings (4 rows)", lines[4], "Findings is the first table");
    }

    [TestMethod]
    public void Sentences_are_written_only_when_findings_is_among_the_tables()
    {
        var (_, output, _) = Run(Samples("notify-buffer-storm.etl"), ["Trace Info"], OutputFormat.Text);
        Assert.IsFalse(output.Contains("Notify buffer", StringComparison.Ordinal));
        var (_, csv, _) = Run(Samples("notify-buffer-storm.etl"), ["Findings"], OutputFormat.Csv);
        StringAssert.StartsWith(csv, "Trace,HiddenCost Table,Problem,Severity,Culprit,Victims,Cost (ms),Share of CPU (%),Evidence,Recommendation,See Table,Start,End");
    }

    [TestMethod]
    public void Fail_on_exits_5_for_a_finding_at_or_above_the_severity_and_0_otherwise()
    {
        var spin = Samples("spin-contention.etl"); // high, medium and low findings
        Assert.AreEqual(0, Run(spin, ["Trace Info"], OutputFormat.Json).Exit, "without --fail-on, exit codes as before");
        Assert.AreEqual(5, Run(spin, ["Trace Info"], OutputFormat.Json, new FindingsSettings(null, Severity.High)).Exit, "whatever tables are shown");
        var lenient = ThresholdsFile.Parse("""{ "openMp": { "medium": 100, "high": 100 }, "spinWait": { "medium": 100, "high": 100 } }""", "t.json");
        Assert.AreEqual(0, Run(spin, [], OutputFormat.Csv, new FindingsSettings(lenient, Severity.Medium)).Exit, "medium and above: none under these thresholds");
        Assert.AreEqual(5, Run(spin, [], OutputFormat.Csv, new FindingsSettings(lenient, Severity.Low)).Exit);
    }

    [TestMethod]
    public void An_unreadable_trace_exits_1_and_a_damaged_one_with_a_finding_exits_5()
    {
        var empty = Path.Combine(Path.GetTempPath(), $"hiddencost-findings-empty-{Guid.NewGuid():N}.etl");
        var cut = Path.Combine(Path.GetTempPath(), $"hiddencost-findings-cut-{Guid.NewGuid():N}.etl");
        try
        {
            File.WriteAllBytes(empty, []);
            Assert.AreEqual(1, Run(empty, [], OutputFormat.Json, new FindingsSettings(null, Severity.Low)).Exit);
            var (_, text, _) = Run(empty, [], OutputFormat.Text);
            Assert.IsFalse(text.Contains("No finding", StringComparison.Ordinal), "a trace that could not be read was not checked: no sentence says it is clean");
            var bytes = File.ReadAllBytes(Samples("notify-buffer-storm.etl"));
            File.WriteAllBytes(cut, bytes[..(bytes.Length * 9 / 10)]);
            var (damaged, _, error) = Run(cut, [], OutputFormat.Json);
            Assert.AreEqual(4, damaged, error);
            Assert.AreEqual(5, Run(cut, [], OutputFormat.Json, new FindingsSettings(null, Severity.High)).Exit, "5 wins over 4");
        }
        finally
        {
            File.Delete(empty);
            File.Delete(cut);
        }
    }

    [TestMethod]
    public void Compare_says_worse_for_new_findings_and_exits_5_with_fail_on()
    {
        var before = Samples("notify-buffer-storm.etl");
        var after = Samples("hiddencost-sample.etl");
        var json = Path.Combine(Path.GetTempPath(), $"hiddencost-compare-{Guid.NewGuid():N}.json");
        try
        {
            var err = new StringWriter();
            Assert.AreEqual(5, CompareCommand.Run(before, after, OutputFormat.Json, json, new FindingsSettings(null, Severity.High), err), err.ToString());
            using var doc = JsonDocument.Parse(File.ReadAllText(json));
            Assert.AreEqual("worse", doc.RootElement.GetProperty("verdict").GetString());
            Assert.AreEqual(6, doc.RootElement.GetProperty("counts").GetProperty("new").GetInt32());
            var notify = doc.RootElement.GetProperty("findings").EnumerateArray().Single(f => f.GetProperty("problem").GetString() == "Notify buffer");
            Assert.AreEqual("unchanged", notify.GetProperty("change").GetString());
            var zeroed = notify.GetProperty("figures").EnumerateArray().Single(f => f.GetProperty("name").GetString() == "Bytes Zeroed");
            Assert.AreEqual(838_860_800, zeroed.GetProperty("before").GetDouble());
            Assert.AreEqual(838_860_800, zeroed.GetProperty("after").GetDouble());
            Assert.AreEqual(0, CompareCommand.Run(before, after, OutputFormat.Csv, json, FindingsSettings.Default, err), "without --fail-on");
            var csv = File.ReadAllLines(json);
            Assert.AreEqual("Before Trace,After Trace,Problem,Culprit,Change,Severity Before,Severity After,Figure,Unit,Before,After,Difference,Difference (%),Beyond Noise", csv[0]);
            Assert.AreEqual($"{before},{after},Verdict,,worse,,,,,,,,,", csv[1]);
            Assert.AreEqual(0, CompareCommand.Run(before, before, OutputFormat.Text, json, new FindingsSettings(null, Severity.Low), err), "the same trace: nothing new or worse");
            var text = File.ReadAllLines(json);
            Assert.AreEqual($"# compare {before} -> {before}", text[0]);
            Assert.AreEqual("Verdict: unchanged: 0 gone, 0 new, 0 worse, 0 better, 1 unchanged within noise, 0 not checked after.", text[1]);
        }
        finally
        {
            File.Delete(json);
        }
    }

    [TestMethod]
    public void The_program_refuses_a_bad_thresholds_file_or_fail_on_level_with_exit_2()
    {
        var file = Path.Combine(Path.GetTempPath(), $"hiddencost-thresholds-{Guid.NewGuid():N}.json");
        try
        {
            File.WriteAllText(file, "{ \"notifyBuffer\": { \"high\": \"big\" } }");
            foreach (var (args, message) in new[]
            {
                (new[] { "--thresholds", file, Samples("notify-buffer-storm.etl") }, $"error: --thresholds {file}: notifyBuffer.high: expected a number ≥ 0, found \"big\""),
                (new[] { "--fail-on", "severe", Samples("notify-buffer-storm.etl") }, "error: --fail-on severe: expected high, medium or low"),
                (new[] { "compare", "--thresholds", file, Samples("notify-buffer-storm.etl"), Samples("notify-buffer-storm.etl") }, $"error: --thresholds {file}: notifyBuffer.high: expected a number ≥ 0, found \"big\""),
            })
            {
                using var program = StartProgram(args);
                var error = program.StandardError.ReadToEnd();
                program.WaitForExit();
                Assert.AreEqual(2, program.ExitCode, string.Join(" ", args));
                Assert.AreEqual(message, error.Trim());
            }
            using var compare = StartProgram("compare", Samples("notify-buffer-storm.etl"), Samples("hiddencost-sample.etl"), "--fail-on", "medium");
            var output = compare.StandardOutput.ReadToEnd();
            compare.WaitForExit();
            Assert.AreEqual(5, compare.ExitCode);
            StringAssert.Contains(output, "Verdict: worse: 0 gone, 6 new,");
        }
        finally
        {
            File.Delete(file);
        }
    }

    private static System.Diagnostics.Process StartProgram(params string[] args)
    {
        var start = new System.Diagnostics.ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "hiddencost.dll"));
        foreach (var a in args) start.ArgumentList.Add(a);
        return System.Diagnostics.Process.Start(start)!;
    }
}
