using System.CommandLine;
using HiddenCost.Analysis;
using HiddenCost.Analysis.Tables.Findings;
using HiddenCost.Analysis.Tables.Findings.Comparison;
using HiddenCost.Cli.Input;
using HiddenCost.Cli.Output;
using HiddenCost.Etl;

namespace HiddenCost.Cli.Commands;

/// <summary>
/// `hiddencost compare BEFORE AFTER`: both traces analysed, their findings matched by problem and culprit, each figure
/// before → after, and a verdict. Exit codes as the analysing command's: 1 when a trace cannot be read, 3 on an internal
/// error, 4 when one was read only in part, 5 with --fail-on when a new or worse finding reaches the severity; 2 for bad
/// arguments or unwritable output.
/// </summary>
public static class CompareCommand
{
    public static Command Create(TextWriter err)
    {
        var before = new Argument<string>("BEFORE") { Description = "the trace recorded before the change" };
        var after = new Argument<string>("AFTER") { Description = "the trace recorded after it" };
        var format = new Option<string?>("--format", "-f") { Description = "text (the default), csv or json", HelpName = "text|csv|json" };
        var output = new Option<string?>("--output", "-o") { Description = "Write to this file instead of standard output", HelpName = "FILE" };
        var command = new Command("compare", "Compare the findings of two traces: did the fix help?");
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

    /// <summary>Analyses both traces and writes the comparison; the exit code as <see cref="CompareCommand"/> says.</summary>
    public static int Run(string beforePath, string afterPath, OutputFormat format, string? outputPath, FindingsSettings settings, TextWriter err)
    {
        var thresholds = settings.Thresholds ?? FindingThresholds.Default;
        bool unreadable = false, partial = false;
        IReadOnlyList<Finding>? Assess(string path)
        {
            AnalysisResult result;
            try
            {
                result = TraceAnalyzer.Analyze(new TraceFileName(DisplayName.Of(path), path), thresholds);
            }
            catch (Exception e) when (e is not OperationCanceledException)
            {
                err.WriteLine($"error: {path}: internal error, please report it with the trace if you can: {e}");
                return null;
            }
            if (result.Error is not null)
            {
                err.WriteLine($"error: {result.Error}");
                unreadable = true;
            }
            if (result.Warning is not null)
            {
                err.WriteLine($"warning: {result.Warning}");
                partial = true;
            }
            return FindingsEvaluator.Assess(ProblemFigures.From(result.Tables), thresholds);
        }
        var b = Assess(beforePath);
        var a = Assess(afterPath);
        if (b is null || a is null) return 3;
        if (unreadable) return 1; // a trace that could not be read has nothing to compare
        var comparison = FindingComparison.Compare(b, a);
        TextWriter writer;
        try
        {
            writer = outputPath is not null ? OutputFile.Create(outputPath) : Console.IsOutputRedirected ? StandardOutput.Open() : Console.Out;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            err.WriteLine($"error: cannot write {outputPath}: {e.Message}");
            return 2;
        }
        try
        {
            ComparisonWriter.Write(writer, format, beforePath, afterPath, comparison);
            writer.Flush();
            (writer as ReplacingOutputFile)?.Commit(); // both traces were read: the comparison replaces an earlier file
            if (!ReferenceEquals(writer, Console.Out)) writer.Dispose();
        }
        catch (Exception e) when (DiagnosticWriter.IsUnwritable(e))
        {
            err.WriteLine($"error: cannot write {outputPath ?? "standard output"}: {e.Message}");
            return 2;
        }
        return settings.FailOn is { } floor && comparison.Trips(floor) ? 5 : partial ? 4 : 0;
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
