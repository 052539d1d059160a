using System.Buffers;
using HiddenCost.Etl.Buffers;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// What loading one buffer gave: its bytes (decompressed when it was XPRESS-compressed), or why it cannot be
/// used. Health is not touched here — loads may run ahead on another thread — so the stream that takes the
/// result applies <see cref="Counted"/>, <see cref="Flags"/>, <see cref="Compressed"/> and <see cref="Damage"/>
/// to the trace's health in file order, exactly as if it had loaded the buffer itself.
/// <see cref="Ahead"/> loads hold their bytes in the read-ahead part of the budget until
/// <see cref="BufferLoader.Adopt"/> moves them; <see cref="Reserved"/> is the array size the load rented and
/// <see cref="End"/> the data size it asked for (set even when the load then failed).
/// </summary>
internal readonly record struct LoadedBuffer(long Offset, byte[]? Data, int End, bool Counted, bool Compressed, BufferFlags Flags, string? Damage,
    bool Ahead = false, int Reserved = 0)
{
    /// <summary>A load ahead of need that would have taken more than the read-ahead budget: the stream loads it itself.</summary>
    public bool Deferred => Data is null && Damage is null;

    public static LoadedBuffer Defer(long offset) => new(offset, null, 0, false, false, 0, null);

    public static LoadedBuffer Damaged(long offset, string reason, bool counted = false, bool compressed = false, BufferFlags flags = 0) =>
        new(offset, null, 0, counted, compressed, flags, reason);
}

/// <summary>
/// Loads buffers: reads the buffer header, checks every size it declares before anything is allocated,
/// reads the data and decompresses XPRESS buffers into an array from the reader's pool. Safe to call from
/// several threads at once (the byte source reads at offsets and the memory budget is shared atomically).
/// </summary>
internal sealed class BufferLoader
{
    private readonly ByteSource _source;
    private readonly int _maxDataSize;
    private readonly MemoryBudget _budget;
    private readonly BufferArrayPool _arrays;

    /// <summary>Bytes the buffers of this loader's pass hold now.</summary>
    public long BytesHeld => _budget.Held;

    /// <param name="maxDataSize">
    /// The most bytes a compressed buffer may claim to decompress to: the session's buffer size. SavedOffset
    /// is checked against it before anything is allocated, so a corrupt field cannot ask for gigabytes.
    /// </param>
    /// <param name="arrays">Where buffer data is held: the reader's arrays, kept from one pass to the next.</param>
    public BufferLoader(ByteSource source, int maxDataSize, MemoryBudget budget, BufferArrayPool arrays)
    {
        _source = source;
        _maxDataSize = maxDataSize;
        _budget = budget;
        _arrays = arrays;
    }

    /// <param name="ahead">
    /// A load ahead of need: it holds its bytes in the read-ahead part of the budget and comes back
    /// <see cref="LoadedBuffer.Deferred"/> when that part is spent; <see cref="Adopt"/> then makes it the
    /// stream's. Reading ahead thus never takes memory from a buffer being walked, and never fails a buffer that
    /// loading alone would have read.
    /// </param>
    /// <param name="onWorker">The load runs on the read-ahead thread, for another thread to walk.</param>
    public LoadedBuffer Load(long offset, bool ahead = false, bool onWorker = false)
    {
        Span<byte> raw = stackalloc byte[BufferHeader.Size];
        if (_source.Read(raw, offset) < BufferHeader.Size) return LoadedBuffer.Damaged(offset, "buffer header could not be read (file shrank?)");
        var h = BufferHeader.Parse(raw);
        if (h.BufferSize < BufferHeader.Size || h.BufferSize > BufferHeader.MaxBufferSize)
            return LoadedBuffer.Damaged(offset, $"buffer size {h.BufferSize} is impossible");

        uint saved = h.SavedOffset;
        var loaded = new LoadedBuffer(offset, null, 0, true, h.IsCompressed, h.Flags, null, ahead);
        if (!h.IsCompressed)
        {
            // Uncompressed: the data ends at SavedOffset; a zero or impossible value means the whole buffer.
            if (saved < BufferHeader.Size || saved > h.BufferSize) saved = h.BufferSize;
            var data = Rent((int)saved, ahead);
            if (data is null) return ahead ? LoadedBuffer.Defer(offset) : loaded with { Damage = MemoryBudgetReason((int)saved) };
            loaded = loaded with { Reserved = data.Length, End = (int)saved };
            if (_source.Read(data.AsSpan(0, (int)saved), offset) < saved)
                return Fail(data, loaded, "buffer could not be read in full (file shrank?)");
            return loaded with { Data = data, End = (int)saved };
        }

        if (saved < BufferHeader.Size || saved > _maxDataSize)
            return loaded with { Ahead = false, Damage = $"compressed buffer declares {saved} bytes of data (at most {_maxDataSize} possible)" };
        var output = Rent((int)saved, ahead);
        if (output is null) return ahead ? LoadedBuffer.Defer(offset) : loaded with { Damage = MemoryBudgetReason((int)saved) };
        loaded = loaded with { Reserved = output.Length, End = (int)saved };
        raw.CopyTo(output);
        int compressedLength = (int)h.BufferSize - BufferHeader.Size;
        var input = ArrayPool<byte>.Shared.Rent(compressedLength);
        try
        {
            if (_source.Read(input.AsSpan(0, compressedLength), offset + BufferHeader.Size) < compressedLength)
                return Fail(output, loaded, "compressed buffer could not be read in full (file shrank?)");
            int expected = (int)saved - BufferHeader.Size;
            var target = output.AsSpan(BufferHeader.Size, expected);
            // The read-ahead thread's arrays come back from the thread that walked their last contents, so their
            // cache lines sit in that core's cache. XPRESS writes a few bytes at a time and each first write to a
            // line waits for the line to come over; clearing the array first takes all its lines over in one
            // streaming pass (net.4.5.2.x64: about 54 µs → 42 µs a buffer on that thread, clearing included).
            // The walking thread's own loads get back arrays its cache already holds, where clearing only costs.
            if (onWorker) target.Clear();
            int written = XpressDecoder.Decompress(input.AsSpan(0, compressedLength), target);
            if (written != expected)
                return Fail(output, loaded, written < 0
                    ? "compressed buffer is corrupt (XPRESS stream invalid)"
                    : $"compressed buffer decompressed to {written} bytes, {expected} expected");
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(input);
        }
        return loaded with { Data = output, End = (int)saved };
    }

