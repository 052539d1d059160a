using HiddenCost.Synthetic.Samples;

// Regenerates the synthetic sample traces and samples/SYNTHETIC.md, byte for byte:
//   dotnet run --project tests/HiddenCost.SampleGenerator -c Release -- samples
if (args.Length != 1 || args[0] is "-h" or "--help")
{
    Console.Error.WriteLine("usage: HiddenCost.SampleGenerator <output folder>   (e.g. samples)");
    return args.Length == 1 ? 0 : 2;
}

var folder = Path.GetFullPath(args[0]);
Directory.CreateDirectory(folder);
var generated = new List<GeneratedSample>();
foreach (var definition in SampleCatalog.All)
{
    var sample = definition.Generate();
    var path = Path.Combine(folder, definition.FileName);
    File.WriteAllBytes(path, sample.Bytes);
    Console.WriteLine($"{path}  {sample.Bytes.Length:N0} bytes, {sample.Trace.Records.Count:N0} events");
    generated.Add(sample);
}
var readme = Path.Combine(folder, SampleReadme.FileName);
File.WriteAllText(readme, SampleReadme.Render(generated));
Console.WriteLine(readme);
return 0;
