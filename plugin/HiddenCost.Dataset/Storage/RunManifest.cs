using System.Text.Json;
using System.Text.Json.Serialization;

namespace HiddenCost.Dataset.Storage;

/// <summary>
/// A committed run: written last, into <c>_runs/RUN.json</c>, by an atomic rename. Its presence is the commit: the files
/// it lists are the run's whole output, and no file of a run without one is ever read.
/// </summary>
/// <param name="Files">The run's part files, relative to the dataset folder with "/" separators, by their visible names.</param>
public sealed record RunManifest(
    [property: JsonPropertyName("run_id")] string RunId,
    [property: JsonPropertyName("hiddencost_version")] string HiddenCostVersion,
    [property: JsonPropertyName("started_utc")] DateTime StartedUtc,
    [property: JsonPropertyName("committed_utc")] DateTime CommittedUtc,
    [property: JsonPropertyName("traces")] int Traces,
    [property: JsonPropertyName("files")] IReadOnlyList<string> Files)
{
    public static string PathOf(DatasetFolder dataset, string runId) => Path.Combine(dataset.RunsFolder, runId + ".json");

    /// <summary>Writes the manifest to a temporary name, flushes it to disk, and renames it into place.</summary>
    public void Commit(DatasetFolder dataset)
    {
        Directory.CreateDirectory(dataset.RunsFolder);
        var final = PathOf(dataset, RunId);
        var temp = final + ".tmp";
        using (var file = new FileStream(temp, FileMode.Create, FileAccess.Write, FileShare.None))
        {
            JsonSerializer.Serialize(file, this, RunManifestJson.Default.RunManifest);
            file.Flush(flushToDisk: true);
        }
        File.Move(temp, final);
    }

    /// <summary>Every committed run, oldest first.</summary>
    public static IReadOnlyList<RunManifest> ReadAll(DatasetFolder dataset)
    {
        if (!Directory.Exists(dataset.RunsFolder)) return Array.Empty<RunManifest>();
        var runs = new List<RunManifest>();
        foreach (var path in Directory.EnumerateFiles(dataset.RunsFolder, "*.json"))
        {
            try
            {
                var run = JsonSerializer.Deserialize(File.ReadAllBytes(path), RunManifestJson.Default.RunManifest)
                          ?? throw new DatasetException($"{path}: empty manifest");
                if (run.RunId is null || run.Files is null || Path.GetFileNameWithoutExtension(path) != run.RunId)
                    throw new DatasetException($"{path}: not a run manifest of ours (no run id, a run id other than its name, or no files)");
                // Files are renamed and read by these names: none may point outside its table's folder.
                if (run.Files.FirstOrDefault(f => !IsPartName(f, run.RunId)) is { } stray)
                    throw new DatasetException($"{path}: '{stray}' is not a part file of run {run.RunId} (TABLE/part-{run.RunId}-NNNNN.parquet)");
                runs.Add(run);
            }
            catch (JsonException e)
            {
                throw new DatasetException($"{path}: not a readable run manifest ({e.Message}); the dataset was changed by something other than HiddenCost", e);
            }
        }
        return runs.OrderBy(r => r.RunId, StringComparer.Ordinal).ToArray();
    }

    /// <summary>Whether a manifest's entry names a part of the run in a table folder, and nothing else.</summary>
    private static bool IsPartName(string file, string runId)
    {
        var parts = file.Split('/');
        return parts.Length == 2 && parts[0].Length > 0 && parts[0].All(c => char.IsAsciiLetterLower(c) || char.IsAsciiDigit(c) || c == '_')
               && !parts[0].StartsWith('_') && parts[1].StartsWith($"part-{runId}-", StringComparison.Ordinal)
               && parts[1].EndsWith(".parquet", StringComparison.Ordinal) && !runId.Contains('/') && !runId.Contains('\\') && !runId.Contains("..");
    }

    /// <summary>The hidden name a part file has until its run commits: "_" before the file name.</summary>
    public static string HiddenName(string relativeFile)
    {
        int slash = relativeFile.LastIndexOf('/');
        return relativeFile[..(slash + 1)] + "_" + relativeFile[(slash + 1)..];
    }

    /// <summary>Where a committed file is now: its visible name, or its hidden one when the run was ended before renaming it.</summary>
    public static string Locate(DatasetFolder dataset, string relativeFile)
    {
        var visible = Path.Combine(dataset.Root, relativeFile);
        if (File.Exists(visible)) return visible;
        var hidden = Path.Combine(dataset.Root, HiddenName(relativeFile));
        return File.Exists(hidden) ? hidden
            : throw new DatasetException($"{visible}: a file of committed run is missing; the dataset was changed by something other than HiddenCost");
    }
}

/// <summary>The manifest's JSON contract made at compile time: no reflection, so the Native AOT build reads it too.</summary>
[JsonSourceGenerationOptions(WriteIndented = true)]
[JsonSerializable(typeof(RunManifest))]
internal sealed partial class RunManifestJson : JsonSerializerContext;
