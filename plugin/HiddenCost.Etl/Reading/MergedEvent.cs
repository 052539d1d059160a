using HiddenCost.Etl.Records;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// One event merged ahead of its reader: what <see cref="EtwEvent"/> is made of, with the record left in the buffer
/// that holds it (the buffer is kept until the batch has been read, so nothing is copied but the header).
/// </summary>
internal readonly struct MergedEvent(RecordHeader header, byte[] buffer, int position, long timeNs, int cpu, int threadId, int processId, long fileOffset)
{
    public readonly RecordHeader Header = header;
    private readonly byte[] _buffer = buffer;
    private readonly int _position = position;
    private readonly long _timeNs = timeNs;
    private readonly int _cpu = cpu;
    private readonly int _threadId = threadId;
    private readonly int _processId = processId;
    private readonly long _fileOffset = fileOffset;

    /// <summary>The event, valid while the batch holding this slot is being read.</summary>
    public static EtwEvent View(ref readonly MergedEvent slot) =>
        new(in slot.Header, slot._buffer.AsSpan(slot._position, slot.Header.Size), slot._timeNs, slot._cpu, slot._threadId, slot._processId, slot._fileOffset);
}
