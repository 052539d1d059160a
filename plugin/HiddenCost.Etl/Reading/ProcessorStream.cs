using System.Buffers.Binary;
using HiddenCost.Etl.Buffers;
using HiddenCost.Etl.Records;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// One processor's events in file order: takes its buffers one at a time (decompressed XPRESS buffers included),
/// walks the 8-aligned records, and steps over damage with a health warning instead of failing. While it walks
/// one buffer, the pass's read-ahead thread (when it has one) loads the buffers needed next, so reading and
/// decompressing overlap decoding.
/// </summary>
internal sealed class ProcessorStream
{
    private const int MaxInversionWarnings = 10;

    private readonly BufferLoader _loader;
    private readonly IReadOnlyList<long> _offsets;
    private readonly TraceHealth _health;
    private readonly ReadAheadWorker? _worker;
    private readonly int _stream;
    private readonly CancellationToken _cancellation;
    private byte[] _data = Array.Empty<byte>();
    private int _nextBuffer;
    private int _end;
    private int _position;
    private int _next;
    private long _lastTimestamp = long.MinValue;

    /// <param name="worker">The pass's read-ahead thread, or null to load every buffer on the calling thread.</param>
    /// <param name="stream">This stream's number with <paramref name="worker"/>.</param>
    /// <param name="cancellation">Checked for every buffer taken: a stream of buffers that yield no event still stops.</param>
    public ProcessorStream(BufferLoader loader, int processor, IReadOnlyList<long> offsets, TraceHealth health, ReadAheadWorker? worker = null, int stream = -1,
        CancellationToken cancellation = default)
    {
        _cancellation = cancellation;
        _loader = loader;
        Processor = processor;
        _offsets = offsets;
        _health = health;
        _worker = worker;
        _stream = stream;
    }

    public int Processor { get; }

    /// <summary>Buffers this stream has taken, damaged ones included (for the pass's progress).</summary>
    public int BuffersTaken => _nextBuffer;

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
                    _health.WarnDamage(BufferOffset, $"processor {Processor}: record at buffer offset 0x{_position:X}: {error}; rest of buffer skipped");
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
        while (true)
        {
            if (_nextBuffer >= _offsets.Count)
            {
                Release();
                return false;
            }
            _cancellation.ThrowIfCancellationRequested();
            int buffer = _nextBuffer++;
            var loaded = _worker is null ? _loader.Load(_offsets[buffer]) : _worker.Take(_stream, buffer);
            if (Take(loaded)) return true;
        }
    }

    /// <summary>Makes a loaded buffer current and records in the trace's health what loading it found.</summary>
    private bool Take(in LoadedBuffer loaded)
    {
        BufferOffset = loaded.Offset;
        _end = 0;
        if (loaded.Counted)
        {
            _health.Buffers++;
            if ((loaded.Flags & BufferFlags.EventsLost) != 0) _health.BuffersWithEventsLost++;
            if ((loaded.Flags & BufferFlags.BufferLost) != 0) _health.BuffersFlaggedLost++;
            if (loaded.Compressed) _health.CompressedBuffers++;
        }
        if (loaded.Damage is not null)
        {
            _health.DamagedBuffers++;
            _health.WarnDamage(loaded.Offset, $"processor {Processor}: {loaded.Damage}; buffer skipped");
            return false;
        }
        ReturnData();
        _data = loaded.Data!;
        _end = loaded.End;
        _next = BufferHeader.Size;
        return true;
    }

    /// <summary>
    /// Gives back the buffer held (at the end of the stream, or when the pass is abandoned), so only live
    /// processors count against the memory budget. Buffers loaded ahead go back when the worker is disposed.
    /// </summary>
    public void Release()
    {
        _end = 0;
        ReturnData();
    }

    private void ReturnData()
    {
        if (_data.Length > 0) _loader.Return(_data);
        _data = Array.Empty<byte>();
    }
}
