using System.Buffers.Binary;
using HiddenCost.Etl.Buffers;
using HiddenCost.Etl.Records;
using Microsoft.Win32.SafeHandles;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// One processor's events in file order: loads its buffers one at a time (decompressing XPRESS buffers),
/// walks the 8-aligned records, and steps over damage with a health warning instead of failing.
/// </summary>
internal sealed class ProcessorStream
{
    private readonly SafeFileHandle _file;
    private readonly IReadOnlyList<long> _offsets;
    private readonly TraceHealth _health;
    private readonly SharedScratch _scratch;
    private byte[] _data = Array.Empty<byte>();
    private int _nextBuffer;
    private int _end;
    private int _position;
    private int _next;
    private long _lastTimestamp = long.MinValue;

    public ProcessorStream(SafeFileHandle file, int processor, IReadOnlyList<long> offsets, TraceHealth health, SharedScratch scratch)
    {
        _file = file;
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
                if (Current.Timestamp < _lastTimestamp) _health.TimeInversions++;
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
        return false;
    }

    /// <summary>Loads one buffer into memory; false (with a warning) when it cannot be used.</summary>
    internal bool Load(long offset)
    {
        BufferOffset = offset;
        _end = 0;
        Span<byte> raw = stackalloc byte[BufferHeader.Size];
        RandomAccess.Read(_file, raw, offset);
        var h = BufferHeader.Parse(raw);
        _health.Buffers++;
        if ((h.Flags & BufferFlags.EventsLost) != 0) _health.BuffersWithEventsLost++;
        if ((h.Flags & BufferFlags.BufferLost) != 0) _health.BuffersFlaggedLost++;

        uint saved = h.SavedOffset;
        if (h.IsCompressed)
        {
            _health.CompressedBuffers++;
            if (saved < BufferHeader.Size || saved > BufferHeader.MaxBufferSize)
                return Damaged(offset, $"compressed buffer declares {saved} bytes of data");
            EnsureCapacity((int)saved);
            raw.CopyTo(_data);
            int compressedLength = (int)h.BufferSize - BufferHeader.Size;
            var input = _scratch.Get(compressedLength);
            RandomAccess.Read(_file, input, offset + BufferHeader.Size);
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
            EnsureCapacity((int)saved);
            RandomAccess.Read(_file, _data.AsSpan(0, (int)saved), offset);
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

    private void EnsureCapacity(int size)
    {
        if (_data.Length < size) _data = new byte[Math.Max(size, 64 * 1024)];
    }
}

/// <summary>One scratch array for compressed input, shared by all streams of a reader (they load one at a time).</summary>
internal sealed class SharedScratch
{
    private byte[] _buffer = Array.Empty<byte>();

    public Span<byte> Get(int size)
    {
        if (_buffer.Length < size) _buffer = new byte[size];
        return _buffer.AsSpan(0, size);
    }
}
