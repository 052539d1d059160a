using Microsoft.Win32.SafeHandles;

namespace HiddenCost.Cli.Output;

/// <summary>
/// Standard output for tables, as a writer whose writes fail when nobody reads them any more. .NET's console stream
/// on Unix drops a write that meets a closed pipe (EPIPE) without a word, so `hiddencost x.etl | head -1` would run
/// to the end and exit 0 as if everything had been printed; writing to file descriptor 1 directly raises the error,
/// which the program reports as output that could not be written (exit 2). Only for pipes and devices: a regular file
/// keeps the console's writer, which moves the descriptor's offset as it writes.
/// </summary>
public static class StandardOutput
{
    public static TextWriter Open()
    {
        if (OperatingSystem.IsWindows()) return Console.Out;
        try
        {
            var stream = new FileStream(new SafeFileHandle(1, ownsHandle: false), FileAccess.Write, bufferSize: 0);
            if (stream.CanSeek)
            {
                // A regular file: no pipe to close, and FileStream writes a seekable file at offsets of its own without
                // moving the descriptor's, so in `{ hiddencost …; echo done; } > f` the shell's next line overwrote ours.
                stream.Dispose();
                return Console.Out;
            }
            return new StreamWriter(stream, OutputFile.Utf8, bufferSize: 64 * 1024);
        }
        catch (Exception e) when (e is IOException or ArgumentException or UnauthorizedAccessException or NotSupportedException)
        {
            return Console.Out; // descriptor 1 is closed or not writable as a file: the console's writer still reports nothing
        }
    }
}
