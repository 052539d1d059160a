using System.Runtime.InteropServices;

namespace HiddenCost.Cli.Output;

/// <summary>
/// The file `--output` names, written so that a user's earlier file is never lost for nothing: the tables go to a
/// temporary file beside it (same folder, so same file system), which <see cref="Commit"/> renames over it in one
/// step, and which disposing without committing deletes — the run read no trace, could not write, or was interrupted —
/// leaving the earlier file exactly as it was. A symbolic link is followed (its target is replaced, the link kept), and
/// the earlier file's permissions are kept. A name that is not a regular file (/dev/null, /dev/stdout, a FIFO) cannot
/// be replaced, and is written directly as before.
/// </summary>
public sealed class ReplacingOutputFile : StreamWriter
{
    private readonly string? _temporary;
    private readonly string _target;
    private bool _done;

    private ReplacingOutputFile(Stream stream, string target, string? temporary) : base(stream, OutputFile.Utf8)
    {
        _target = target;
        _temporary = temporary;
    }

    /// <summary>The file the tables go to until <see cref="Commit"/> (the target itself when it cannot be replaced).</summary>
    public string WritingTo => _temporary ?? _target;

    public static ReplacingOutputFile Create(string path)
    {
        var target = FinalTarget(path);
        if (!IsRegularOrAbsent(target))
            return new ReplacingOutputFile(new FileStream(target, FileMode.Create, FileAccess.Write, FileShare.Read), target, null);
        var folder = Path.GetDirectoryName(Path.GetFullPath(target)) ?? ".";
        var temporary = Path.Combine(folder, $".{Path.GetFileName(target)}.{Environment.ProcessId}.{Guid.NewGuid():N}.hiddencost-tmp");
        // Deletable while open, so an interrupted run removes it even on Windows.
        FileStream stream;
        try
        {
            stream = new FileStream(temporary, FileMode.CreateNew, FileAccess.Write, FileShare.Read | FileShare.Delete);
        }
        catch (UnauthorizedAccessException e)
        {
            // A folder the user cannot write to, with a file in it they can: writing in place could lose that file.
            throw new UnauthorizedAccessException($"no temporary file can be made in {folder}, where it is written first so that an " +
                                                  $"earlier file is replaced only once there are tables for it ({e.Message})", e);
        }
        try
        {
            if (!OperatingSystem.IsWindows() && File.Exists(target)) File.SetUnixFileMode(temporary, File.GetUnixFileMode(target));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // The earlier file's permissions could not be read: the new one has the usual ones.
        }
        return new ReplacingOutputFile(stream, target, temporary);
    }

    /// <summary>Writes out what is buffered and puts the file in place of the earlier one.</summary>
    /// <exception cref="IOException">The tables could not be written or the file not put in place: the earlier file is kept.</exception>
    public void Commit()
    {
        if (_done) return;
        base.Dispose(true); // flushes: a full disk shows here
        _done = true;
        if (_temporary is null) return;
        try
        {
            File.Move(_temporary, _target, overwrite: true);
        }
        catch
        {
            TryDelete(_temporary);
            throw;
        }
    }

    /// <summary>Deletes the temporary file now (from Ctrl-C's handler, as the process is about to end): the earlier file stays.</summary>
    public void Abandon()
    {
        if (_temporary is not null) TryDelete(_temporary);
    }

    protected override void Dispose(bool disposing)
    {
        if (_done || !disposing)
        {
            if (!_done) base.Dispose(disposing);
            return;
        }
        _done = true;
        try
        {
            if (_temporary is null) base.Dispose(true);
            else BaseStream.Dispose(); // nothing to flush into a file about to be deleted
        }
        finally
        {
            if (_temporary is not null) TryDelete(_temporary);
        }
    }

    private static void TryDelete(string path)
    {
        try { File.Delete(path); }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException) { }
    }

    private static string FinalTarget(string path)
    {
        try
        {
            var info = new FileInfo(path);
            return info.LinkTarget is not null && info.ResolveLinkTarget(returnFinalTarget: true) is { } target ? target.FullName : path;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException)
        {
            return path;
        }
    }

    /// <summary>Whether <paramref name="path"/> is a regular file or names nothing yet (so a rename may replace it).</summary>
    private static bool IsRegularOrAbsent(string path)
    {
        if (OperatingSystem.IsWindows()) return !path.StartsWith(@"\\.\", StringComparison.Ordinal) && !IsWindowsDevice(Path.GetFileNameWithoutExtension(path));
        var status = new byte[512];
        try
        {
            if (Stat(path, status) != 0) return true; // nothing there (or unreadable: creating the temporary file says why)
        }
        catch (Exception e) when (e is DllNotFoundException or EntryPointNotFoundException)
        {
            return !File.Exists(path); // cannot tell a file from a device: write in place when something is there
        }
        const int FileTypeMask = 0xF000, Regular = 0x8000;
        return (BitConverter.ToInt32(status, 4) & FileTypeMask) == Regular; // .NET's FileStatus: Mode is the second 32-bit field
    }

    private static bool IsWindowsDevice(string name) =>
        name.ToUpperInvariant() is "NUL" or "CON" or "PRN" or "AUX" or "CONIN$" or "CONOUT$" ||
        name.Length == 4 && (name.StartsWith("COM", StringComparison.OrdinalIgnoreCase) || name.StartsWith("LPT", StringComparison.OrdinalIgnoreCase)) && char.IsDigit(name[3]);

#pragma warning disable SYSLIB1054
    [DllImport("libSystem.Native", EntryPoint = "SystemNative_Stat", SetLastError = true)]
    private static extern int Stat([MarshalAs(UnmanagedType.LPUTF8Str)] string path, byte[] status);
#pragma warning restore SYSLIB1054
}
