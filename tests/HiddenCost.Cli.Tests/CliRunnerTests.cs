using System.Text.Json;
using HiddenCost.Analysis;
using HiddenCost.Cli;
using HiddenCost.Cli.Output;
using HiddenCost.TestSupport;

namespace HiddenCost.Cli.Tests;

[TestClass]
public sealed class CliRunnerTests
{
    private static (int Exit, string Out, string Err) Run(IReadOnlyList<string> traces, IReadOnlyList<string> tables, OutputFormat format)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        int exit = new CliRunner(output, error, interactive: false).Run(traces, tables, format);
        return (exit, output.ToString(), error.ToString());
    }

    [TestMethod]
    public void Json_output_has_one_object_per_trace_with_typed_rows_in_column_order()
    {
        var path = SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip");
        var (exit, output, _) = Run(new[] { path }, new[] { "Event Counts" }, OutputFormat.Json);
        Assert.AreEqual(0, exit);
        using var doc = JsonDocument.Parse(output);
        var trace = doc.RootElement.EnumerateArray().Single();
        Assert.AreEqual(path, trace.GetProperty("trace").GetString());
        var table = trace.GetProperty("tables").EnumerateArray().Single();
        Assert.AreEqual("Event Counts", table.GetProperty("name").GetString());
        Assert.AreEqual("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0002", table.GetProperty("guid").GetString());
        var columns = table.GetProperty("columns").EnumerateArray().Select(c => c.GetProperty("name").GetString()).ToArray();
        CollectionAssert.AreEqual(new[] { "Provider", "Provider Id", "Event", "Id", "Opcode", "Version", "Header", "Count", "With Stack" }, columns);
        var sampled = table.GetProperty("rows").EnumerateArray().Single(r => r[0].GetString() == "PerfInfo" && r[2].GetString() == "SampledProfile");
        Assert.AreEqual(79_528, sampled[7].GetInt64());
        Assert.AreEqual(JsonValueKind.Number, sampled[3].ValueKind);
    }

    [TestMethod]
    public void Empty_trace_exits_non_zero_with_one_line_naming_file_and_offset()
    {
        var path = SharedFolder.EtlSample("etwanalyzer/EmptyETL.etl");
        var (exit, _, error) = Run(new[] { path }, Array.Empty<string>(), OutputFormat.Text);
        Assert.AreEqual(1, exit);
        Assert.AreEqual($"error: {path}: offset 0x0: empty file (0 bytes), or not a file (a pipe or device): not an ETL trace", error.Trim());
    }

    [TestMethod]
    public void A_cut_trace_exits_4_with_a_warning_whatever_tables_are_asked_for()
    {
        var sample = SampleLocator.Find();
        Assert.IsNotNull(sample);
        var bytes = File.ReadAllBytes(sample);
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-cli-cut-{Guid.NewGuid():N}.etl");
        try
        {
            File.WriteAllBytes(path, bytes[..(bytes.Length * 3 / 4)]);
            var (exit, output, error) = Run(new[] { path }, new[] { "Directory Notify Buffers" }, OutputFormat.Json);
            Assert.AreEqual(4, exit);
            StringAssert.StartsWith(error, $"warning: {path} is damaged (offset 0x");
            using var doc = JsonDocument.Parse(output);
            var trace = doc.RootElement.EnumerateArray().Single();
            Assert.AreEqual(JsonValueKind.Null, trace.GetProperty("error").ValueKind);
            StringAssert.StartsWith(trace.GetProperty("warning").GetString(), $"{path} is damaged");
            var (wholeExit, wholeOutput, _) = Run(new[] { sample }, new[] { "Trace Info" }, OutputFormat.Json);
            Assert.AreEqual(0, wholeExit);
            using var whole = JsonDocument.Parse(wholeOutput);
            Assert.AreEqual(JsonValueKind.Null, whole.RootElement[0].GetProperty("warning").ValueKind);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [TestMethod]
    public void Output_naming_one_of_the_traces_is_refused()
    {
        var dir = Directory.CreateTempSubdirectory("hiddencost-cli-");
        try
        {
            var trace = Path.Combine(dir.FullName, "x.etl");
            File.WriteAllBytes(trace, [1, 2, 3]);
            Assert.AreEqual(trace, CliRunner.OutputIsATrace(Path.Combine(dir.FullName, ".", "x.etl"), new[] { "other.etl", trace }));
            Assert.IsNull(CliRunner.OutputIsATrace(Path.Combine(dir.FullName, "y.txt"), new[] { trace }));
            var link = Path.Combine(dir.FullName, "link.etl");
            File.CreateSymbolicLink(link, trace);
            Assert.AreEqual(trace, CliRunner.OutputIsATrace(link, new[] { trace }), "a link to the trace is the trace");
            var linkedFolder = Path.Combine(dir.FullName, "folder-link");
            Directory.CreateSymbolicLink(linkedFolder, dir.FullName);
            Assert.AreEqual(trace, CliRunner.OutputIsATrace(Path.Combine(linkedFolder, "x.etl"), new[] { trace }), "the trace through a linked folder is the trace");
            Assert.AreEqual(Path.Combine(linkedFolder, "link.etl"), CliRunner.OutputIsATrace(trace, new[] { Path.Combine(linkedFolder, "link.etl") }),
                "and the other way round");
            // A `..` after a link goes up from where the link points: r/dl -> x/y, so r/dl/../t.etl is x/t.etl, and so is
            // r/L, a link to the relative dl/../t.etl.
            var x = Directory.CreateDirectory(Path.Combine(dir.FullName, "x"));
            Directory.CreateDirectory(Path.Combine(x.FullName, "y"));
            var inX = Path.Combine(x.FullName, "t.etl");
            File.WriteAllBytes(inX, [4, 5, 6]);
            var r = Directory.CreateDirectory(Path.Combine(dir.FullName, "r"));
            Directory.CreateSymbolicLink(Path.Combine(r.FullName, "dl"), Path.Combine(x.FullName, "y"));
            File.CreateSymbolicLink(Path.Combine(r.FullName, "L"), Path.Combine("dl", "..", "t.etl"));
            Assert.AreEqual(inX, CliRunner.OutputIsATrace(Path.Combine(r.FullName, "dl", "..", "t.etl"), new[] { inX }));
            Assert.AreEqual(inX, CliRunner.OutputIsATrace(Path.Combine(r.FullName, "L"), new[] { inX }));
            Assert.IsNull(CliRunner.OutputIsATrace(Path.Combine(r.FullName, "t.etl"), new[] { inX }), "r/t.etl is another file");
            // A loop of links is no answer, and no hang.
            File.CreateSymbolicLink(Path.Combine(dir.FullName, "c1"), Path.Combine(dir.FullName, "c2"));
            File.CreateSymbolicLink(Path.Combine(dir.FullName, "c2"), Path.Combine(dir.FullName, "c1"));
            Assert.IsNull(CliRunner.OutputIsATrace(Path.Combine(dir.FullName, "c1"), new[] { inX }));
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [TestMethod]
    public void With_no_trace_given_an_output_naming_the_bundled_sample_is_refused()
    {
        // The sample is what the run analyses then: writing the tables over it destroyed it (and every later run).
        var sample = SampleLocator.Find();
        Assert.IsNotNull(sample, "the bundled sample is found beside the program or up the folder tree");
        Assert.AreEqual(sample, CliRunner.OutputIsATrace(sample, Array.Empty<string>()));
        Assert.IsNull(CliRunner.OutputIsATrace(sample + ".csv", Array.Empty<string>()));
        // The repository's committed copy, which the build copies beside the program: `-o samples/hiddencost-sample.etl`
        // from the repository's root replaced it with text.
        var committed = SampleLocator.Copies().Skip(1).FirstOrDefault();
        Assert.IsNotNull(committed, "the repository's copy is found up the folder tree");
        Assert.AreEqual(committed, CliRunner.OutputIsATrace(committed, Array.Empty<string>()));
        Assert.IsNull(CliRunner.OutputIsATrace(committed, new[] { sample }), "with traces given, only they are guarded");
    }

    /// <summary>The built program itself, in a process of its own (what argument parsing and standard output do).</summary>
    private static System.Diagnostics.Process StartProgram(params string[] args)
    {
        var start = new System.Diagnostics.ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "hiddencost.dll"));
        foreach (var a in args) start.ArgumentList.Add(a);
        return System.Diagnostics.Process.Start(start)!;
    }

    [TestMethod]
    public void Output_redirected_to_a_file_continues_where_the_shell_left_it_and_leaves_it_after_the_tables()
    {
        if (OperatingSystem.IsWindows()) Assert.Inconclusive("needs a POSIX shell");
        var dir = Directory.CreateTempSubdirectory("hiddencost-cli-");
        try
        {
            var file = Path.Combine(dir.FullName, "out.csv");
            var program = Path.Combine(AppContext.BaseDirectory, "hiddencost.dll");
            var start = new System.Diagnostics.ProcessStartInfo("sh") { UseShellExecute = false, RedirectStandardError = true };
            start.ArgumentList.Add("-c");
            start.ArgumentList.Add($"{{ echo before; dotnet '{program}' --format csv --table 'Trace Info'; echo after; }} > '{file}'");
            using var shell = System.Diagnostics.Process.Start(start)!;
            shell.StandardError.ReadToEnd();
            Assert.IsTrue(shell.WaitForExit(120_000));
            var lines = File.ReadAllLines(file);
            Assert.AreEqual(4, lines.Length, string.Join("\n", lines));
            Assert.AreEqual("before", lines[0]);
            StringAssert.StartsWith(lines[1], "Trace,HiddenCost Table,OS Version");
            StringAssert.Contains(lines[2], ",Trace Info,");
            Assert.AreEqual("after", lines[3], "the shell's next line follows the tables instead of overwriting them");
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [TestMethod]
    public void A_format_is_taken_by_name_only_and_a_wrong_one_exits_2_naming_the_choices()
    {
        foreach (var bad in new[] { "xml", "1" })
        {
            using var child = StartProgram("--format", bad);
            var output = child.StandardOutput.ReadToEnd();
            var errors = child.StandardError.ReadToEnd();
            Assert.IsTrue(child.WaitForExit(120_000));
            Assert.AreEqual(2, child.ExitCode, bad);
            Assert.AreEqual("", output, "nothing analysed");
            StringAssert.StartsWith(errors, $"error: unknown format '{bad}' (text, csv or json)");
        }
        using var json = StartProgram("--format", "JSON", "--table", "Trace Info");
        var text = json.StandardOutput.ReadToEnd();
        json.StandardError.ReadToEnd();
        Assert.IsTrue(json.WaitForExit(120_000));
        Assert.AreEqual(0, json.ExitCode);
        Assert.AreEqual(System.Text.Json.JsonValueKind.Array, JsonDocument.Parse(text).RootElement.ValueKind);
    }

    [TestMethod]
    public void Help_names_the_formats_as_they_are_typed_and_text_output_is_the_default()
    {
        using var help = StartProgram("--help");
        var text = help.StandardOutput.ReadToEnd();
        help.StandardError.ReadToEnd();
        Assert.IsTrue(help.WaitForExit(120_000));
        StringAssert.Contains(text, "--format <text|csv|json>  text (terminal tables; the default), csv or json");
        Assert.IsFalse(text.Contains("[default: Text]", StringComparison.Ordinal), "the enum's own spelling, which the parser does not show users");
        using var plain = StartProgram("--table", "Trace Info");
        var output = plain.StandardOutput.ReadToEnd();
        plain.StandardError.ReadToEnd();
        Assert.IsTrue(plain.WaitForExit(120_000));
        Assert.AreEqual(0, plain.ExitCode);
        StringAssert.Contains(output, "## Trace Info (1 row)", "text when no format is given");
    }

    [TestMethod]
    public void A_closed_pipe_on_standard_output_exits_2_with_one_error_line()
    {
        if (OperatingSystem.IsWindows()) Assert.Inconclusive("the Unix console stream is what dropped the error");
        using var child = StartProgram("--format", "csv");
        child.StandardOutput.Close(); // nobody reads: the first write meets a closed pipe
        var errors = child.StandardError.ReadToEnd();
        Assert.IsTrue(child.WaitForExit(120_000), "the program ends");
        Assert.AreEqual(2, child.ExitCode, errors);
        var lines = errors.Split('\n').Where(l => l.StartsWith("error:", StringComparison.Ordinal)).ToArray();
        Assert.AreEqual(1, lines.Length, errors);
        StringAssert.StartsWith(lines[0], "error: cannot write standard output");
        Assert.IsFalse(errors.Contains("   at ", StringComparison.Ordinal), "no stack trace");
    }

    /// <summary>The built program run by a POSIX shell, for redirections the process API cannot make (closed descriptors).</summary>
    private static (int Exit, string Err) RunInShell(string redirectedCommandLine)
    {
        var program = Path.Combine(AppContext.BaseDirectory, "hiddencost.dll");
        var start = new System.Diagnostics.ProcessStartInfo("sh") { UseShellExecute = false, RedirectStandardError = true, RedirectStandardOutput = true };
        start.ArgumentList.Add("-c");
        start.ArgumentList.Add($"dotnet '{program}' {redirectedCommandLine}");
        using var shell = System.Diagnostics.Process.Start(start)!;
        var output = shell.StandardOutput.ReadToEndAsync();
        var errors = shell.StandardError.ReadToEnd();
        Assert.IsTrue(shell.WaitForExit(120_000), "the program ends");
        output.Wait();
        return (shell.ExitCode, errors);
    }

    [TestMethod]
    public void A_closed_standard_output_exits_2_with_one_error_line_and_no_stack_trace()
    {
        if (OperatingSystem.IsWindows()) Assert.Inconclusive("needs a POSIX shell");
        var (exit, errors) = RunInShell("--format csv --table 'Trace Info' >&-");
        Assert.AreEqual(2, exit, errors);
        Assert.AreEqual("error: cannot write standard output: it is closed or not open for writing", errors.Trim());
    }

    [TestMethod]
    public void A_closed_standard_error_still_ends_with_the_exit_code_that_says_what_happened()
    {
        if (OperatingSystem.IsWindows()) Assert.Inconclusive("needs a POSIX shell");
        // The error line cannot be written; the program used to die writing that failure's exception (exit 134).
        var missing = Path.Combine(Path.GetTempPath(), Guid.NewGuid() + ".etl");
        Assert.AreEqual(1, RunInShell($"'{missing}' --table 'Trace Info' 2>&- >/dev/null").Exit);
        Assert.AreEqual(2, RunInShell("--tabel 2>&-").Exit);
    }

    [TestMethod]
    public void Ctrl_C_while_the_tables_are_written_ends_the_program_at_once()
    {
        if (OperatingSystem.IsWindows()) Assert.Inconclusive("sends SIGINT");
        // Three traces' tables are more than a pipe holds: unread, the program blocks writing them, its analyses done.
        var trace = SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip");
        using var child = StartProgram(trace, trace, trace);
        // Blocked once its CPU time stops growing (a fixed wait would be too short on a busy machine).
        var deadline = DateTime.UtcNow.AddSeconds(90);
        for (var cpu = TimeSpan.MinValue; DateTime.UtcNow < deadline && !child.HasExited;)
        {
            Thread.Sleep(1000);
            child.Refresh();
            if (child.TotalProcessorTime == cpu) break;
            cpu = child.TotalProcessorTime;
        }
        Assert.IsFalse(child.HasExited, "blocked on its output");
        using (var kill = System.Diagnostics.Process.Start("kill", $"-INT {child.Id}")) kill.WaitForExit();
        bool ended = child.WaitForExit(15_000);
        if (!ended) child.Kill();
        Assert.IsTrue(ended, "Ctrl-C outside an analysis is not swallowed");
        Assert.AreNotEqual(0, child.ExitCode);
    }

    [TestMethod]
    public void An_interrupted_run_stops_with_the_cancellation_not_as_an_internal_error()
    {
        var trace = SharedFolder.EtlSample("krabsetw/powershell.etl"); // outside the lambda: a missing sample skips the test
        using var interrupt = new CancellationTokenSource();
        interrupt.Cancel();
        var output = new StringWriter();
        var error = new StringWriter();
        var runner = new CliRunner(output, error, interactive: false, interrupt.Token);
        Assert.ThrowsExactly<OperationCanceledException>(() => runner.Run(new[] { trace }, Array.Empty<string>(), OutputFormat.Json));
        Assert.AreEqual("", error.ToString(), "no 'internal error' line");
    }

    [TestMethod]
    public void Unknown_table_name_exits_2_and_lists_the_tables()
    {
        var (exit, _, error) = Run(Array.Empty<string>(), new[] { "No Such Table" }, OutputFormat.Text);
        Assert.AreEqual(2, exit);
        StringAssert.Contains(error, "Trace Info");
    }

    [TestMethod]
    public void Mistyped_option_exits_2_instead_of_being_read_as_a_trace()
    {
        var (exit, output, error) = Run(new[] { "--tabel", "Trace Info" }, Array.Empty<string>(), OutputFormat.Text);
        Assert.AreEqual(2, exit);
        StringAssert.Contains(error, "unknown option '--tabel'");
        Assert.AreEqual("", output);
    }

    [TestMethod]
    public void A_trace_named_after_a_double_dash_is_a_file_name_even_when_it_starts_with_a_dash()
    {
        var missing = "-missing-" + Guid.NewGuid() + ".etl"; // not -f…, -t… or -o…: those parse as options with their values
        using var child = StartProgram("--table", "Trace Info", "--", missing);
        child.StandardOutput.ReadToEnd();
        var errors = child.StandardError.ReadToEnd();
        Assert.IsTrue(child.WaitForExit(120_000), "the program ends");
        Assert.AreEqual(1, child.ExitCode, errors);
        StringAssert.Contains(errors, $"error: {missing}: offset 0x0: file not found");
        Assert.AreEqual(2, Run(new[] { missing }, Array.Empty<string>(), OutputFormat.Text).Exit, "without `--`, an unknown option");

        // The same text before `--` is still a mistyped option.
        using var mistyped = StartProgram("--table", "Trace Info", missing, "--", missing);
        mistyped.StandardOutput.ReadToEnd();
        var mistypedErrors = mistyped.StandardError.ReadToEnd();
        Assert.IsTrue(mistyped.WaitForExit(120_000));
        Assert.AreEqual(2, mistyped.ExitCode, mistypedErrors);
        StringAssert.Contains(mistypedErrors, $"unknown option '{missing}'");
    }

    [TestMethod]
    public void Csv_output_quotes_and_keeps_raw_values()
    {
        var path = SharedFolder.EtlSample("etl-parser/ShutdownPerfDiagLogger.etl");
        var (exit, output, _) = Run(new[] { path }, new[] { "Trace Info" }, OutputFormat.Csv);
        Assert.AreEqual(0, exit);
        var lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.AreEqual(2, lines.Length);
        StringAssert.StartsWith(lines[0], "Trace,HiddenCost Table,OS Version,OS Build,Processors");
        StringAssert.Contains(lines[1], ",Trace Info,10.0.18362,18362,2,8,QueryPerformanceCounter,");
    }

    [TestMethod]
    public void Csv_headers_name_every_column_once_in_every_table()
    {
        // Trace Readiness has a "Table" column: a leading column of that name made csv.DictReader read the wrong one.
        var (_, output, _) = Run(Array.Empty<string>(), Array.Empty<string>(), OutputFormat.Csv);
        var headers = output.Split('\n').Where(l => l.StartsWith("Trace,", StringComparison.Ordinal)).ToList();
        Assert.AreEqual(TableCatalog.All.Count, headers.Count);
        foreach (var header in headers)
        {
            var names = header.TrimEnd('\r').Split(',');
            Assert.AreEqual(names.Length, names.Distinct().Count(), header);
        }
        Assert.IsTrue(headers.Any(h => h.StartsWith("Trace,HiddenCost Table,Table,Ready", StringComparison.Ordinal)));
    }

    [TestMethod]
    public void Csv_output_sends_table_notes_to_standard_error_naming_trace_and_table()
    {
        // The bundled synthetic sample (copied beside the program at build, so this runs without ../shared).
        var sample = SampleLocator.Find();
        Assert.IsNotNull(sample);
        var (exit, output, error) = Run(Array.Empty<string>(), new[] { "Directory Notify Victims" }, OutputFormat.Csv);
        Assert.AreEqual(0, exit);
        Assert.AreEqual($"note: {sample}: Directory Notify Victims: Notify CPU (ms) needs kernel function names (FsRtlNotify*/memset), " +
                        "which HiddenCost does not read (no symbol files): empty. In WPA, load symbols and see CPU Usage (Sampled) under the " +
                        "stack tag Directory Notify Buffer Zeroing.", error.Trim());
        Assert.IsFalse(output.Contains("note:"), "the CSV itself stays a grid");
        Assert.AreEqual(3, output.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
    }

    [TestMethod]
    public void Text_output_prints_single_row_tables_as_fields()
    {
        var path = SharedFolder.EtlSample("etl-parser/ShutdownPerfDiagLogger.etl");
        var (_, output, _) = Run(new[] { path }, new[] { "Trace Info" }, OutputFormat.Text);
        StringAssert.Contains(output, "## Trace Info (1 row)");
        StringAssert.Contains(output, "Session Name                 PerfDiag Logger");
    }

    [TestMethod]
    public void Text_durations_read_in_milliseconds_with_thousands_grouped()
    {
        var duration = new HiddenCost.Analysis.Model.ColumnSpec(Guid.NewGuid(), "Duration", HiddenCost.Analysis.Model.ColumnType.Duration);
        Assert.AreEqual("12,581.565 ms", CellFormatter.Text(duration, 12_581_564_800L));
        Assert.AreEqual("0.040 ms", CellFormatter.Text(duration, 40_000L));
    }

    [TestMethod]
    public void Text_identifiers_print_without_separators_and_counts_with_them()
    {
        var pid = new HiddenCost.Analysis.Model.ColumnSpec(Guid.NewGuid(), "PID", HiddenCost.Analysis.Model.ColumnType.Integer);
        var count = new HiddenCost.Analysis.Model.ColumnSpec(Guid.NewGuid(), "Syscalls", HiddenCost.Analysis.Model.ColumnType.Integer,
            HiddenCost.Analysis.Model.ColumnUnit.Count);
        Assert.AreEqual("26100", CellFormatter.Text(pid, 26_100L));
        Assert.AreEqual("26,100", CellFormatter.Text(count, 26_100L));
    }

    [TestMethod]
    public void Text_decimals_keep_one_precision_per_column_by_unit()
    {
        static string Text(HiddenCost.Analysis.Model.ColumnUnit unit, double value) => CellFormatter.Text(
            new HiddenCost.Analysis.Model.ColumnSpec(Guid.NewGuid(), "x", HiddenCost.Analysis.Model.ColumnType.Decimal, unit), value);
        Assert.AreEqual("0.500", Text(HiddenCost.Analysis.Model.ColumnUnit.Milliseconds, 0.5));
        Assert.AreEqual("1,234.568", Text(HiddenCost.Analysis.Model.ColumnUnit.Milliseconds, 1234.5678));
        Assert.AreEqual("33.000", Text(HiddenCost.Analysis.Model.ColumnUnit.Microseconds, 33));
        Assert.AreEqual("13.00", Text(HiddenCost.Analysis.Model.ColumnUnit.Ratio, 13));
        Assert.AreEqual("7.5", Text(HiddenCost.Analysis.Model.ColumnUnit.Percent, 7.54));
        Assert.AreEqual("49,796.5", Text(HiddenCost.Analysis.Model.ColumnUnit.PerSecond, 49_796.5));
        Assert.AreEqual("0.05", Text(HiddenCost.Analysis.Model.ColumnUnit.Megabytes, 0.049));
        Assert.AreEqual("0.033", Text(HiddenCost.Analysis.Model.ColumnUnit.PerSecond, 1 / 30.0), "not rounded to nothing");
        Assert.AreEqual("0.0039", Text(HiddenCost.Analysis.Model.ColumnUnit.Megabytes, 4096 / 1048576.0));
        Assert.AreEqual("-0.00042", Text(HiddenCost.Analysis.Model.ColumnUnit.Milliseconds, -0.00042));
        Assert.AreEqual("0.0", Text(HiddenCost.Analysis.Model.ColumnUnit.Percent, 0));
    }

    [TestMethod]
    public void A_lone_surrogate_from_a_trace_is_written_to_an_output_file_as_a_replacement_character()
    {
        // A fuzzed session name with 0xDC00 in it threw EncoderFallbackException out of --output, half-way through.
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-out-{Guid.NewGuid():N}.csv");
        try
        {
            using (var writer = OutputFile.Create(path))
            {
                writer.Write("a\uDC00b");
                writer.Commit();
            }
            CollectionAssert.AreEqual(new byte[] { (byte)'a', 0xEF, 0xBF, 0xBD, (byte)'b' }, File.ReadAllBytes(path));
        }
        finally
        {
            File.Delete(path);
        }
    }

    [TestMethod]
    public void Table_headings_count_rows_in_the_singular_for_one_and_with_separators_for_thousands()
    {
        Assert.AreEqual("0 rows", CellFormatter.RowCount(0));
        Assert.AreEqual("1 row", CellFormatter.RowCount(1));
        Assert.AreEqual("2 rows", CellFormatter.RowCount(2));
        Assert.AreEqual("8,192 rows", CellFormatter.RowCount(8192));
    }
}
