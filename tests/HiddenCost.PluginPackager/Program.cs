using HiddenCost.PluginPackager;

// hiddencost-plugin-package PLUGIN_FOLDER OUTDIR: the plugin zip and .ptix from a `dotnet publish plugin/HiddenCost.Wpa`
// folder (.ci/package runs it).
if (args.Length != 2)
{
    Console.Error.WriteLine("usage: HiddenCost.PluginPackager PLUGIN_FOLDER OUTDIR");
    return 2;
}
var (folder, outDir) = (Path.GetFullPath(args[0]), Path.GetFullPath(args[1]));
if (!Directory.Exists(folder))
{
    Console.Error.WriteLine($"error: plugin folder {folder} does not exist (dotnet publish plugin/HiddenCost.Wpa -c Release -o FOLDER)");
    return 2;
}
try
{
    Directory.CreateDirectory(outDir);
    var metadata = PluginDescription.Metadata(folder);
    var version = metadata.Identity.Version;
    var zip = Path.Combine(outDir, $"HiddenCost-wpa-plugin-{version}.zip");
    var ptix = Path.Combine(outDir, $"HiddenCost-{version}{PluginPackageWriter.PtixExtension}");
    PluginPackageWriter.WriteFolderZip(folder, zip);
    PluginPackageWriter.WritePtix(folder, ptix, metadata, PluginDescription.Contents(folder));
    foreach (var file in new[] { zip, ptix })
        Console.WriteLine($"{file} ({new FileInfo(file).Length:N0} bytes)");
    return 0;
}
catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException)
{
    Console.Error.WriteLine($"error: {e.Message}");
    return 1;
}
