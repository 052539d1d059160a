using Microsoft.Win32.SafeHandles;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// Where a trace's bytes come from: a file read piecewise at offsets (the normal case, so the file is never
/// wholly in memory), or an array already in memory (mutation tests and the fuzzer, which would otherwise
/// write a temporary file per case).
/// </summary>
internal abstract class ByteSource : IDisposable
{
    public abstract long Length { get; }

    /// <summary>Fills <paramref name="destination"/> from <paramref name="offset"/>.</summary>
    /// <returns>Bytes read: fewer than asked only when the source ends (or shrank since it was measured).</returns>
    public abstract int Read(Span<byte> destination, long offset);

    public virtual void Dispose()
    {
    }

    public static ByteSource FromFile(SafeFileHandle file) => new FileSource(file);

    public static ByteSource FromMemory(ReadOnlyMemory<byte> bytes) => new MemorySource(bytes);

    private sealed class FileSource : ByteSource
    {
        private readonly SafeFileHandle _file;

        public FileSource(SafeFileHandle file)
        {
            _file = file;
            Length = RandomAccess.GetLength(file);
        }

        public override long Length { get; }

        public override int Read(Span<byte> destination, long offset)
        {
            int total = 0;
            while (total < destination.Length)
            {
                int n = RandomAccess.Read(_file, destination[total..], offset + total);
                if (n <= 0) break;
                total += n;
            }
            return total;
        }

        public override void Dispose() => _file.Dispose();
    }

    private sealed class MemorySource : ByteSource
    {
        private readonly ReadOnlyMemory<byte> _bytes;

        public MemorySource(ReadOnlyMemory<byte> bytes) => _bytes = bytes;

        public override long Length => _bytes.Length;

        public override int Read(Span<byte> destination, long offset)
        {
            if (offset < 0 || offset >= _bytes.Length) return 0;
            var available = _bytes.Span[(int)offset..];
            int n = Math.Min(available.Length, destination.Length);
            available[..n].CopyTo(destination);
            return n;
        }
    }
}
