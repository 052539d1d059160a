namespace HiddenCost.Etl;

/// <summary>
/// A trace file's name as the reader opens it and as it is shown. <see cref="Display"/> names the file in every error
/// and warning (hosts escape what would break a one-line message before passing it); <see cref="Path"/> opens it, or,
/// on Linux, <see cref="NativeBytes"/> when the name's bytes are not UTF-8 (.NET's strings cannot hold them: its
/// command-line arguments carry U+FFFD there, and no file of that name exists).
/// </summary>
public sealed record TraceFileName(string Display, string Path, byte[]? NativeBytes = null)
{
    public static implicit operator TraceFileName(string path) => new(path, path);
}
