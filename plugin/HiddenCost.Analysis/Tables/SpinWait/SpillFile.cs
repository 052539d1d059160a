using Microsoft.Win32.SafeHandles;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>
/// A temporary file that chunks of a log are appended to and read back from, as TraceEvent's ETLX and WPA keep what a
/// pass must hold until its end out of memory. Created on the first write, in <paramref name="directory"/> (the
/// system's temporary folder by default), deleted when closed (and at once on Unix, where an open file needs no
/// name, so a killed process leaves nothing behind). When it cannot be created or written, it says why in
/// <see cref="Failure"/> and takes no more writes: the caller keeps its chunks in memory.
/// </summary>
internal sealed class SpillFile(string? directory = null) : IDisposable
{
    private SafeFileHandle? _handle;
    private long _length;

    /// <summary>Why the file could not be created or written (null while it works).</summary>
    public string? Failure { get; private set; }

    /// <summary>Bytes written.</summary>
    public long Length => _length;

    /// <summary>Appends <paramref name="bytes"/>; returns their offset, or −1 when the file failed (now or before).</summary>
    public long TryAppend(ReadOnlySpan<byte> bytes)
    {
        if (Failure is not null || (_handle is null && !TryCreate())) return -1;
        try
        {
            RandomAccess.Write(_handle!, bytes, _length);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            Failure = $"writing {bytes.Length:N0} bytes at offset {_length:N0} of the temporary file failed ({e.Message})";
            return -1;
        }
        long offset = _length;
        _length += bytes.Length;
        return offset;
    }

    /// <summary>Reads back <paramref name="into"/>.Length bytes written at <paramref name="offset"/>.</summary>
    public void Read(long offset, Span<byte> into)
    {
        if (_handle is null) throw new InvalidOperationException("Nothing was written to the temporary file.");
        while (!into.IsEmpty)
        {
            int n = RandomAccess.Read(_handle, into, offset);
            if (n <= 0) throw new IOException($"The temporary file ended at offset {offset:N0}, before the {into.Length:N0} bytes written there.");
            into = into[n..];
            offset += n;
        }
    }

    private bool TryCreate()
    {
        string folder = directory ?? Path.GetTempPath();
        string path = Path.Combine(folder, $"hiddencost-spin-{Guid.NewGuid():N}.tmp");
        try
        {
            _handle = File.OpenHandle(path, FileMode.CreateNew, FileAccess.ReadWrite, FileShare.None, FileOptions.DeleteOnClose);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            Failure = $"the temporary file could not be created in {folder} ({e.Message})";
            return false;
        }
        if (!OperatingSystem.IsWindows())
        {
            try { File.Delete(path); }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException) { /* DeleteOnClose removes it at Dispose */ }
        }
        return true;
    }

    public void Dispose()
    {
        _handle?.Dispose();
        _handle = null;
    }
}
