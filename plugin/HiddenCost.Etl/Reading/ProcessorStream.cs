using System.Buffers;
using System.Buffers.Binary;
using HiddenCost.Etl.Buffers;
using HiddenCost.Etl.Records;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// One processor's events in file order: loads its buffers one at a time (decompressing XPRESS buffers),
/// walks the 8-aligned records, and steps over damage with a health warning instead of failing.
/// </summary>
internal sealed class ProcessorStream
{
    private const int MaxInversionWarnings = 10;

    private readonly ByteSource _source;
    private readonly int _maxDataSize;
    private readonly IReadOnlyList<long> _offsets;
    private readonly TraceHealth _health;
    private readonly SharedScratch _scratch;
    private byte[] _data = Array.Empty<byte>();
    private int _nextBuffer;
    private int _end;
    private int _position;
    private int _next;
    private long _lastTimestamp = long.MinValue;

    /// <param name="maxDataSize">
    /// The most bytes a compressed buffer may claim to decompress to: the session's buffer size. SavedOffset
    /// is checked against it before anything is allocated, so a corrupt field cannot ask for gigabytes.
    /// </param>
    public ProcessorStream(ByteSource source, int processor, IReadOnlyList<long> offsets, TraceHealth health, SharedScratch scratch, int maxDataSize)
    {
        _source = source;
        _maxDataSize = maxDataSize;
        Processor = processor;
        _offsets = offsets;
        _health = health;
        _scratch = scratch;
    }

    public int Processor { get; }

    /// <summary>The current record's header (valid after <see cref="MoveNext"/> returned true).</summary>
    public RecordHeader Current;

    public long BufferOffset { get; private set; }

    public ReadOnlySpan<byte> CurrentRecord => _data.AsSpan(_position, Current.Size);

    /// <summary>Moves to the next event record, loading further buffers as needed.</summary>
    public bool MoveNext()
    {
        while (true)
        {
            if (_next + 4 <= _end && BinaryPrimitives.ReadUInt32LittleEndian(_data.AsSpan(_next)) != RecordHeader.EndMarker)
            {
                _position = _next;
                if (!RecordHeader.TryParse(_data.AsSpan(_position, _end - _position), out Current, out var error))
                {
                    _health.DamagedBuffers++;
                    _health.Warn(BufferOffset, $"processor {Processor}: record at buffer offset 0x{_position:X}: {error}; rest of buffer skipped");
                    _end = 0;
                    continue;
                }
                _next = _position + ((Current.Size + 7) & ~7);
                if (Current.Kind == RecordHeaderKind.TraceMessage)
                {
                    _health.TraceMessagesSkipped++;
                    continue;
                }
                if (Current.Timestamp < _lastTimestamp)
                {
                    // The file itself is out of order here; the merge keeps each processor's file order, so the
                    // inversion shows in the output too. Counted always, described for the first few.
                    if (++_health.TimeInversions <= MaxInversionWarnings)
                        _health.Warn(BufferOffset, $"processor {Processor}: record at buffer offset 0x{_position:X} is {_lastTimestamp - Current.Timestamp} ticks earlier than the one before it");
                }
                _lastTimestamp = Current.Timestamp;
                return true;
            }
            if (!LoadNextBuffer()) return false;
        }
    }

    private bool LoadNextBuffer()
    {
        while (_nextBuffer < _offsets.Count)
        {
            long offset = _offsets[_nextBuffer++];
            if (Load(offset)) return true;
        }
        _end = 0;
        ReleaseBuffer();
        return false;
    }

