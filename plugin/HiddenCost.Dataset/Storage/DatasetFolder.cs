using System.Text.Json;

namespace HiddenCost.Dataset.Storage;

/// <summary>
/// A dataset's folder: the marker that says it is one of ours, its lock, its run manifests and its table folders.
/// Every name of ours that is not a table folder starts with "_", which Spark, Hive and DuckDB's globs pass over.
/// </summary>
public sealed class DatasetFolder
{
    public const string MarkerName = "_hiddencost_dataset.json";
    public const string LockName = "_lock";
    public const string RunsName = "_runs";
    private const string Format = "hiddencost-dataset";
    private const int Layout = 1;

    private DatasetFolder(string root) => Root = root;

    public string Root { get; }
    public string RunsFolder => Path.Combine(Root, RunsName);
    public string LockPath => Path.Combine(Root, LockName);
    public string TableFolder(string table) => Path.Combine(Root, table);

    /// <summary>Opens an existing dataset; the error says why a folder is not one.</summary>
    public static DatasetFolder Open(string path)
    {
        var root = Path.GetFullPath(path);
        if (!Directory.Exists(root)) throw new DatasetException($"{root}: no such dataset folder");
        var marker = Path.Combine(root, MarkerName);
        if (!File.Exists(marker))
            throw new DatasetException($"{root} is not a HiddenCost dataset (no {MarkerName}); `hiddencost extract … --to {path}` makes one");
        try
        {
            using var doc = JsonDocument.Parse(File.ReadAllBytes(marker));
            var format = doc.RootElement.GetProperty("format").GetString();
            var layout = doc.RootElement.GetProperty("layout").GetInt32();
            if (format != Format) throw new DatasetException($"{marker}: format '{format}' is not '{Format}'");
            if (layout != Layout) throw new DatasetException($"{marker}: layout {layout} is not the one this HiddenCost writes ({Layout}): use the HiddenCost that made it");
        }
        catch (Exception e) when (e is JsonException or KeyNotFoundException or InvalidOperationException or FormatException)
        {
            throw new DatasetException($"{marker} is not a HiddenCost dataset marker: {e.Message}");
        }
        return new DatasetFolder(root);
    }

    /// <summary>
    /// Opens a dataset, or makes one in a folder that is missing or empty. A folder with anything else in it is
    /// refused: extracting into someone's documents would mix our files with theirs.
    /// </summary>
    public static DatasetFolder OpenOrCreate(string path)
    {
        var root = Path.GetFullPath(path);
        if (File.Exists(root)) throw new DatasetException($"{root} is a file, not a dataset folder");
        if (Directory.Exists(root) && File.Exists(Path.Combine(root, MarkerName))) return Open(root);
        if (Directory.Exists(root))
        {
            // A marker's temporary file is another run making this dataset at the same moment, not someone's documents.
            bool others = Directory.EnumerateFileSystemEntries(root).Any(e => !Path.GetFileName(e).StartsWith(MarkerName + ".", StringComparison.Ordinal));
            // Looked for after the listing: a run puts its marker in place before any other file of its own, so what another
            // run made while this one listed comes with the marker, and the folder is that run's dataset.
            if (File.Exists(Path.Combine(root, MarkerName))) return Open(root);
            if (others)
                throw new DatasetException($"{root} is not empty and is not a HiddenCost dataset (no {MarkerName}): give a new or empty folder");
        }
        Directory.CreateDirectory(root);
        var marker = Path.Combine(root, MarkerName);
        var temp = $"{marker}.{Guid.NewGuid():N}.tmp"; // each its own: two runs making the dataset at once both put the same marker in place
        File.WriteAllText(temp, $"{{\"format\": \"{Format}\", \"layout\": {Layout}}}\n");
        File.Move(temp, marker, overwrite: true);
        return new DatasetFolder(root);
    }
}

/// <summary>A dataset that cannot be opened or written, said in the user's terms (the CLI prints it and exits 2).</summary>
public sealed class DatasetException(string message, Exception? inner = null) : Exception(message, inner);
