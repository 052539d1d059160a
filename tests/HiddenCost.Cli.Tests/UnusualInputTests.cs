using System.Buffers.Binary;
using System.Diagnostics;
using System.IO.Pipes;
using System.Text;
using HiddenCost.Cli.Input;
using HiddenCost.Cli.Output;
using HiddenCost.TestSupport;

namespace HiddenCost.Cli.Tests;

/// <summary>
/// Inputs a hostile or unlucky user gives: pipes and FIFOs under every name Linux gives them, file names that are not
/// UTF-8 or hold a newline, damage no byte-level check would see, and an --output file that must survive a failed run.
/// Pipes and FIFOs are made by the test process itself and run in-process, so /proc/self/fd/N names them.
/// </summary>
[TestClass]
public sealed class UnusualInputTests
{
    private const string PipeError = "offset 0x0: a pipe or FIFO, not a file: a trace is read at offsets, which only a file gives; save it to a file and name that";

    private static (int Exit, string Out, string Err) Run(params string[] traces) => Run(null, traces);

    private static (int Exit, string Out, string Err) Run(IReadOnlyDictionary<string, byte[]>? nativeNames, params string[] traces)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        var runner = new CliRunner(output, error, interactive: false) { NativeNames = nativeNames };
        // A reader that waited for a pipe's writer would hang the test: it must answer within the minute.
        var run = Task.Run(() => runner.Run(traces, new[] { "Trace Info" }, OutputFormat.Csv));
        Assert.IsTrue(run.Wait(TimeSpan.FromSeconds(60)), "the run ends without waiting for a writer");
        return (run.Result, output.ToString(), error.ToString());
    }

    private static void RequireLinux()
    {
        if (!OperatingSystem.IsLinux()) Assert.Inconclusive("Linux's /proc and byte file names");
    }

    [TestMethod]
    public void An_anonymous_pipe_named_by_proc_self_fd_or_dev_fd_is_refused_before_any_read()
    {
        RequireLinux();
        using var pipe = new AnonymousPipeServerStream(PipeDirection.Out);
        using var reading = new AnonymousPipeClientStream(PipeDirection.In, pipe.ClientSafePipeHandle);
        pipe.Write(Samples.Bytes("krabsetw/powershell.etl"), 0, 4096); // what a reader would consume, were it to read
        long fd = reading.SafePipeHandle.DangerousGetHandle();
        foreach (var name in new[] { $"/proc/self/fd/{fd}", $"/dev/fd/{fd}" })
        {
            var (exit, _, error) = Run(name);
            Assert.AreEqual(1, exit);
            Assert.AreEqual($"error: {name}: {PipeError}", ErrorLines(error));
        }
        var left = new byte[4096];
        reading.ReadExactly(left);
        Assert.AreEqual((byte)0x00, left[0], "nothing was read from the pipe");
        Assert.AreEqual(0x20, left[1]);
    }

    [TestMethod]
    public void A_fifo_with_no_writer_is_refused_at_once_by_name_and_when_its_name_is_gone()
    {
        RequireLinux();
        var dir = Directory.CreateTempSubdirectory("hiddencost-fifo-");
        try
        {
            var fifo = Path.Combine(dir.FullName, "trace.etl");
            using (var mkfifo = Process.Start("mkfifo", fifo)) mkfifo.WaitForExit();
            var (exit, _, error) = Run(fifo);
            Assert.AreEqual(1, exit);
            Assert.AreEqual($"error: {fifo}: {PipeError}", ErrorLines(error));

            // Opened read-write (which does not wait on Linux), then unlinked: only /proc/self/fd/N names it now.
            using var held = new FileStream(fifo, FileMode.Open, FileAccess.ReadWrite);
            File.Delete(fifo);
            var name = $"/proc/self/fd/{held.SafeFileHandle.DangerousGetHandle()}";
            (exit, _, error) = Run(name);
            Assert.AreEqual(1, exit);
            Assert.AreEqual($"error: {name}: {PipeError}", ErrorLines(error));
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [TestMethod]
    public void A_deleted_trace_still_open_is_read_through_proc_self_fd()
    {
        RequireLinux();
        var copy = Path.Combine(Path.GetTempPath(), $"hiddencost-deleted-{Guid.NewGuid():N}.etl");
        File.Copy(Samples.PathOf("krabsetw/powershell.etl"), copy);
        using var held = new FileStream(copy, FileMode.Open, FileAccess.Read);
        File.Delete(copy);
        var name = $"/proc/self/fd/{held.SafeFileHandle.DangerousGetHandle()}";
        var (exit, output, error) = Run(name);
        Assert.AreEqual(0, exit, error);
        StringAssert.StartsWith(output.Split('\n')[1], $"{name},Trace Info,10.0.22623");
    }

    [TestMethod]
    public void Dev_stdin_and_process_substitution_of_a_pipe_exit_1_with_one_line_and_a_redirected_file_is_read()
    {
        RequireLinux();
        var trace = Samples.PathOf("krabsetw/powershell.etl");
        var program = Path.Combine(AppContext.BaseDirectory, "hiddencost.dll");
        foreach (var (command, exit, name) in new[]
        {
            ($"cat '{trace}' | dotnet '{program}' /dev/stdin -t 'Trace Info'", 1, "/dev/stdin"),
            ($"dotnet '{program}' <(cat '{trace}') -t 'Trace Info'", 1, "/dev/fd/"),
            ($"dotnet '{program}' /dev/stdin -t 'Trace Info' < '{trace}'", 0, ""),
        })
        {
            var (code, errors) = Bash(command);
            Assert.AreEqual(exit, code, $"{command}: {errors}");
            if (exit == 0) continue;
            var line = ErrorLines(errors);
            Assert.IsFalse(line.Contains('\n'), errors);
            StringAssert.StartsWith(line, $"error: {name}");
            StringAssert.EndsWith(line, PipeError);
        }
    }

    [TestMethod]
    public void A_file_name_that_is_not_utf8_is_opened_by_its_bytes_and_printed_escaped()
    {
        RequireLinux();
        var dir = Directory.CreateTempSubdirectory("hiddencost-names-");
        try
        {
            var trace = Samples.PathOf("krabsetw/powershell.etl");
            var (code, errors) = Bash($"cd '{dir.FullName}' && cp '{trace}' $'bad\\xffname.etl' && ls");
            Assert.AreEqual(0, code, errors);
            var asDotnetSeesIt = Directory.GetFiles(dir.FullName).Single(); // .NET's text for it: U+FFFD for the byte
            StringAssert.Contains(asDotnetSeesIt, "bad\uFFFDname.etl");
            var bytes = Encoding.UTF8.GetBytes(dir.FullName + "/bad").Concat(new byte[] { 0xFF }).Concat("name.etl"u8.ToArray()).ToArray();

            var (exit, output, error) = Run(new Dictionary<string, byte[]> { [asDotnetSeesIt] = bytes }, asDotnetSeesIt);
            Assert.AreEqual(0, exit, error);
            StringAssert.StartsWith(output.Split('\n')[1], $"$'{dir.FullName}/bad\\xFFname.etl',Trace Info,10.0.22623");

            // The whole program, as a shell passes the name: the bytes come back from /proc/self/cmdline.
            var program = Path.Combine(AppContext.BaseDirectory, "hiddencost.dll");
            (code, errors) = Bash($"cd '{dir.FullName}' && dotnet '{program}' $'bad\\xffname.etl' -t 'Trace Info' -f csv >/dev/null && " +
                                  $"dotnet '{program}' $'missing\\xfe\\n.etl' -t 'Trace Info' -f csv >/dev/null");
            Assert.AreEqual(1, code);
            Assert.AreEqual("error: $'missing\\xFE\\n.etl': offset 0x0: file not found", ErrorLines(errors));
        }
        finally
        {
            Bash($"rm -rf '{dir.FullName}'"); // .NET cannot name the file to delete it
        }
    }

    [TestMethod]
    public void A_newline_in_a_file_name_keeps_each_message_on_one_line()
    {
        if (OperatingSystem.IsWindows()) Assert.Inconclusive("Windows names cannot hold a newline");
        var dir = Directory.CreateTempSubdirectory("hiddencost-names-");
        try
        {
            var cut = Path.Combine(dir.FullName, "cut\ntrace.etl");
            var bytes = Samples.Bytes("krabsetw/powershell.etl");
            File.WriteAllBytes(cut, bytes[..(bytes.Length - 100)]);
            var (exit, _, error) = Run(cut);
            Assert.AreEqual(4, exit);
            var lines = error.Split('\n', StringSplitOptions.RemoveEmptyEntries).Where(l => !l.StartsWith("note:", StringComparison.Ordinal)).ToArray();
            Assert.AreEqual(1, lines.Length, error);
            StringAssert.StartsWith(lines[0], $"warning: $'{dir.FullName}/cut\\ntrace.etl' is damaged (offset 0x");
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [TestMethod]
    public void Names_print_as_they_are_unless_a_character_or_byte_would_make_them_ambiguous()
    {
        Assert.AreEqual("/tmp/a b.etl", DisplayName.Of("/tmp/a b.etl"));
        Assert.AreEqual(@"C:\traces\x.etl", DisplayName.Of(@"C:\traces\x.etl"));
        Assert.AreEqual(@"$'a\nb\tc\x1B[31m\\d\'e'", DisplayName.Of("a\nb\tc\u001b[31m\\d'e"));
        Assert.AreEqual(@"$'$\'x'", DisplayName.Of("$'x"), "a name that looks quoted is quoted");
        Assert.AreEqual(@"$'\xFFé\xC3'", DisplayName.Of("\uFFFDé\uFFFD", [0xFF, 0xC3, 0xA9, 0xC3]));
        Assert.AreEqual(@"$'\u2028'", DisplayName.Of("\u2028"));
    }

    [TestMethod]
    public void The_command_lines_last_arguments_give_back_the_bytes_of_those_that_are_not_utf8()
    {
        byte[] cmdline = [.. "dotnet\0hiddencost.dll\0ok.etl\0bad"u8, 0xFF, .. ".etl\0"u8];
        var bytes = CommandLineBytes.Match(cmdline, new[] { "ok.etl", "bad\uFFFD.etl" })!;
        Assert.IsNull(bytes[0]);
        CollectionAssert.AreEqual(new byte[] { (byte)'b', (byte)'a', (byte)'d', 0xFF, (byte)'.', (byte)'e', (byte)'t', (byte)'l' }, bytes[1]);
        Assert.IsNull(CommandLineBytes.Match(cmdline, new[] { "other.etl", "bad\uFFFD.etl" }), "not these arguments: nothing is guessed");
    }

    [TestMethod]
    [DataRow("padding", DisplayName = "end-of-records markers over records")]
    [DataRow("timestamp", DisplayName = "an event stamped 14 years late")]
    [DataRow("clock", DisplayName = "a 1 THz clock")]
    [DataRow("start", DisplayName = "a header start of 0")]
    public void Damage_no_byte_check_sees_exits_4_with_one_warning_line_naming_the_offset(string damage)
    {
        var original = Samples.Bytes("etl-parser/ShutdownPerfDiagLogger.etl");
        var bytes = (byte[])original.Clone();
        // ShutdownPerfDiagLogger.etl: 64 KiB buffers; the trace header payload at 0x68 (64-bit layout).
        switch (damage)
        {
            case "padding":
                for (int b = 3; b < 27; b++) BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(b * 0x10000 + 0x48), 0xFFFF_FFFF);
                break;
            case "timestamp":
                bytes[5 * 0x10000 + 0x48 + 16 + 6] ^= 0x10; // the first record (a system header): its timestamp's seventh byte
                break;
            case "clock":
                BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(0x68 + 256), 1_000_000_000_000);
                break;
            case "start":
                BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(0x68 + 264), 0);
                break;
        }
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-damage-{Guid.NewGuid():N}.etl");
        try
        {
            File.WriteAllBytes(path, bytes);
            var (exit, output, error) = Run(path);
            Assert.AreEqual(4, exit, error);
            var warnings = error.Split('\n').Where(l => l.StartsWith("warning:", StringComparison.Ordinal)).ToArray();
            Assert.AreEqual(1, warnings.Length, error);
            StringAssert.StartsWith(warnings[0], $"warning: {path} is damaged (offset 0x{(damage is "clock" or "start" ? 0x48 : damage == "padding" ? 0x30000 : 0x50000):X}: ");
            var row = output.Split('\n')[1].Split(',');
            long start = long.Parse(row[9]), end = long.Parse(row[10]);
            Assert.IsTrue(start >= 0 && end <= 29_526L * 1_000_000_000, $"Start {start}, End {end}: within the header's span");
        }
        finally
        {
            File.Delete(path);
        }
    }

    [TestMethod]
    public void An_output_file_is_kept_as_it_was_when_no_trace_is_read_and_replaced_when_one_is()
    {
        if (OperatingSystem.IsWindows())
        {
            Assert.Inconclusive("permissions are checked the Unix way");
            return;
        }
        var dir = Directory.CreateTempSubdirectory("hiddencost-output-");
        try
        {
            var output = Path.Combine(dir.FullName, "out.csv");
            File.WriteAllText(output, "an earlier result\n");
            File.SetUnixFileMode(output, UnixFileMode.UserRead | UnixFileMode.UserWrite);
            var missing = Path.Combine(dir.FullName, "missing.etl");
            var program = Path.Combine(AppContext.BaseDirectory, "hiddencost.dll");
            var (code, errors) = Bash($"dotnet '{program}' '{missing}' --format csv --output '{output}'");
            Assert.AreEqual(1, code, errors);
            Assert.AreEqual("an earlier result\n", File.ReadAllText(output));
            CollectionAssert.AreEqual(new[] { "out.csv" }, Directory.GetFileSystemEntries(dir.FullName).Select(Path.GetFileName).ToArray(), "no temporary file left");

            var link = Path.Combine(dir.FullName, "link.csv");
            File.CreateSymbolicLink(link, output);
            var trace = Samples.PathOf("krabsetw/powershell.etl");
            (code, errors) = Bash($"dotnet '{program}' '{trace}' '{missing}' --format csv --table 'Trace Info' --output '{link}'");
            Assert.AreEqual(1, code, "one of the two traces is missing");
            StringAssert.StartsWith(File.ReadAllText(output), "Trace,HiddenCost Table,", "the trace read is written, through the link");
            Assert.IsNotNull(new FileInfo(link).LinkTarget, "the link is kept");
            Assert.AreEqual(UnixFileMode.UserRead | UnixFileMode.UserWrite, File.GetUnixFileMode(output), "the file's permissions are kept");
            Assert.AreEqual(2, Directory.GetFileSystemEntries(dir.FullName).Length, "no temporary file left");
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [TestMethod]
    public void Ctrl_C_at_any_moment_ends_the_run_and_leaves_an_earlier_output_file_as_it_was()
    {
        if (OperatingSystem.IsWindows()) Assert.Inconclusive("sends SIGINT");
        var trace = Samples.PathOf("perfview/net.4.5.2.x64.etl.zip");
        var dir = Directory.CreateTempSubdirectory("hiddencost-interrupt-");
        try
        {
            var output = Path.Combine(dir.FullName, "out.csv");
            // From the runtime starting (before the handler is there) through opening and analysing three traces.
            foreach (int delay in new[] { 50, 300, 800, 1500, 3000 })
            {
                File.WriteAllText(output, "earlier");
                var start = new ProcessStartInfo("dotnet") { UseShellExecute = false, RedirectStandardError = true, RedirectStandardOutput = true };
                foreach (var a in new[] { Path.Combine(AppContext.BaseDirectory, "hiddencost.dll"), trace, trace, trace, "-f", "csv", "-o", output })
                    start.ArgumentList.Add(a);
                using var child = Process.Start(start)!;
                var errors = child.StandardError.ReadToEndAsync();
                Thread.Sleep(delay);
                using (var kill = Process.Start("kill", $"-INT {child.Id}")) kill.WaitForExit();
                bool ended = child.WaitForExit(30_000);
                if (!ended) child.Kill();
                Assert.IsTrue(ended, $"Ctrl-C after {delay} ms ended the run");
                errors.Wait();
                Assert.IsFalse(errors.Result.Contains("   at ", StringComparison.Ordinal), errors.Result);
                if (child.ExitCode == 0) StringAssert.StartsWith(File.ReadAllText(output), "Trace,", "a run that ended first wrote its tables");
                else
                {
                    Assert.AreEqual(130, child.ExitCode, $"after {delay} ms: {errors.Result}");
                    Assert.AreEqual("earlier", File.ReadAllText(output), $"after {delay} ms");
                }
                CollectionAssert.AreEqual(new[] { "out.csv" }, Directory.GetFileSystemEntries(dir.FullName).Select(Path.GetFileName).ToArray(), "no temporary file left");
            }
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [TestMethod]
    public void An_output_file_abandoned_or_disposed_uncommitted_leaves_the_earlier_file_and_no_temporary_one()
    {
        var dir = Directory.CreateTempSubdirectory("hiddencost-output-");
        try
        {
            var output = Path.Combine(dir.FullName, "out.json");
            File.WriteAllText(output, "earlier");
            using (var writer = OutputFile.Create(output)) writer.Write("half a table");
            Assert.AreEqual("earlier", File.ReadAllText(output));
            using (var writer = OutputFile.Create(output))
            {
                writer.Write("interrupted");
                writer.Abandon(); // as Ctrl-C's handler does, with the program about to end
            }
            Assert.AreEqual("earlier", File.ReadAllText(output));
            using (var writer = OutputFile.Create(output))
            {
                writer.Write("new");
                writer.Commit();
            }
            Assert.AreEqual("new", File.ReadAllText(output));
            Assert.AreEqual(1, Directory.GetFileSystemEntries(dir.FullName).Length);
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    /// <summary>The `error:` lines of standard error (notes and other programs' complaints left out).</summary>
    private static string ErrorLines(string error) =>
        string.Join("\n", error.Split('\n').Where(l => l.StartsWith("error:", StringComparison.Ordinal)));

    private static (int Exit, string Err) Bash(string command)
    {
        var start = new ProcessStartInfo("bash") { UseShellExecute = false, RedirectStandardError = true, RedirectStandardOutput = true };
        start.ArgumentList.Add("-c");
        start.ArgumentList.Add(command);
        using var shell = Process.Start(start)!;
        var output = shell.StandardOutput.ReadToEndAsync();
        var errors = shell.StandardError.ReadToEnd();
        Assert.IsTrue(shell.WaitForExit(120_000), "the program ends");
        output.Wait();
        return (shell.ExitCode, errors);
    }

    /// <summary>The shared samples, read from ../shared (skipped without it, as the other tests do).</summary>
    private static class Samples
    {
        public static string PathOf(string sample) => SharedFolder.EtlSample(sample);

        public static byte[] Bytes(string sample) => File.ReadAllBytes(PathOf(sample));
    }
}
