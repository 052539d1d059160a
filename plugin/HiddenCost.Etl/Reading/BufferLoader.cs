using System.Buffers;
using HiddenCost.Etl.Buffers;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// What loading one buffer gave: its bytes (decompressed when it was XPRESS-compressed), or why it cannot be
/// used. Health is not touched here — loads may run ahead on another thread — so the stream that takes the
/// result applies <see cref="Counted"/>, <see cref="Flags"/>, <see cref="Compressed"/> and <see cref="Damage"/>
/// to the trace's health in file order, exactly as if it had loaded the buffer itself.
/// </summary>
internal readonly record struct LoadedBuffer(long Offset, byte[]? Data, int End, bool Counted, bool Compressed, BufferFlags Flags, string? Damage)
{
    public static LoadedBuffer Damaged(long offset, string reason, bool counted = false, bool compressed = false, BufferFlags flags = 0) =>
        new(offset, null, 0, counted, compressed, flags, reason);
}

/// <summary>
/// Loads buffers: reads the buffer header, checks every size it declares before anything is allocated,
/// reads the data and decompresses XPRESS buffers into an array from the shared pool. Safe to call from
/// several threads at once (the byte source reads at offsets and the memory budget is shared atomically).
/// </summary>
internal sealed class BufferLoader
{
    private readonly ByteSource _source;
    private readonly int _maxDataSize;
    private readonly MemoryBudget _budget;

    /// <param name="maxDataSize">
    /// The most bytes a compressed buffer may claim to decompress to: the session's buffer size. SavedOffset
    /// is checked against it before anything is allocated, so a corrupt field cannot ask for gigabytes.
    /// </param>
    public BufferLoader(ByteSource source, int maxDataSize, MemoryBudget budget)
    {
        _source = source;
        _maxDataSize = maxDataSize;
        _budget = budget;
    }

    public LoadedBuffer Load(long offset)
    {
        Span<byte> raw = stackalloc byte[BufferHeader.Size];
        if (_source.Read(raw, offset) < BufferHeader.Size) return LoadedBuffer.Damaged(offset, "buffer header could not be read (file shrank?)");
        var h = BufferHeader.Parse(raw);
        if (h.BufferSize < BufferHeader.Size || h.BufferSize > BufferHeader.MaxBufferSize)
            return LoadedBuffer.Damaged(offset, $"buffer size {h.BufferSize} is impossible");

        uint saved = h.SavedOffset;
        if (!h.IsCompressed)
        {
            // Uncompressed: the data ends at SavedOffset; a zero or impossible value means the whole buffer.
            if (saved < BufferHeader.Size || saved > h.BufferSize) saved = h.BufferSize;
            var data = Rent((int)saved);
            if (data is null) return LoadedBuffer.Damaged(offset, MemoryBudgetReason((int)saved), counted: true, flags: h.Flags);
            if (_source.Read(data.AsSpan(0, (int)saved), offset) < saved)
                return Fail(data, offset, "buffer could not be read in full (file shrank?)", false, h.Flags);
            return new LoadedBuffer(offset, data, (int)saved, true, false, h.Flags, null);
        }

        if (saved < BufferHeader.Size || saved > _maxDataSize)
            return LoadedBuffer.Damaged(offset, $"compressed buffer declares {saved} bytes of data (at most {_maxDataSize} possible)", true, true, h.Flags);
        var output = Rent((int)saved);
        if (output is null) return LoadedBuffer.Damaged(offset, MemoryBudgetReason((int)saved), true, true, h.Flags);
        raw.CopyTo(output);
        int compressedLength = (int)h.BufferSize - BufferHeader.Size;
        var input = ArrayPool<byte>.Shared.Rent(compressedLength);
        try
        {
            if (_source.Read(input.AsSpan(0, compressedLength), offset + BufferHeader.Size) < compressedLength)
                return Fail(output, offset, "compressed buffer could not be read in full (file shrank?)", true, h.Flags);
            int expected = (int)saved - BufferHeader.Size;
            int written = XpressDecoder.Decompress(input.AsSpan(0, compressedLength), output.AsSpan(BufferHeader.Size, expected));
            if (written != expected)
                return Fail(output, offset, written < 0
                    ? "compressed buffer is corrupt (XPRESS stream invalid)"
                    : $"compressed buffer decompressed to {written} bytes, {expected} expected", true, h.Flags);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(input);
        }
        return new LoadedBuffer(offset, output, (int)saved, true, true, h.Flags, null);
    }

    /// <summary>Gives a buffer's array back to the pool and its bytes back to the budget.</summary>
    public void Return(byte[] data)
    {
        _budget.Release(data.Length);
        ArrayPool<byte>.Shared.Return(data);
    }

    // Pooled: every pass over a trace needs a buffer per processor again, and fresh megabyte arrays cost zeroing
    // and page faults each time.
    private byte[]? Rent(int size)
    {
        if (!_budget.TryHold(size)) return null;
        var data = ArrayPool<byte>.Shared.Rent(size);
        if (data.Length > size && !_budget.TryHold(data.Length - size))
        {
            _budget.Release(size);
            ArrayPool<byte>.Shared.Return(data);
            return null;
        }
        return data;
    }

    private LoadedBuffer Fail(byte[] data, long offset, string reason, bool compressed, BufferFlags flags)
    {
        Return(data);
        return LoadedBuffer.Damaged(offset, reason, true, compressed, flags);
    }

    private static string MemoryBudgetReason(int size) =>
        $"{size} more bytes would take the buffers held by all processors past {MemoryBudget.MaxHeldBytes / (1024 * 1024)} MiB";
}

/// <summary>
/// The bytes of buffer data one pass holds at once, across all processors and loads running ahead. Each
/// processor keeps about two buffers, so a hostile file naming thousands of processors, each with a compressed
/// buffer claiming megabytes, could otherwise demand gigabytes; real traces stay far below the budget
/// (64 processors × 1 MiB buffers × 2 = 128 MiB).
/// </summary>
internal sealed class MemoryBudget
{
    public const long MaxHeldBytes = 512L * 1024 * 1024;

    private long _held;

    public long Held => Interlocked.Read(ref _held);

    public bool TryHold(long bytes)
    {
        if (Interlocked.Add(ref _held, bytes) <= MaxHeldBytes) return true;
        Interlocked.Add(ref _held, -bytes);
        return false;
    }

    public void Release(long bytes) => Interlocked.Add(ref _held, -bytes);
}
