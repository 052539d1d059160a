using System.Text.Json;
using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;
using HiddenCost.Cli.Input;
using HiddenCost.Cli.Output;
using HiddenCost.Etl;
using Spectre.Console;

namespace HiddenCost.Cli;

/// <summary>What `hiddencost` does once its arguments are parsed; separate from Program so tests drive it.</summary>
public sealed class CliRunner
{
    private readonly TextWriter _out;
    private readonly TextWriter _err;
    private readonly bool _interactive;
    private readonly CancellationToken _cancellation;
    private bool _analysing;

    /// <summary>
    /// Whether a trace is being analysed now (the cancellation token stops only that; a run that is writing its output
    /// is left to end, or to be ended, as any program is).
    /// </summary>
    public bool IsAnalysing => Volatile.Read(ref _analysing);

    /// <summary>Names native frames from PDBs (<c>--symbols</c>, <c>_NT_SYMBOL_PATH</c>); null: <c>module+0xRVA</c>.</summary>
    public Symbols.Resolution.SymbolResolver? Symbols { get; init; }

    /// <summary>Shows the resolver's PDB downloads on the interactive progress bar; null when not interactive.</summary>
    public HiddenCost.Cli.Output.SymbolDownloadBar? SymbolDownloads { get; init; }

    /// <summary>
    /// The original bytes of traces named by bytes that are not UTF-8, by the text .NET made of them
    /// (<see cref="CommandLineBytes.NativeNames"/>): those are opened by their bytes.
    /// </summary>
    public IReadOnlyDictionary<string, byte[]>? NativeNames { get; init; }

    /// <summary>Whether the last <see cref="Run"/> read any trace (so has tables worth writing to an output file).</summary>
    public bool AnyTraceRead { get; private set; }

    /// <param name="cancellation">Ctrl-C: <see cref="Run"/> then throws <see cref="OperationCanceledException"/>.</param>
    public CliRunner(TextWriter output, TextWriter error, bool interactive, CancellationToken cancellation = default)
    {
        _out = output;
        _err = error;
        _interactive = interactive;
        _cancellation = cancellation;
    }

    /// <summary>Findings' thresholds and the severity that fails the run (exit 5); the defaults and none unless set.</summary>
    public Commands.FindingsSettings Findings { get; init; } = Commands.FindingsSettings.Default;

    /// <summary>Why these arguments cannot run (an unknown table, an option taken for a trace), or null.</summary>
    /// <param name="literalTraces">Traces named after `--`: names, whatever they start with (`hiddencost -- -x.etl`).</param>
    public static string? ArgumentError(IReadOnlyList<string> traces, IReadOnlyList<string> tableNames, IReadOnlySet<string>? literalTraces = null)
    {
        foreach (var name in tableNames)
            if (TableCatalog.Find(name) is null)
                return $"no table named '{name}'. Tables: {string.Join(", ", TableCatalog.All.Select(t => t.Name))}";
        // A mistyped option (--tabel) would otherwise be read as a trace file named "--tabel".
        foreach (var trace in traces)
            if (trace.StartsWith('-') && !File.Exists(trace) && literalTraces?.Contains(trace) != true)
                return $"unknown option '{trace}' (see hiddencost --help)";
        return null;
    }

    /// <summary>The traces a run analyses: those given, or else the bundled sample (none when it cannot be found).</summary>
    public static IReadOnlyList<string> TracesOrSample(IReadOnlyList<string> traces) =>
        traces.Count > 0 ? traces : SampleLocator.Find() is { } sample ? new[] { sample } : Array.Empty<string>();

    /// <summary>
    /// The trace among those the run analyses that <paramref name="outputPath"/> names (the same file), or null. With
    /// no trace given, any copy of the bundled sample counts: the one analysed, and the repository's that it is built
    /// from (which a run from the repository's root would otherwise overwrite by its usual name).
    /// </summary>
    public static string? OutputIsATrace(string outputPath, IReadOnlyList<string> traces)
    {
        var output = Canonical(outputPath);
        foreach (var trace in traces.Count > 0 ? traces : SampleLocator.Copies())
            if (string.Equals(Canonical(trace), output, OperatingSystem.IsWindows() || OperatingSystem.IsMacOS() ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal))
                return trace;
        return null;
    }

