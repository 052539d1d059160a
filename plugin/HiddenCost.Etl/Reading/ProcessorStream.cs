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
/// <param name="worker">The pass's read-ahead thread, or null to load every buffer on the calling thread.</param>
/// <param name="stream">This stream's number with <paramref name="worker"/>.</param>
/// <param name="cancellation">Checked for every buffer taken: a stream of buffers that yield no event still stops.</param>
/// <param name="window">The timestamps a recorder can have written (default: every one); others are left out as damage.</param>
/// <param name="retirement">Where finished buffers go when the pass merges ahead of its reader; null: back to the loader at once.</param>
internal sealed class ProcessorStream(BufferLoader loader, int processor, IReadOnlyList<long> offsets, TraceHealth health, ReadAheadWorker? worker = null,
    int stream = -1, CancellationToken cancellation = default, TimeWindow? window = null, BufferRetirement? retirement = null)
{
    private const int MaxInversionWarnings = 10;
    private const int MaxOutOfTimeWarnings = 10;

    private readonly TimeWindow _window = window ?? TimeWindow.All;
    private byte[] _data = Array.Empty<byte>();
    private int _nextBuffer;
    private int _end;
    private int _position;
    private int _next;
    private int _filledEnd; // where the buffer header says its records end (0: it does not say)
    private long _lastTimestamp = long.MinValue;

    public int Processor { get; } = processor;

    /// <summary>Buffers this stream has taken, damaged ones included (for the pass's progress).</summary>
    public int BuffersTaken => _nextBuffer;

    /// <summary>The current record's header (valid after <see cref="MoveNext"/> returned true).</summary>
    public RecordHeader Current;

    public long BufferOffset { get; private set; }

    public ReadOnlySpan<byte> CurrentRecord => _data.AsSpan(_position, Current.Size);

    /// <summary>The buffer holding the current record, and where in it the record starts (for batches merged ahead).</summary>
    public byte[] CurrentBuffer => _data;

    public int CurrentPosition => _position;

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
                    health.DamagedBuffers++;
                    health.WarnDamage(BufferOffset, $"processor {Processor}: record at buffer offset 0x{_position:X}: {error}; rest of buffer skipped");
                    _end = 0;
                    continue;
                }
                _next = _position + ((Current.Size + 7) & ~7);
                if (Current.Kind == RecordHeaderKind.TraceMessage)
                {
                    health.TraceMessagesSkipped++;
                    continue;
                }
                if (!_window.Contains(Current.Timestamp))
                {
                    LeaveOutOfTime();
                    continue;
                }
                if (Current.Timestamp < _lastTimestamp)
                {
                    // The file itself is out of order here; the merge keeps each processor's file order, so the
                    // inversion shows in the output too. Counted always, described for the first few.
                    if (++health.TimeInversions <= MaxInversionWarnings)
                        health.Warn(BufferOffset, $"processor {Processor}: record at buffer offset 0x{_position:X} is {_lastTimestamp - Current.Timestamp} ticks earlier than the one before it");
                }
                _lastTimestamp = Current.Timestamp;
                return true;
            }
            if (_next + 4 <= _end && _next < _filledEnd) RecordsStopEarly();
            if (!LoadNextBuffer()) return false;
        }
    }

    /// <summary>
    /// An end-of-records marker before the offset the buffer header says its records fill: ETW pads a buffer only
    /// after its last record, so the records between were overwritten. Damage, as a cut buffer is.
    /// </summary>
    private void RecordsStopEarly()
    {
        health.DamagedBuffers++;
        health.WarnDamage(BufferOffset, $"processor {Processor}: records stop at buffer offset 0x{_next:X} (an end-of-records marker), " +
            $"but the buffer header says they fill it to 0x{_filledEnd:X}; rest of buffer lost");
        _end = 0;
    }

    private void LeaveOutOfTime()
    {
        long n = ++health.EventsOutOfTime;
        if (n == 1)
            health.WarnDamage(BufferOffset, $"processor {Processor}: record at buffer offset 0x{_position:X} is stamped {_window.SecondsFromStart(Current.Timestamp)} " +
                "from the trace's start, far outside the trace header's start and end times (no recorder writes that): events so stamped are left out");
        else if (n <= MaxOutOfTimeWarnings)
            health.Warn(BufferOffset, $"processor {Processor}: record at buffer offset 0x{_position:X} is stamped {_window.SecondsFromStart(Current.Timestamp)} " +
                "from the trace's start: left out");
    }

    private bool LoadNextBuffer()
    {
        while (true)
        {
            if (_nextBuffer >= offsets.Count)
            {
                Release();
                return false;
            }
            cancellation.ThrowIfCancellationRequested();
            int buffer = _nextBuffer++;
            var loaded = worker is null ? loader.Load(offsets[buffer]) : worker.Take(stream, buffer);
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
            health.Buffers++;
            if ((loaded.Flags & BufferFlags.EventsLost) != 0) health.BuffersWithEventsLost++;
            if ((loaded.Flags & BufferFlags.BufferLost) != 0) health.BuffersFlaggedLost++;
            if (loaded.Compressed) health.CompressedBuffers++;
        }
        if (loaded.Damage is not null)
        {
            health.DamagedBuffers++;
            health.WarnDamage(loaded.Offset, $"processor {Processor}: {loaded.Damage}; buffer skipped");
            return false;
        }
        ReturnData();
        _data = loaded.Data!;
        _end = loaded.End;
        _next = BufferHeader.Size;
        _filledEnd = FilledEnd(_data, _end);
        return true;
    }

    /// <summary>
    /// Where the buffer header says the records end: its saved offset, when that is where the walk ends (the loader
    /// ends it there when it is possible); else its filled offset (a relogged trace's first buffer may have a saved
    /// offset of 0); else 0, not said. Within the data only, so a damaged field cannot claim records beyond it.
    /// </summary>
    private static int FilledEnd(byte[] data, int end)
    {
        uint saved = BinaryPrimitives.ReadUInt32LittleEndian(data.AsSpan(0x04));
        if (saved == (uint)end) return end;
        uint filled = BinaryPrimitives.ReadUInt32LittleEndian(data.AsSpan(0x30));
        return filled > BufferHeader.Size && filled <= (uint)end ? (int)filled : 0;
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
        if (_data.Length > 0)
        {
            if (retirement is null) loader.Return(_data);
            else retirement.Retire(_data);
        }
        _data = Array.Empty<byte>();
    }
}
