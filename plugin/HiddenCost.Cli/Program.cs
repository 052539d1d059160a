using System.CommandLine;
using HiddenCost.Cli;
using HiddenCost.Cli.Input;
using HiddenCost.Cli.Output;

var traces = new Argument<string[]>("TRACE")
{
    Description = "ETL trace files (default: the bundled synthetic sample samples/hiddencost-sample.etl)",
    Arity = ArgumentArity.ZeroOrMore,
};
var tables = new Option<string[]>("--table", "-t")
{
    Description = "Only this table (name or GUID); repeat for several",
    AllowMultipleArgumentsPerToken = false,
};
var format = new Option<OutputFormat>("--format", "-f")
{
    // The default is said in the description, not by DefaultValueFactory: help would print it as the enum's "Text".
    Description = "text (terminal tables; the default), csv or json",
    HelpName = "text|csv|json",
    // By name only, in any case: the default enum parsing also took numbers ("-f 1" was csv), and its error named
    // an internal type.
    CustomParser = result =>
    {
        var token = result.Tokens.Count > 0 ? result.Tokens[^1].Value : "";
        foreach (var name in Enum.GetNames<OutputFormat>())
            if (string.Equals(name, token, StringComparison.OrdinalIgnoreCase)) return Enum.Parse<OutputFormat>(name);
        result.AddError($"unknown format '{token}' (text, csv or json)");
        return OutputFormat.Text;
    },
};
var output = new Option<FileInfo?>("--output", "-o") { Description = "Write to this file instead of standard output" };
var symbolPath = new Option<string?>("--symbols")
{
    Description = "Symbol path for native function names, as _NT_SYMBOL_PATH (read when this is absent): folders, cache*DIR, srv*DIR*URL",
    HelpName = "PATH",
};
var offline = new Option<bool>("--offline") { Description = "Never download from symbol servers (local folders and caches are still read)" };

// Messages go through a writer that cannot fail: with standard error closed, the exit code still tells.
var err = new DiagnosticWriter(Console.Error);
// Ctrl-C during an analysis stops it within a buffer and ends the run as an interrupted one (exit 130), so the
// progress bar is taken down and the terminal's cursor shown again. At any other time (writing tables, perhaps blocked
// on a pipe nobody reads), and at a second Ctrl-C, the process ends at once, as without this handler. The source is
// never disposed: a Ctrl-C as the program exits would find it disposed.
var interrupt = new CancellationTokenSource();
CliRunner? running = null;
ReplacingOutputFile? pendingOutput = null; // an --output file not yet put in place: a Ctrl-C that ends the process deletes it
Console.CancelKeyPress += (_, e) =>
{
    if (interrupt.IsCancellationRequested || running is not { IsAnalysing: true })
    {
        pendingOutput?.Abandon();
        return;
    }
    e.Cancel = true;
    interrupt.Cancel();
};

var root = new RootCommand("hiddencost: find the CPU that other software quietly burns, from an ETL trace, on any OS");
root.Arguments.Add(traces);
root.Options.Add(tables);
root.Options.Add(format);
root.Options.Add(output);
root.Options.Add(symbolPath);
root.Options.Add(offline);
root.Subcommands.Add(HiddenCost.Cli.Commands.ExtractCommand.Create(err));
root.Subcommands.Add(HiddenCost.Cli.Commands.QueryCommand.Create(err, format, output));
var findingsOptions = HiddenCost.Cli.Commands.FindingsOptions.AddTo(root);
root.Subcommands.Add(HiddenCost.Cli.Commands.CompareCommand.Create(err));
// After `--`, every argument is a trace, even one that starts with a dash (not the same text before it: a mistyped
// option there is still one).
int endOfOptions = Array.IndexOf(args, "--");
var literalTraces = endOfOptions < 0 ? new HashSet<string>()
    : args[(endOfOptions + 1)..].Except(args[..endOfOptions], StringComparer.Ordinal).ToHashSet(StringComparer.Ordinal);
root.SetAction(parse =>
{
    var file = parse.GetValue(output);
    // Checked before the output file is opened, so a bad argument never empties an existing file.
    if (CliRunner.ArgumentError(parse.GetValue(traces) ?? Array.Empty<string>(), parse.GetValue(tables) ?? Array.Empty<string>(), literalTraces) is { } argumentError)
    {
        err.WriteLine($"error: {argumentError}");
        return 2;
    }
    if (findingsOptions.Read(parse, err) is not { } findings) return 2;
    if (file is not null && CliRunner.OutputIsATrace(file.FullName, parse.GetValue(traces) ?? Array.Empty<string>()) is { } trace)
    {
        err.WriteLine($"error: --output {DisplayName.Of(file.FullName)} is the trace {DisplayName.Of(trace)}: writing it would destroy the trace");
        return 2;
    }
    TextWriter writer;
    try
    {
        writer = file is not null ? pendingOutput = OutputFile.Create(file.FullName)
            : Console.IsOutputRedirected ? StandardOutput.Open() // a pipe or file: a closed pipe must be seen
            : Console.Out;
    }
    catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
    {
        err.WriteLine($"error: cannot write {DisplayName.Of(file!.FullName)}: {e.Message}");
        return 2;
    }
    try
    {
        bool interactive = file is null && !Console.IsOutputRedirected;
        var downloads = interactive ? new HiddenCost.Cli.Output.SymbolDownloadBar() : null;
        using var symbols = CliSymbols.Create(parse.GetValue(symbolPath), parse.GetValue(offline), downloads);
        running = new CliRunner(writer, err, interactive, interrupt.Token) { Findings = findings, NativeNames = CommandLineBytes.NativeNames(args), Symbols = symbols, SymbolDownloads = downloads };
        int exit = running.Run(parse.GetValue(traces) ?? Array.Empty<string>(), parse.GetValue(tables) ?? Array.Empty<string>(), parse.GetValue(format), literalTraces);
        if (running.AnyTraceRead) pendingOutput?.Commit(); // else the earlier file stays as it was (disposing drops the new one)
        if (!ReferenceEquals(writer, Console.Out)) writer.Dispose(); // flushes: a full disk or closed pipe shows here
        return exit;
    }
    catch (OperationCanceledException) when (interrupt.IsCancellationRequested)
    {
        err.WriteLine("interrupted");
        try { if (!ReferenceEquals(writer, Console.Out)) writer.Dispose(); } catch (Exception e) when (DiagnosticWriter.IsUnwritable(e)) { }
        return 130; // 128 + SIGINT, as a shell reports a program that Ctrl-C ended
    }
    catch (Exception e) when (DiagnosticWriter.IsUnwritable(e))
    {
        // The output could not be written (a full disk, a closed pipe): not the trace's fault, and no stack trace.
        // EBADF (descriptor 1 closed: `hiddencost x.etl >&-`) comes as "Access to the path is denied".
        var reason = file is null && e is UnauthorizedAccessException ? "it is closed or not open for writing" : e.Message;
        err.WriteLine($"error: cannot write {(file is null ? "standard output" : DisplayName.Of(file.FullName))}: {reason}");
        try { if (!ReferenceEquals(writer, Console.Out)) writer.Dispose(); } catch (Exception f) when (DiagnosticWriter.IsUnwritable(f)) { } // its buffer cannot be written either
        return 2;
    }
});
var parsed = root.Parse(args);
if (parsed.Errors.Count > 0)
{
    // Bad arguments exit with 2, as README says (System.CommandLine's own handling exits with 1).
    foreach (var error in parsed.Errors) err.WriteLine($"error: {error.Message}");
    err.WriteLine("See hiddencost --help.");
    return 2;
}
return parsed.Invoke();
