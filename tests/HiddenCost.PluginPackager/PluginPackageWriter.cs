using System.IO.Compression;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace HiddenCost.PluginPackager;

/// <summary>
/// Writes the two plugin packages from a published plugin folder: a zip of the folder (extract it, then
/// <c>wpa -addsearchdir</c> that folder) and a .ptix, the plugins system's package: <c>metadata.json</c> and
/// <c>contentsmetadata.json</c> at its root beside the <c>plugin/</c> folder that holds the plugin's files.
/// Entries are in name order with one fixed time, so the same folder gives the same bytes.
/// </summary>
public static class PluginPackageWriter
{
    public const string MetadataFileName = "metadata.json";
    public const string ContentsMetadataFileName = "contentsmetadata.json";
    public const string ContentFolderName = "plugin/";
    public const string PtixExtension = ".ptix";

    // Zip times cannot be before 1980; the plugins system reads none of them.
    private static readonly DateTimeOffset EntryTime = new(1980, 1, 1, 0, 0, 0, TimeSpan.Zero);
    // Indented as the SDK writes them; text left readable (the default escaping writes ' as \u0027).
    private static readonly JsonSerializerOptions Json = new() { WriteIndented = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    public static void WriteFolderZip(string pluginFolder, string zipPath) =>
        Write(zipPath, zip => AddFolder(zip, pluginFolder, prefix: ""));

    public static void WritePtix(string pluginFolder, string ptixPath, PluginMetadata metadata, PluginContentsMetadata contents) =>
        Write(ptixPath, zip =>
        {
            AddText(zip, MetadataFileName, JsonSerializer.Serialize(metadata, Json));
            AddText(zip, ContentsMetadataFileName, JsonSerializer.Serialize(contents, Json));
            AddFolder(zip, pluginFolder, ContentFolderName);
        });

    /// <summary>Writes beside the target and moves into place, so a failed run never leaves half a package.</summary>
    private static void Write(string path, Action<ZipArchive> fill)
    {
        var temp = path + ".partial";
        using (var stream = File.Create(temp))
        using (var zip = new ZipArchive(stream, ZipArchiveMode.Create))
            fill(zip);
        File.Move(temp, path, overwrite: true);
    }

    private static void AddFolder(ZipArchive zip, string folder, string prefix)
    {
        var files = Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories)
            .Select(f => (Full: f, Name: Path.GetRelativePath(folder, f).Replace('\\', '/')))
            .OrderBy(f => f.Name, StringComparer.Ordinal);
        foreach (var (full, name) in files)
        {
            var entry = zip.CreateEntry(prefix + name, CompressionLevel.Optimal);
            entry.LastWriteTime = EntryTime;
            using var target = entry.Open();
            using var source = File.OpenRead(full);
            source.CopyTo(target);
        }
    }

    private static void AddText(ZipArchive zip, string name, string text)
    {
        var entry = zip.CreateEntry(name, CompressionLevel.Optimal);
        entry.LastWriteTime = EntryTime;
        using var writer = new StreamWriter(entry.Open(), new System.Text.UTF8Encoding(encoderShouldEmitUTF8Identifier: false));
        writer.Write(text);
    }
}
