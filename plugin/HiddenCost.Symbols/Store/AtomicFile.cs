namespace HiddenCost.Symbols.Store;

/// <summary>
/// Writes a file under a temporary name in its target folder and renames it into place only when complete, so a
/// killed run or a failed download never leaves half a PDB where a later run would find it.
/// </summary>
internal static class AtomicFile
{
    public static async Task<string> WriteAsync(string target, Func<Stream, Task> write)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(target)!);
        var temp = $"{target}.{Environment.ProcessId}.{Guid.NewGuid():N}.tmp";
        try
        {
            await using (var file = new FileStream(temp, FileMode.CreateNew, FileAccess.ReadWrite, FileShare.None, 81920, FileOptions.Asynchronous))
                await write(file).ConfigureAwait(false);
            File.Move(temp, target, overwrite: true);
            return target;
        }
        finally
        {
            if (File.Exists(temp)) File.Delete(temp);
        }
    }
}
