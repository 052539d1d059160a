using System.CommandLine;
using HiddenCost.Analysis.Tables.Findings;
using HiddenCost.Analysis.Tables.Findings.Comparison;
using HiddenCost.Cli.Output;

namespace HiddenCost.Cli.Commands;

/// <summary>
/// `hiddencost compare BEFORE AFTER`: each side a trace (analysed) or DATASET@TRACEID (a trace extracted into a dataset,
/// read from its stored rows: <see cref="CompareSide"/>); their findings matched by problem and culprit, each figure
/// before → after, and a verdict. Exit codes as the analysing command's: 1 when a trace cannot be read, 3 on an internal
/// error, 4 when one was read only in part, 5 with --fail-on when a new or worse finding reaches the severity; 2 for bad
/// arguments (an unknown or ambiguous trace id, a folder that is not a dataset) or unwritable output; 130 interrupted.
/// </summary>
public static class CompareCommand
{
    public static Command Create(TextWriter err)
    {
        var before = new Argument<string>("BEFORE") { Description = "the trace recorded before the change, or DATASET@TRACEID: a trace in a dataset by its id (8 or more hex digits)" };
        var after = new Argument<string>("AFTER") { Description = "the trace recorded after it, or DATASET@TRACEID" };
        var format = new Option<string?>("--format", "-f") { Description = "text (the default), csv or json", HelpName = "text|csv|json" };
        var output = new Option<string?>("--output", "-o") { Description = "Write to this file instead of standard output", HelpName = "FILE" };
        var command = new Command("compare", "Compare the findings of two traces (files, or traces in a dataset): did the fix help?");
        command.Arguments.Add(before);
        command.Arguments.Add(after);
        command.Options.Add(format);
        command.Options.Add(output);
        var findings = FindingsOptions.AddTo(command);
        command.SetAction(parse =>
        {
            if (!TryFormat(parse.GetValue(format), out var chosen))
            {
                err.WriteLine($"error: unknown format '{parse.GetValue(format)}' (text, csv or json)");
                return 2;
            }
            if (findings.Read(parse, err) is not { } settings) return 2;
            string b = parse.GetValue(before)!, a = parse.GetValue(after)!;
            if (parse.GetValue(output) is { } file && CliRunner.OutputIsATrace(Path.GetFullPath(file), [b, a]) is { } trace)
            {
                err.WriteLine($"error: --output {file} is the trace {trace}: writing it would destroy the trace");
                return 2;
            }
            return Run(b, a, chosen, parse.GetValue(output), settings, err);
        });
        return command;
    }

    /// <summary>Assesses both sides and writes the comparison; the exit code as <see cref="CompareCommand"/> says.</summary>
    /// <param name="beforeArgument">A trace file, or DATASET@TRACEID (<see cref="CompareSide"/>); so is <paramref name="afterArgument"/>.</param>
    /// <param name="cancellation">Stops the run as Ctrl-C does (exit 130).</param>
    public static int Run(string beforeArgument, string afterArgument, OutputFormat format, string? outputPath, FindingsSettings settings, TextWriter err,
        CancellationToken cancellation = default)
    {
        var thresholds = settings.Thresholds ?? FindingThresholds.Default;
        CompareSide before = CompareSide.Parse(beforeArgument), after = CompareSide.Parse(afterArgument);
        // Both sides' datasets and ids are checked before either trace is read: a mistyped id costs no analysis.
        foreach (var side in new[] { before, after })
            if (side.Prepare() is { } error)
            {
                err.WriteLine($"error: {error}");
                return 2;
            }

        // Never disposed: a Ctrl-C as the program exits would find it disposed.
        var interrupt = CancellationTokenSource.CreateLinkedTokenSource(cancellation);
        bool analysing = true;
        ReplacingOutputFile? pending = null;
        // As the main command: Ctrl-C while the sides are assessed ends the run as interrupted (130); at any other time,
        // and at a second Ctrl-C, the process ends at once, taking an unfinished --output file with it.
        ConsoleCancelEventHandler onCancel = (_, e) =>
        {
            if (interrupt.IsCancellationRequested || !Volatile.Read(ref analysing))
            {
                pending?.Abandon();
                return;
            }
            e.Cancel = true;
            interrupt.Cancel();
        };
        Console.CancelKeyPress += onCancel;
        try
        {
            SideFindings b, a;
            try
            {
                b = before.Assess(thresholds, err, interrupt.Token);
                a = after.Assess(thresholds, err, interrupt.Token);
            }
            catch (OperationCanceledException) when (interrupt.IsCancellationRequested)
            {
                err.WriteLine("interrupted");
                return 130; // 128 + SIGINT, as a shell reports a program that Ctrl-C ended
            }
            Volatile.Write(ref analysing, false);
            if (b.Findings is null || a.Findings is null) return 3;
            if (b.Unreadable || a.Unreadable) return 1; // a trace that could not be read has nothing to compare
            var comparison = FindingComparison.Compare(b.Findings, a.Findings);
            TextWriter writer;
            try
            {
                writer = outputPath is not null ? pending = OutputFile.Create(outputPath) : Console.IsOutputRedirected ? StandardOutput.Open() : Console.Out;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
            {
                err.WriteLine($"error: cannot write {outputPath}: {e.Message}");
                return 2;
            }
            try
            {
                ComparisonWriter.Write(writer, format, before.Label, after.Label, comparison);
                writer.Flush();
                pending?.Commit(); // both sides were read: the comparison replaces an earlier file
                if (!ReferenceEquals(writer, Console.Out)) writer.Dispose();
            }
            catch (Exception e) when (DiagnosticWriter.IsUnwritable(e))
            {
                err.WriteLine($"error: cannot write {outputPath ?? "standard output"}: {e.Message}");
                return 2;
            }
            return settings.FailOn is { } floor && comparison.Trips(floor) ? 5 : b.Partial || a.Partial ? 4 : 0;
        }
        finally
        {
            Console.CancelKeyPress -= onCancel;
        }
    }

    private static bool TryFormat(string? text, out OutputFormat format)
    {
        format = OutputFormat.Text;
        if (text is null) return true;
        foreach (var name in Enum.GetNames<OutputFormat>())
            if (string.Equals(name, text, StringComparison.OrdinalIgnoreCase))
            {
                format = Enum.Parse<OutputFormat>(name);
                return true;
            }
        return false;
    }
}
