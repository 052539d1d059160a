namespace HiddenCost.Dataset.Extract;

/// <summary>The trace files an extract reads: files as given, and every *.etl under a folder given (not the dataset's own).</summary>
/// <param name="Ignored">Files in the folders given that are not *.etl, so not read (said in the summary).</param>
public sealed record TraceInputs(IReadOnlyList<string> Files, int Ignored)
{
    /// <exception cref="ArgumentException">An argument names nothing that exists.</exception>
    public static TraceInputs Expand(IReadOnlyList<string> arguments, string? datasetRoot)
    {
        var files = new List<string>();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        int ignored = 0;
        foreach (var argument in arguments)
        {
            var full = Path.GetFullPath(argument);
            if (Directory.Exists(full))
            {
                var found = new List<string>();
                foreach (var file in Directory.EnumerateFiles(full, "*", new EnumerationOptions { RecurseSubdirectories = true, IgnoreInaccessible = true, AttributesToSkip = 0 }))
                {
                    if (datasetRoot is not null && IsUnder(file, datasetRoot)) continue;
                    if (file.EndsWith(".etl", StringComparison.OrdinalIgnoreCase)) found.Add(file);
                    else ignored++;
                }
                found.Sort(StringComparer.Ordinal);
                foreach (var file in found)
                    if (seen.Add(file)) files.Add(file);
            }
            else if (File.Exists(full) || new FileInfo(full).LinkTarget is not null)
            {
                if (seen.Add(full)) files.Add(full);
            }
            else throw new ArgumentException($"{argument}: no such trace file or folder");
        }
        return new TraceInputs(files, ignored);
    }

    private static bool IsUnder(string file, string folder) =>
        file.StartsWith(Path.TrimEndingDirectorySeparator(folder) + Path.DirectorySeparatorChar, StringComparison.Ordinal);
}