    /// <summary>
    /// Makes a buffer loaded ahead the stream's: its bytes move to the part of the budget for buffers being
    /// walked, with the check a load by the stream itself would have made at this point, and the same outcome
    /// (the buffer, its damage, or the budget's refusal).
    /// </summary>
    public LoadedBuffer Adopt(in LoadedBuffer loaded)
    {
        if (!loaded.Ahead || loaded.Reserved == 0) return loaded with { Ahead = false };
        if (!_budget.TryHold(loaded.Reserved, ahead: false))
        {
            if (loaded.Data is not null) Return(loaded.Data, ahead: true);
            return loaded with { Data = null, End = 0, Ahead = false, Damage = MemoryBudgetReason(loaded.End) }; // the size a load of its own names
        }
        if (loaded.Data is null) _budget.Release(loaded.Reserved, ahead: false); // damaged: a load of its own would have given it back at once
        else _budget.Release(loaded.Reserved, ahead: true);
        return loaded with { Ahead = false };
    }

    /// <summary>Gives a buffer's array back to the pool and its bytes back to the budget.</summary>
    public void Return(byte[] data, bool ahead = false)
    {
        _budget.Release(data.Length, ahead);
        _arrays.Return(data);
    }

    // Pooled: every pass over a trace needs a buffer per processor again, and fresh megabyte arrays cost zeroing
    // and page faults each time.
    private byte[]? Rent(int size, bool ahead)
    {
        // Checked before anything is allocated; then again for what the pool's array size adds.
        if (!_budget.TryHold(size, ahead)) return null;
        var data = _arrays.Rent(size);
        if (_budget.TryHold(data.Length - size, ahead)) return data;
        _budget.Release(size, ahead);
        _arrays.Return(data);
        return null;
    }

    private LoadedBuffer Fail(byte[] data, in LoadedBuffer loaded, string reason)
    {
        Return(data, loaded.Ahead);
        return loaded with { Damage = reason };
    }

    private string MemoryBudgetReason(int size) =>
        $"{size} more bytes would take the buffers held by all processors past {_budget.Limit / (1024 * 1024)} MiB";
}

/// <summary>
/// The bytes of buffer data one pass holds at once. Each processor walks one buffer, so a hostile file naming
/// thousands of processors, each with a compressed buffer claiming megabytes, could otherwise demand gigabytes;
/// real traces stay far below the limit (64 processors × 1 MiB buffers = 64 MiB, twice that while a stream
/// swaps buffers). Buffers loaded ahead of need count apart, against a quarter of the limit, so reading ahead
/// never takes memory from the buffers being walked.
/// </summary>
internal sealed class MemoryBudget
{
    public const long DefaultLimit = 512L * 1024 * 1024;

    private long _walked, _ahead;

    public MemoryBudget(long limit = DefaultLimit)
    {
        Limit = limit;
        AheadLimit = limit / 4;
    }

    /// <summary>The most bytes the buffers being walked may hold.</summary>
    public long Limit { get; }

    /// <summary>The most bytes buffers loaded ahead of need may hold.</summary>
    public long AheadLimit { get; }

    public bool TryHold(long bytes, bool ahead)
    {
        ref long held = ref ahead ? ref _ahead : ref _walked;
        if (Interlocked.Add(ref held, bytes) <= (ahead ? AheadLimit : Limit)) return true;
        Interlocked.Add(ref held, -bytes);
        return false;
    }

    public void Release(long bytes, bool ahead) => Interlocked.Add(ref ahead ? ref _ahead : ref _walked, -bytes);

    /// <summary>Bytes held now, walked and ahead: 0 once a pass has given back every buffer.</summary>
    public long Held => Interlocked.Read(ref _walked) + Interlocked.Read(ref _ahead);
}