    /// <summary>
    /// The full path with every symbolic link along it resolved (the file's and its folders'), as the system resolves
    /// it — a `..` after a link goes up from where the link points — so two spellings of one file compare equal. A hard
    /// link is another name for the file that no path comparison can tell.
    /// </summary>
    private static string Canonical(string path)
    {
        try
        {
            return Resolve(Path.IsPathRooted(path) ? path : Path.Combine(Directory.GetCurrentDirectory(), path), depth: 0);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            return path;
        }
    }

    /// <summary>Resolves <paramref name="path"/> part by part, each part against the real folder the ones before it lead to.</summary>
    private static string Resolve(string path, int depth)
    {
        const int MaxLinks = 40; // as the kernel's own limit: a loop of links ends here
        if (depth > MaxLinks) throw new IOException("too many levels of symbolic links");
        var root = Path.GetPathRoot(path) ?? "";
        var current = root;
        foreach (var part in path[root.Length..].Split([Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar], StringSplitOptions.RemoveEmptyEntries))
        {
            if (part == ".") continue;
            if (part == "..")
            {
                current = Path.GetDirectoryName(current) ?? current; // the root's parent is the root
                continue;
            }
            var next = Path.Combine(current, part);
            FileSystemInfo info = Directory.Exists(next) ? new DirectoryInfo(next) : new FileInfo(next);
            if (info.LinkTarget is { } target)
                next = Resolve(Path.IsPathRooted(target) ? target : Path.Combine(current, target), depth + 1);
            current = next;
        }
        return current;
    }

    /// <returns>
    /// 0 when every trace was analysed; 1 when any could not be read; 2 for bad arguments or output that cannot be
    /// written; 3 when an analysis failed unexpectedly (a bug: the message asks for a report; the other traces are still
    /// analysed); 4 when every trace was read but some only in part (damaged or cut short: a warning says where); 5 with
    /// <see cref="Findings"/>' fail-on severity when a trace has a finding at it or above. The first of 3, 1, 5 and 4 that applies wins.
    /// </returns>
    /// <exception cref="OperationCanceledException">The run was interrupted (the constructor's token).</exception>
    /// <param name="literalTraces">Traces named after `--` (see <see cref="ArgumentError"/>).</param>
    public int Run(IReadOnlyList<string> traces, IReadOnlyList<string> tableNames, OutputFormat format, IReadOnlySet<string>? literalTraces = null)
    {
        if (ArgumentError(traces, tableNames, literalTraces) is { } argumentError)
        {
            _err.WriteLine($"error: {argumentError}");
            return 2;
        }
        var selected = tableNames.Select(name => TableCatalog.Find(name)!).ToList();
        traces = TracesOrSample(traces);
        if (traces.Count == 0)
        {
            _err.WriteLine($"error: no trace given and the bundled sample samples/{SampleLocator.SampleFileName} was not found");
            return 1;
        }

        bool internalError = false, unreadable = false, partial = false, failed = false;
        AnyTraceRead = false;
        using var json = format == OutputFormat.Json ? new Utf8JsonWriter(new TextWriterStream(_out), new JsonWriterOptions { Indented = true }) : null;
        json?.WriteStartArray();
        for (int i = 0; i < traces.Count; i++)
        {
            var name = TraceName(traces[i]);
            AnalysisResult result;
            try
            {
                Volatile.Write(ref _analysing, true);
                try
                {
                    result = Analyze(name, AnalysedTables(selected));
                }
                finally
                {
                    Volatile.Write(ref _analysing, false);
                }
            }
            catch (Exception e) when (!(e is OperationCanceledException && _cancellation.IsCancellationRequested))
            {
                // TraceAnalyzer turns every bad-input case into an error result; anything else is a bug. Say so,
                // with the exception, and go on with the other traces (the JSON array still closes).
                _err.WriteLine($"error: {name.Display}: internal error, please report it with the trace if you can: {e}");
                internalError = true;
                continue;
            }
            if (result.Error is not null)
            {
                _err.WriteLine($"error: {result.Error}");
                unreadable = true;
            }
            else AnyTraceRead = true;
            if (result.Warning is not null)
            {
                _err.WriteLine($"warning: {result.Warning}");
                partial = true;
            }
            failed |= Findings.FailOn is { } floor && Commands.FindingsGate.Trips(result, floor);
            var tables = selected.Count == 0
                ? result.Tables
                : selected.Select(s => result.Tables.First(t => t.Spec.Id == s.Id)).ToArray();
            switch (format)
            {
                case OutputFormat.Json: JsonWriter.WriteTrace(json!, result, tables); break;
                case OutputFormat.Csv: CsvWriter.Write(_out, _err, result, tables, first: i == 0); break;
                default:
                    if (_interactive) ConsoleTableWriter.Write(AnsiConsole.Console, result, tables);
                    else PlainTextWriter.Write(_out, result, tables);
                    break;
            }
        }
        json?.WriteEndArray();
        json?.Flush();
        if (format == OutputFormat.Json) _out.WriteLine();
        _out.Flush();
        return internalError ? 3 : unreadable ? 1 : failed ? 5 : partial ? 4 : 0;
    }

