using System.CommandLine;
using System.Text.Json;
using DuckDB.NET.Data;
using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;
using HiddenCost.Cli.Output;
using HiddenCost.Dataset.Adapter;
using HiddenCost.Dataset.Query;
using HiddenCost.Dataset.Schema;
using HiddenCost.Dataset.Storage;
using Spectre.Console;

namespace HiddenCost.Cli.Commands;

/// <summary>`hiddencost query DATASET "SQL"` or `--query NAME`: SQL over a dataset with embedded DuckDB, printed as the analyses are.</summary>
public static class QueryCommand
{
    /// <param name="format">The program's own --format and --output options, so both parse as for single traces.</param>
    public static Command Create(TextWriter err, Option<OutputFormat> format, Option<FileInfo?> output)
    {
        var dataset = new Argument<string>("DATASET") { Description = "A dataset folder `hiddencost extract` wrote" };
        var sql = new Argument<string?>("SQL")
        {
            Description = "DuckDB SQL over the views: traces, notes, and one per table (e.g. syscall_hook_overhead)",
            Arity = ArgumentArity.ZeroOrOne,
        };
        var named = new Option<string?>("--query", "-q") { Description = $"Run a shipped query: {string.Join(", ", NamedQuery.All.Select(q => q.Name))}", HelpName = "NAME" };
        var parameters = new Option<string[]>("--param", "-p") { Description = "A shipped query's parameter, NAME=VALUE (e.g. min_us=5); repeat for several", HelpName = "NAME=VALUE" };
        var list = new Option<bool>("--list") { Description = "List the shipped queries and their parameters" };
        var command = new Command("query", "Query a dataset with SQL (embedded DuckDB), or run a shipped query by name")
        {
            dataset, sql, named, parameters, list, format, output,
        };
        command.SetAction(parse => Run(parse.GetValue(dataset)!, parse.GetValue(sql), parse.GetValue(named), parse.GetValue(parameters) ?? [],
            parse.GetValue(list), parse.GetValue(format), parse.GetValue(output)?.FullName, err));
        return command;
    }

    /// <returns>0 answered; 2 bad arguments, SQL the engine refused, a folder that is not a dataset, or output that cannot be written.</returns>
    public static int Run(string datasetPath, string? sql, string? queryName, IReadOnlyList<string> parameters, bool list,
        OutputFormat format, string? outputPath, TextWriter err, TextWriter? output = null)
    {
        if (list)
        {
            var w = output ?? Console.Out;
            foreach (var q in NamedQuery.All)
                w.WriteLine($"{q.Name}: {q.Title}{(q.Defaults.Count == 0 ? "" : $" (--param {string.Join(", ", q.Defaults.Select(d => $"{d.Key}={d.Value}"))})")}");
            return 0;
        }
        if ((sql is null) == (queryName is null))
        {
            err.WriteLine("error: give either SQL or --query NAME (see hiddencost query --list)");
            return 2;
        }
        var title = "query";
        var values = new Dictionary<string, object>(StringComparer.Ordinal);
        if (queryName is not null)
        {
            if (NamedQuery.Find(queryName) is not { } shipped)
            {
                err.WriteLine($"error: no shipped query named '{queryName}'. Queries: {string.Join(", ", NamedQuery.All.Select(q => q.Name))}");
                return 2;
            }
            sql = shipped.Sql;
            title = shipped.Name;
            foreach (var d in shipped.Defaults) values[d.Key] = d.Value;
        }
        foreach (var p in parameters)
        {
            var parts = p.Split('=', 2);
            if (parts.Length != 2 || !values.ContainsKey(parts[0]))
            {
                err.WriteLine($"error: --param {p}: {(parts.Length != 2 ? "write NAME=VALUE" : $"the query takes {(values.Count == 0 ? "no parameters" : string.Join(", ", values.Keys))}")}");
                return 2;
            }
            values[parts[0]] = NamedQuery.ParseValue(parts[1]);
        }

        QueryResult result;
        DatasetFolder folder;
        try
        {
            folder = DatasetFolder.Open(datasetPath);
            using var query = new DatasetQuery(folder);
            result = query.Run(sql!, values);
        }
        catch (DatasetException e)
        {
            err.WriteLine($"error: {e.Message}");
            return 2;
        }
        catch (DuckDBException e)
        {
            err.WriteLine($"error: {title}: {e.Message}");
            return 2;
        }
        return Print(folder, title, result, format, outputPath, err, output);
    }

    private static int Print(DatasetFolder folder, string title, QueryResult result, OutputFormat format, string? outputPath, TextWriter err, TextWriter? output)
    {
        var columns = result.Columns.Select((c, i) => (c, ColumnTypeOf(result.Types[i]))).ToArray();
        var rows = result.Rows.Select(r => r.Select(v => v is DateTime t ? t.ToString("yyyy-MM-dd'T'HH:mm:ss.ffffff'Z'", System.Globalization.CultureInfo.InvariantCulture) : v).ToArray());
        var table = TableModelAdapter.ToTable(title, columns, rows);
        var analysis = new AnalysisResult(folder.Root, [table], null);
        TextWriter writer;
        try
        {
            writer = output ?? (outputPath is not null ? OutputFile.Create(outputPath) : Console.IsOutputRedirected ? StandardOutput.Open() : Console.Out);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            err.WriteLine($"error: cannot write {outputPath}: {e.Message}");
            return 2;
        }
        try
        {
            switch (format)
            {
                case OutputFormat.Json:
                    using (var json = new Utf8JsonWriter(new TextWriterStream(writer), new JsonWriterOptions { Indented = true }))
                    {
                        json.WriteStartArray();
                        JsonWriter.WriteTrace(json, analysis, [table]);
                        json.WriteEndArray();
                    }
                    writer.WriteLine();
                    break;
                case OutputFormat.Csv: CsvWriter.Write(writer, err, analysis, [table], first: true); break;
                default:
                    if (output is null && outputPath is null && !Console.IsOutputRedirected) ConsoleTableWriter.Write(AnsiConsole.Console, analysis, [table]);
                    else PlainTextWriter.Write(writer, analysis, [table]);
                    break;
            }
            writer.Flush();
            if (output is null && !ReferenceEquals(writer, Console.Out)) writer.Dispose();
            return 0;
        }
        catch (Exception e) when (DiagnosticWriter.IsUnwritable(e))
        {
            err.WriteLine($"error: cannot write {outputPath ?? "standard output"}: {e.Message}");
            return 2;
        }
    }

    /// <summary>Timestamps print as ISO 8601 text: the table model's timestamps are ns since a trace's start, not instants.</summary>
    private static ColumnType ColumnTypeOf(DatasetType type) => type switch
    {
        DatasetType.Int64 => ColumnType.Integer,
        DatasetType.Double => ColumnType.Decimal,
        DatasetType.Boolean => ColumnType.Boolean,
        _ => ColumnType.Text,
    };
}
