using System.Runtime.InteropServices;
using System.Text;
using Microsoft.Win32.SafeHandles;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// Opens a trace on Linux by the bytes of its name, without waiting and without reading: open(2) with O_NONBLOCK (a
/// FIFO with no writer, met by name, as /dev/stdin, /dev/fd/N or a deleted one's /proc/self/fd/N, opens at once instead
/// of waiting for a writer for ever), then fstat(2) on what was opened, and anything but a regular file is refused:
/// a trace is read at offsets, which a pipe, socket or terminal cannot give. Nothing is read before that check. On a
/// regular file O_NONBLOCK changes nothing. Names go to open(2) as bytes, so a name that is not UTF-8 opens too.
/// </summary>
internal static class UnixTraceFile
{
    private const int ReadOnly = 0, NonBlocking = 0x800, CloseOnExec = 0x80000; // Linux's values on every architecture .NET runs on
    private const int FileTypeMask = 0xF000, Fifo = 0x1000, CharacterDevice = 0x2000, Directory = 0x4000, BlockDevice = 0x6000, Regular = 0x8000, Socket = 0xC000;
    private const int NoSuchFile = 2, NotADirectory = 20, NoDevice = 6; // ENOENT, ENOTDIR, ENXIO (a socket, or a FIFO with no reader)

    /// <summary>Whether this process opens traces here (Linux, where names are bytes and /proc gives the command line).</summary>
    public static bool Applies => OperatingSystem.IsLinux();

    /// <exception cref="EtlFormatException">Missing, unreadable, or not a regular file.</exception>
    public static SafeFileHandle Open(TraceFileName name)
    {
        var bytes = name.NativeBytes ?? Encoding.UTF8.GetBytes(name.Path);
        var path = new byte[bytes.Length + 1];
        bytes.CopyTo(path, 0);
        int fd;
        try
        {
            fd = open(path, ReadOnly | NonBlocking | CloseOnExec);
        }
        catch (Exception e) when (e is DllNotFoundException or EntryPointNotFoundException)
        {
            throw new EtlFormatException(name.Display, 0, $"cannot open files here: {e.Message}", e);
        }
        if (fd < 0)
        {
            int errno = Marshal.GetLastPInvokeError();
            throw new EtlFormatException(name.Display, 0, errno switch
            {
                NoSuchFile or NotADirectory => "file not found",
                NoDevice => "a socket or device, not a file: " + NotAFile,
                _ => Marshal.GetPInvokeErrorMessage(errno),
            });
        }
        var handle = new SafeFileHandle(fd, ownsHandle: true);
        try
        {
            int type = FileType(handle, name);
            if (type == Regular) return handle;
            throw new EtlFormatException(name.Display, 0, type switch
            {
                Directory => "a directory, not an ETL trace file",
                Fifo => "a pipe or FIFO, not a file: " + NotAFile,
                CharacterDevice => "a terminal or character device, not a file: " + NotAFile,
                BlockDevice => "a block device, not a file: " + NotAFile,
                Socket => "a socket, not a file: " + NotAFile,
                _ => $"not a regular file (type 0x{type:X}): " + NotAFile,
            });
        }
        catch
        {
            handle.Dispose();
            throw;
        }
    }

    /// <summary>Said of every input refused for not being a file; documented in the CLI's README.</summary>
    public const string NotAFile = "a trace is read at offsets, which only a file gives; save it to a file and name that";

    private static int FileType(SafeFileHandle handle, TraceFileName name)
    {
        // .NET's own native shim: its FileStatus (pal_io.h) has the same layout on every architecture, where libc's
        // struct stat does not. Mode is its second 32-bit field; the buffer is larger than the struct has ever been.
        var status = new byte[512];
        if (FStat(handle, status) != 0)
            throw new EtlFormatException(name.Display, 0, Marshal.GetPInvokeErrorMessage(Marshal.GetLastPInvokeError()));
        return BitConverter.ToInt32(status, 4) & FileTypeMask;
    }

#pragma warning disable SYSLIB1054 // DllImport, not LibraryImport: the reader builds without unsafe code
    [DllImport("libc", SetLastError = true)]
    private static extern int open(byte[] path, int flags);

    [DllImport("libSystem.Native", EntryPoint = "SystemNative_FStat", SetLastError = true)]
    private static extern int FStat(SafeFileHandle fd, byte[] status);
#pragma warning restore SYSLIB1054
}
