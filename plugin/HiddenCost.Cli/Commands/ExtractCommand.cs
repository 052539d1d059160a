using System.CommandLine;
using HiddenCost.Cli.Output;
using HiddenCost.Dataset.Extract;
using HiddenCost.Dataset.Storage;
using Spectre.Console;

namespace HiddenCost.Cli.Commands;

/// <summary>`hiddencost extract TRACE|FOLDER… --to DATASET [-j N]`: many traces into a Parquet dataset (plugin/HiddenCost.Dataset).</summary>
public static class ExtractCommand
{
    public static Command Create(TextWriter err)
    {
        var inputs = new Argument<string[]>("TRACE|FOLDER")
        {
            Description = "Trace files, and folders whose *.etl files (in subfolders too) are read",
            Arity = ArgumentArity.OneOrMore,
        };
        var to = new Option<string>("--to") { Description = "The dataset folder (made when missing or empty)", Required = true, HelpName = "DATASET" };
        var jobs = new Option<int>("--jobs", "-j")
        {
            Description = "Traces analysed at once (default: the processor count)",
            DefaultValueFactory = _ => Environment.ProcessorCount,
            HelpName = "N",
        };
        var command = new Command("extract", "Analyse many traces in parallel into a Parquet dataset (see `hiddencost query`); traces already in it are skipped")
        {
            inputs, to, jobs,
        };
        command.SetAction(parse => Run(parse.GetValue(inputs) ?? [], parse.GetValue(to)!, parse.GetValue(jobs), Console.Out, err));
        return command;
    }

    /// <returns>0 every trace analysed, 4 some read only in part, 1 some could not be read, 2 bad arguments or a dataset
    /// that cannot be written, 3 a bug; the first of 3, 1, 4 that applies. 130 when interrupted.</returns>
    public static int Run(IReadOnlyList<string> arguments, string datasetPath, int jobs, TextWriter output, TextWriter err)
    {
        if (jobs < 1)
        {
            err.WriteLine($"error: --jobs {jobs}: give 1 or more");
            return 2;
        }
        DatasetFolder dataset;
        TraceInputs inputs;
        try
        {
            dataset = DatasetFolder.OpenOrCreate(datasetPath);
            inputs = TraceInputs.Expand(arguments, dataset.Root);
        }
        catch (Exception e) when (e is DatasetException or ArgumentException or IOException or UnauthorizedAccessException)
        {
            err.WriteLine($"error: {e.Message}");
            return 2;
        }
        if (inputs.Files.Count == 0)
        {
            err.WriteLine($"error: no .etl file in {string.Join(", ", arguments)}{(inputs.Ignored > 0 ? $" ({inputs.Ignored} other files)" : "")}");
            return 2;
        }

        using var interrupt = new CancellationTokenSource();
        ConsoleCancelEventHandler onCancel = (_, e) =>
        {
            if (interrupt.IsCancellationRequested) return; // a second Ctrl-C ends the process at once
            e.Cancel = true;
            interrupt.Cancel();
        };
        Console.CancelKeyPress += onCancel;
        bool interactive = ReferenceEquals(output, Console.Out) && !Console.IsOutputRedirected && !Console.IsErrorRedirected;
        try
        {
            var summary = interactive
                ? WithProgressBar(dataset, inputs, jobs, interrupt.Token)
                : new Extractor(dataset, jobs, null, err.WriteLine).Run(inputs, interrupt.Token);
            output.WriteLine(summary.Line());
            return summary.ExitCode;
        }
        catch (OperationCanceledException) when (interrupt.IsCancellationRequested)
        {
            err.WriteLine("interrupted: nothing of this run was committed; earlier runs are untouched");
            return 130;
        }
        catch (Exception e) when (e is DatasetException or IOException or UnauthorizedAccessException)
        {
            // The dataset cannot be locked, read or written (a read-only folder, a full disk): not any trace's fault.
            err.WriteLine($"error: {(e is DatasetException ? e.Message : $"{dataset.Root}: {e.Message}")}");
            return 2;
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            err.WriteLine($"error: internal error, please report it: {e}");
            return 3;
        }
        finally
        {
            Console.CancelKeyPress -= onCancel;
        }
    }

    /// <summary>Traces done and failed, MB/s and time left, as the single-trace run shows its bar; messages print above it.</summary>
    private static ExtractSummary WithProgressBar(DatasetFolder dataset, TraceInputs inputs, int jobs, CancellationToken cancellation)
    {
        ExtractSummary? summary = null;
        AnsiConsole.Progress()
            .AutoClear(true)
            .Columns(new TaskDescriptionColumn(), new ProgressBarColumn(), new PercentageColumn(), new TransferSpeedColumn(), new RemainingTimeColumn())
            .Start(ctx =>
            {
                var task = ctx.AddTask($"0/{inputs.Files.Count} traces", maxValue: 1);
                var progress = new SynchronousProgress<ExtractProgress>(p =>
                {
                    task.MaxValue = Math.Max(1, p.BytesTotal);
                    task.Value = p.BytesDone;
                    task.Description = $"{p.Done}/{p.Total} traces, {p.Failed} failed";
                });
                void Say(string line) => AnsiConsole.MarkupLine(line.StartsWith("error", StringComparison.Ordinal)
                    ? $"[red]{Markup.Escape(line)}[/]" : $"[yellow]{Markup.Escape(line)}[/]");
                summary = new Extractor(dataset, jobs, progress, Say).Run(inputs, cancellation);
            });
        return summary!;
    }

    /// <summary>Reports on the calling thread (Progress&lt;T&gt; would post to the thread pool, after the bar is gone).</summary>
    private sealed class SynchronousProgress<T>(Action<T> report) : IProgress<T>
    {
        private readonly object _gate = new();
        public void Report(T value)
        {
            lock (_gate) report(value);
        }
    }
}
