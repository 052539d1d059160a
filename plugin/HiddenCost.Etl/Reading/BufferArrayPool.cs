using System.Buffers;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// The arrays a reader's passes hold buffer data in, kept by the reader from one pass to the next: every array is
/// the session's buffer size, which every buffer of the session fits. <see cref="ArrayPool{T}.Shared"/> keeps only
/// a few dozen arrays of a size per core, fewer than a pass with read-ahead holds at once (a buffer per processor
/// and up to 64 loaded ahead): it dropped the rest on return and allocated them again on the next pass, and arrays
/// of 64 KiB buffers, below the large-object threshold, went through the collector's young generations while in
/// use (net.4.5.2.x64: about 0.5 MB promoted by each young collection of the decode pass). Unlike the shared pool,
/// this one does not shrink under memory pressure: it holds at most <see cref="MaxKeptBytes"/>, and only while
/// its reader is open.
/// Data of other sizes — more than the session's buffer size (relogged or damaged files), or less than half of it
/// (partly filled buffers), where a whole array would hold more of the pass's memory budget than the bytes need —
/// comes from the shared pool. Thread-safe: the read-ahead thread and the stream's thread rent and return.
/// </summary>
internal sealed class BufferArrayPool
{
    /// <summary>At most this many bytes of free arrays are kept between uses; more go to the collector.</summary>
    public const long MaxKeptBytes = 32L * 1024 * 1024;

    private readonly Stack<byte[]> _free = new();
    private readonly int _maxKept;

    public BufferArrayPool(int arraySize)
    {
        ArraySize = arraySize;
        _maxKept = (int)(MaxKeptBytes / arraySize); // none for buffers over 32 MiB: keeping even one would pass the limit
    }

    /// <summary>The length of every array this pool keeps.</summary>
    public int ArraySize { get; }

    /// <summary>Free arrays kept now.</summary>
    public int KeptCount
    {
        get
        {
            lock (_free) return _free.Count;
        }
    }

    /// <summary>Lets the collector have every kept array (the reader is done with them).</summary>
    public void Clear()
    {
        lock (_free) _free.Clear();
    }

    /// <summary>An array of at least <paramref name="size"/> bytes, its contents undefined.</summary>
    public byte[] Rent(int size)
    {
        if (size > ArraySize || size <= ArraySize / 2) return ArrayPool<byte>.Shared.Rent(size);
        lock (_free)
        {
            if (_free.TryPop(out var kept)) return kept;
        }
        // Uninitialised: a load writes every byte it then reads.
        return GC.AllocateUninitializedArray<byte>(ArraySize);
    }

    public void Return(byte[] array)
    {
        // Rent gives out shared-pool arrays only for sizes above ArraySize or at most half of it, so none of them
        // has this pool's length: the length alone says where an array goes back.
        if (array.Length != ArraySize)
        {
            ArrayPool<byte>.Shared.Return(array);
            return;
        }
        lock (_free)
        {
            if (_free.Count < _maxKept) _free.Push(array);
        }
    }
}
