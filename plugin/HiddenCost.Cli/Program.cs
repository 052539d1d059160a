using System.CommandLine;
using HiddenCost.Cli;
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
    Description = "text (terminal tables), csv or json",
    DefaultValueFactory = _ => OutputFormat.Text,
};
var output = new Option<FileInfo?>("--output", "-o") { Description = "Write to this file instead of standard output" };

var root = new RootCommand("hiddencost: find the CPU that other software quietly burns, from an ETL trace, on any OS");
root.Arguments.Add(traces);
root.Options.Add(tables);
root.Options.Add(format);
root.Options.Add(output);
root.SetAction(parse =>
{
    var file = parse.GetValue(output);
    TextWriter writer = file is null ? Console.Out : new StreamWriter(file.FullName);
    try
    {
        bool interactive = file is null && !Console.IsOutputRedirected;
        return new CliRunner(writer, Console.Error, interactive)
            .Run(parse.GetValue(traces) ?? Array.Empty<string>(), parse.GetValue(tables) ?? Array.Empty<string>(), parse.GetValue(format));
    }
    finally
    {
        if (file is not null) writer.Dispose();
    }
});
return root.Parse(args).Invoke();