    /// <summary>How a trace argument is opened (by its bytes when they are not UTF-8) and shown (escaped, on one line).</summary>
    private TraceFileName TraceName(string trace)
    {
        byte[]? bytes = null;
        NativeNames?.TryGetValue(trace, out bytes);
        return new TraceFileName(DisplayName.Of(trace, bytes), trace, bytes);
    }

    /// <summary>
    /// The tables a run analyses (only their analyses run): those asked for, and Findings when a severity fails the run
    /// (the gate reads it); null for all.
    /// </summary>
    private Guid[]? AnalysedTables(IReadOnlyList<TableSpec> selected) =>
        selected.Count == 0 ? null
            : selected.Select(s => s.Id).Concat(Findings.FailOn is null ? [] : [Analysis.Tables.TableIds.Findings]).Distinct().ToArray();

    /// <param name="tables">The tables asked for (only their analyses run), or null for all.</param>
    private AnalysisResult Analyze(TraceFileName path, IReadOnlyList<Guid>? tables)
    {
        if (!_interactive) return TraceAnalyzer.Analyze(path, tables, Findings.Thresholds, cancellationToken: _cancellation, symbols: Symbols);
        AnalysisResult? result = null;
        AnsiConsole.Progress()
            .AutoClear(true)
            .Columns(new TaskDescriptionColumn(), new ProgressBarColumn(), new PercentageColumn())
            .Start(ctx =>
            {
                var task = ctx.AddTask(Markup.Escape(Path.GetFileName(path.Display)), maxValue: 1.0);
                using var downloads = SymbolDownloads?.ShowOn(ctx);
                result = TraceAnalyzer.Analyze(path, tables, Findings.Thresholds, new Progress<double>(p => task.Value = p), _cancellation, Symbols);
                task.Value = 1.0;
            });
        return result!;
    }
}

/// <summary>Lets Utf8JsonWriter write through a TextWriter (so tests can capture JSON output as text).</summary>
internal sealed class TextWriterStream : Stream
{
    private readonly TextWriter _writer;

    public TextWriterStream(TextWriter writer) => _writer = writer;

    public override bool CanRead => false;
    public override bool CanSeek => false;
    public override bool CanWrite => true;
    public override long Length => throw new NotSupportedException();
    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }
    public override void Flush() => _writer.Flush();
    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();
    public override void Write(byte[] buffer, int offset, int count) => _writer.Write(System.Text.Encoding.UTF8.GetString(buffer, offset, count));
}
