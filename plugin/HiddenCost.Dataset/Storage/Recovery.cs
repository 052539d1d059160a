namespace HiddenCost.Dataset.Storage;

/// <summary>
/// Puts a dataset back in order after a run that was ended (killed, crashed, out of disk) part-way, holding the lock:
/// a committed run's files still under their hidden names get their visible ones (the run had committed, it was only
/// ended before renaming), and every other hidden file — parts of runs that never committed, half-written manifests —
/// is deleted. Committed files are never touched otherwise.
/// </summary>
public static class Recovery
{
    /// <returns>How many leftover files were deleted.</returns>
    public static int Run(DatasetFolder dataset, IReadOnlyList<RunManifest> committed)
    {
        foreach (var run in committed)
            foreach (var file in run.Files)
            {
                var visible = Path.Combine(dataset.Root, file);
                var hidden = Path.Combine(dataset.Root, RunManifest.HiddenName(file));
                if (!File.Exists(visible) && File.Exists(hidden)) File.Move(hidden, visible);
            }
        int deleted = 0;
        foreach (var folder in Directory.EnumerateDirectories(dataset.Root))
        {
            var name = Path.GetFileName(folder);
            if (name.StartsWith('.')) continue; // not ours
            var pattern = name == DatasetFolder.RunsName ? "*.tmp" : "_*";
            if (name.StartsWith('_') && name != DatasetFolder.RunsName) continue;
            foreach (var leftover in Directory.EnumerateFiles(folder, pattern))
            {
                File.Delete(leftover);
                deleted++;
            }
        }
        return deleted;
    }
}
