namespace HiddenCost.Etl.Reading;

/// <summary>A problem found while reading, with the byte offset where it was found.</summary>
public readonly record struct TraceWarning(long Offset, string Message)
{
    public override string ToString() => $"offset 0x{Offset:X}: {Message}";
}

/// <summary>
/// What the reader saw of the file's health: buffers read, compression, ETW's own lost-event flags, damage
/// it stepped over, and timestamp inversions inside one processor's stream. Filled in as the file is read.
/// </summary>
public sealed class TraceHealth
{
    private const int MaxWarnings = 100;
    private readonly List<TraceWarning> _warnings = new();

    public long Buffers { get; internal set; }
    public long CompressedBuffers { get; internal set; }
    /// <summary>Buffers flagged EVENTS_LOST by ETW.</summary>
    public long BuffersWithEventsLost { get; internal set; }
    /// <summary>Buffers flagged BUFFER_LOST by ETW.</summary>
    public long BuffersFlaggedLost { get; internal set; }
    /// <summary>WPP/TraceMessage records skipped by size.</summary>
    public long TraceMessagesSkipped { get; internal set; }
    /// <summary>Events whose timestamp is earlier than the previous event of the same processor stream.</summary>
    public long TimeInversions { get; internal set; }
    /// <summary>Buffers or bytes given up because they were damaged.</summary>
    public long DamagedBuffers { get; internal set; }
    /// <summary>
    /// Buffers beyond the trace header's count of buffers written (0 when the file holds no more): traces joined
    /// together, or a header not updated at the end of the recording. They are read like the others.
    /// </summary>
    public long BuffersBeyondWritten { get; internal set; }
    /// <summary>
    /// Events left out because no recorder can have stamped them so: far outside the trace header's start..end (see
    /// <see cref="TimeWindow"/>). Damage: the first is the damage warning, the first ten are described.
    /// </summary>
    public long EventsOutOfTime { get; internal set; }
    /// <summary>The trace header holds a clock rate or start time no recorder writes (see the reader's README).</summary>
    public bool HeaderDamaged { get; internal set; }
    /// <summary>The file ends inside a buffer.</summary>
    public bool Truncated { get; internal set; }
    public long WarningCount { get; private set; }

    /// <summary>The first warnings (at most 100; <see cref="WarningCount"/> has the total).</summary>
    public IReadOnlyList<TraceWarning> Warnings => _warnings;

    public bool IsClean => WarningCount == 0;

    /// <summary>
    /// The first damage found (a buffer or record given up, or the file ending early): the events read are only part of
    /// the trace. Null when the file was read whole; lost-event flags and time inversions are ETW's, not damage.
    /// </summary>
    public TraceWarning? FirstDamage { get; private set; }

    public bool IsDamaged => FirstDamage is not null;

    /// <summary>A warning about damage: part of the file could not be read.</summary>
    internal void WarnDamage(long offset, string message)
    {
        FirstDamage ??= new TraceWarning(offset, message);
        Warn(offset, message);
    }

    internal void Warn(long offset, string message)
    {
        WarningCount++;
        if (_warnings.Count < MaxWarnings) _warnings.Add(new TraceWarning(offset, message));
    }
}
