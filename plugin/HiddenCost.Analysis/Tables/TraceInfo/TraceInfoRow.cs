namespace HiddenCost.Analysis.Tables.TraceInfo;

/// <summary>
/// One row of Trace Info: the trace as its header and the reader saw it. Its members are the columns of <see
/// cref="TraceInfoAnalysis"/>, in order; rows are built with named arguments, so no two figures can swap places unseen.
/// </summary>
public sealed record TraceInfoRow(
    string OsVersion, long OsBuild, long Processors, long PointerSize, string ClockType, long CpuSpeedMHz, string TraceStartUtc,
    long Start, long End, long Duration, long Events, long Buffers, long CompressedBuffers, long EventsLost, long BuffersLost,
    long BuffersFlaggedEventsLost, long ReaderWarnings, string FileMode, string SessionName, long FileSizeBytes);