    /// <summary>Loads one buffer into memory; false (with a warning) when it cannot be used.</summary>
    internal bool Load(long offset)
    {
        BufferOffset = offset;
        _end = 0;
        Span<byte> raw = stackalloc byte[BufferHeader.Size];
        if (_source.Read(raw, offset) < BufferHeader.Size) return Damaged(offset, "buffer header could not be read (file shrank?)");
        var h = BufferHeader.Parse(raw);
        if (h.BufferSize < BufferHeader.Size || h.BufferSize > BufferHeader.MaxBufferSize)
            return Damaged(offset, $"buffer size {h.BufferSize} is impossible");
        _health.Buffers++;
        if ((h.Flags & BufferFlags.EventsLost) != 0) _health.BuffersWithEventsLost++;
        if ((h.Flags & BufferFlags.BufferLost) != 0) _health.BuffersFlaggedLost++;

        uint saved = h.SavedOffset;
        if (h.IsCompressed)
        {
            _health.CompressedBuffers++;
            if (saved < BufferHeader.Size || saved > _maxDataSize)
                return Damaged(offset, $"compressed buffer declares {saved} bytes of data (at most {_maxDataSize} possible)");
            if (!EnsureCapacity((int)saved)) return Damaged(offset, MemoryBudgetReason((int)saved));
            raw.CopyTo(_data);
            int compressedLength = (int)h.BufferSize - BufferHeader.Size;
            var input = _scratch.Get(compressedLength);
            if (_source.Read(input, offset + BufferHeader.Size) < compressedLength)
                return Damaged(offset, "compressed buffer could not be read in full (file shrank?)");
            int expected = (int)saved - BufferHeader.Size;
            int written = XpressDecoder.Decompress(input, _data.AsSpan(BufferHeader.Size, expected));
            if (written != expected)
                return Damaged(offset, written < 0
                    ? "compressed buffer is corrupt (XPRESS stream invalid)"
                    : $"compressed buffer decompressed to {written} bytes, {expected} expected");
        }
        else
        {
            // Uncompressed: the data ends at SavedOffset; a zero or impossible value means the whole buffer.
            if (saved < BufferHeader.Size || saved > h.BufferSize) saved = h.BufferSize;
            if (!EnsureCapacity((int)saved)) return Damaged(offset, MemoryBudgetReason((int)saved));
            if (_source.Read(_data.AsSpan(0, (int)saved), offset) < saved)
                return Damaged(offset, "buffer could not be read in full (file shrank?)");
        }
        _end = (int)saved;
        _next = BufferHeader.Size;
        return true;
    }

    private bool Damaged(long offset, string reason)
    {
        _health.DamagedBuffers++;
        _health.Warn(offset, $"processor {Processor}: {reason}; buffer skipped");
        return false;
    }

    private bool EnsureCapacity(int size)
    {
        if (_data.Length >= size) return true;
        // Pooled: every pass over a trace needs one buffer per processor again, and fresh megabyte arrays
        // cost zeroing and page faults each time.
        if (!_scratch.TryHold(size - _data.Length)) return false;
        var data = ArrayPool<byte>.Shared.Rent(size);
        _scratch.TryHold(data.Length - size);
        ReturnData();
        _data = data;
        return true;
    }

    private string MemoryBudgetReason(int size) =>
        $"{size} more bytes would take the buffers held by all processors past {SharedScratch.MaxHeldBytes / (1024 * 1024)} MiB";

    /// <summary>A finished stream gives its buffer back, so only live processors count against the budget.</summary>
    private void ReleaseBuffer()
    {
        _scratch.TryHold(-_data.Length);
        ReturnData();
        _data = Array.Empty<byte>();
    }

    private void ReturnData()
    {
        if (_data.Length > 0) ArrayPool<byte>.Shared.Return(_data);
    }
}

/// <summary>
/// What the streams of one pass share: a scratch array for compressed input (they load one at a time), and
/// the budget for the buffers they hold at once. Each processor keeps one decompressed buffer, so a hostile
/// file naming thousands of processors, each with a compressed buffer claiming megabytes, could otherwise
/// demand gigabytes; real traces stay far below the budget (64 processors × 1 MiB buffers = 64 MiB).
/// </summary>
internal sealed class SharedScratch
{
    public const long MaxHeldBytes = 512L * 1024 * 1024;

    private byte[] _buffer = Array.Empty<byte>();
    private long _held;

    public Span<byte> Get(int size)
    {
        if (_buffer.Length < size) _buffer = new byte[size];
        return _buffer.AsSpan(0, size);
    }

    /// <summary>Accounts for <paramref name="bytes"/> more (or, when negative, fewer) bytes held; false when over budget.</summary>
    public bool TryHold(long bytes)
    {
        if (bytes > 0 && _held + bytes > MaxHeldBytes) return false;
        _held += bytes;
        return true;
    }
}
