using HiddenCost.Etl.Buffers;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// A header-only pass over the file: the offset of every buffer, grouped by processor. Each processor's
/// buffers are in time order in the file, so one cursor per processor plus a k-way merge gives a globally
/// ordered stream while holding just one buffer per processor in memory.
/// </summary>
internal sealed class BufferIndex
{
    private readonly List<int> _processorInFileOrder = new();

    /// <summary>The processors that have buffers, in ascending order: stream <c>s</c> is processor <c>Processors[s]</c>.</summary>
    public IReadOnlyList<int> Processors { get; private set; } = Array.Empty<int>();

    /// <summary>Each stream's buffer offsets in file order, streams numbered as in <see cref="Processors"/>.</summary>
    public IReadOnlyList<IReadOnlyList<long>> Streams { get; private set; } = Array.Empty<IReadOnlyList<long>>();

    /// <summary>The processor of each buffer, in file order (the order ETW flushed them).</summary>
    public IReadOnlyList<int> ProcessorInFileOrder => _processorInFileOrder;

    /// <summary>
    /// The most buffers indexed. The index costs memory per buffer, and a hostile file of header-only 72-byte buffers
    /// would need a third of its size; a real trace reaches this many buffers at hundreds of gigabytes (64 KiB buffers:
    /// 512 GiB; XPRESS ones average 10–20 KB). Past it, the rest of the file is left unread, as damage.
    /// </summary>
    public const int DefaultMaxBuffers = 1 << 23;

    /// <param name="sessionBufferSize">
    /// The trace header's buffer size (0 before it is known). Uncompressed buffers after the first all have
    /// this size, so when one buffer's size field is corrupt the next buffer is still found there.
    /// </param>
    /// <param name="cancellation">Checked for every buffer: on a cold cache this pass reads the whole file's headers.</param>
    /// <param name="maxBuffers">The most buffers indexed (<see cref="DefaultMaxBuffers"/>; tests lower it).</param>
    public static BufferIndex Build(ByteSource source, TraceHealth health, uint sessionBufferSize = 0, CancellationToken cancellation = default,
        int maxBuffers = DefaultMaxBuffers)
    {
        var index = new BufferIndex();
        var byProcessor = new SortedDictionary<int, List<long>>();
        long length = source.Length;
        Span<byte> raw = stackalloc byte[BufferHeader.Size];
        long offset = 0;
        while (offset < length)
        {
            cancellation.ThrowIfCancellationRequested();
            if (length - offset < BufferHeader.Size || source.Read(raw, offset) < BufferHeader.Size)
            {
                health.Truncated = true;
                health.WarnDamage(offset, $"file ends {length - offset} bytes into a buffer header");
                break;
            }
            var h = BufferHeader.Parse(raw);
            if (h.BufferSize < BufferHeader.Size || h.BufferSize > BufferHeader.MaxBufferSize)
            {
                health.DamagedBuffers++;
                if (offset > 0 && LooksLikeBufferAt(source, offset + sessionBufferSize, sessionBufferSize))
                {
                    health.WarnDamage(offset, $"buffer size {h.BufferSize} is impossible; buffer skipped, reading on at the next {sessionBufferSize}-byte boundary");
                    offset += sessionBufferSize;
                    continue;
                }
                health.WarnDamage(offset, $"buffer size {h.BufferSize} is impossible; the rest of the file is not read");
                break;
            }
            if (offset + h.BufferSize > length)
            {
                health.Truncated = true;
                health.WarnDamage(offset, $"file ends inside a {h.BufferSize}-byte buffer ({length - offset} bytes present)");
                break;
            }
            if (index._processorInFileOrder.Count >= maxBuffers)
            {
                health.DamagedBuffers++;
                health.WarnDamage(offset, $"the file holds more than {maxBuffers:N0} buffers, the most this reader indexes (a trace of 64 KiB buffers reaches that at 512 GiB); the rest of the file is not read");
                break;
            }
            if (!byProcessor.TryGetValue(h.Processor, out var list))
                byProcessor[h.Processor] = list = new List<long>();
            list.Add(offset);
            index._processorInFileOrder.Add(h.Processor);
            offset += h.BufferSize;
        }
        index.Processors = byProcessor.Keys.ToArray();
        index.Streams = byProcessor.Values.ToArray();
        return index;
    }

    /// <summary>
    /// Warns of buffers from processors the trace header does not count (a processor index at or past its
    /// NumberOfProcessors): ETW numbers processors from 0 to that count less one, so such a buffer's header is
    /// damaged or the file was put together from more than one trace. Their events are still read, as those
    /// processors'. One warning for them all (at the first such buffer), so that they cannot crowd other
    /// warnings out of the health's bounded list.
    /// </summary>
    public void WarnOfUncountedProcessors(uint numberOfProcessors, TraceHealth health)
    {
        if (numberOfProcessors == 0) return; // a header that does not say
        int processors = 0, buffers = 0, first = -1;
        long firstOffset = long.MaxValue;
        for (int i = 0; i < Processors.Count; i++)
        {
            if ((uint)Processors[i] < numberOfProcessors) continue;
            processors++;
            buffers += Streams[i].Count;
            if (Streams[i][0] < firstOffset) (firstOffset, first) = (Streams[i][0], Processors[i]);
        }
        if (processors == 0) return;
        health.Warn(firstOffset, $"{buffers} buffer{(buffers == 1 ? "" : "s")} from {(processors == 1 ? $"processor {first}" : $"{processors} processors (the first here: {first})")}, " +
            $"but the trace header counts {numberOfProcessors} processors: a damaged buffer header or buffers from another trace; their events are read as those processors'");
    }

    /// <summary>
    /// A file cut exactly at a buffer boundary reads like a shorter trace; the trace header's count of buffers
    /// written tells it apart (it matches every sample and synthetic trace, merged and sequential). Damage, as a cut
    /// inside a buffer is; not said again when the walk already stopped at damage. Not for circular files
    /// (EVENT_TRACE_FILE_MODE_CIRCULAR): once one wraps, it holds fewer buffers than were written into it.
    /// </summary>
    public void WarnIfFewerThanWritten(uint buffersWritten, uint logFileMode, long fileLength, TraceHealth health)
    {
        const uint CircularFileMode = 0x2;
        if ((logFileMode & CircularFileMode) != 0) return;
        int buffers = _processorInFileOrder.Count; // one entry a buffer
        if (health.IsDamaged || buffersWritten <= buffers) return;
        health.Truncated = true;
        health.WarnDamage(fileLength, $"the trace header says {buffersWritten} buffers were written, the file holds {buffers}: it ends early, at a buffer boundary");
    }

    /// <summary>
    /// More buffers than the trace header says were written: files joined together (`cat a.etl b.etl > c.etl` gives a
    /// trace whose every count is doubled, and nothing else looks wrong) or a header that was not updated when the
    /// recording stopped. Every buffer is still read; the warning says the figures may hold another trace's events.
    /// </summary>
    public void WarnIfMoreThanWritten(uint buffersWritten, TraceHealth health)
    {
        int buffers = _processorInFileOrder.Count;
        if (buffersWritten == 0 || buffers <= buffersWritten) return; // 0: a header that does not say
        health.BuffersBeyondWritten = buffers - buffersWritten;
        health.Warn(0, $"the trace header says {buffersWritten} buffers were written, the file holds {buffers}: traces joined together, " +
            "or a header not updated when the recording stopped; every buffer is read");
    }

    private static bool LooksLikeBufferAt(ByteSource source, long offset, uint sessionBufferSize)
    {
        if (sessionBufferSize < BufferHeader.Size || sessionBufferSize > BufferHeader.MaxBufferSize) return false;
        Span<byte> raw = stackalloc byte[BufferHeader.Size];
        if (offset + BufferHeader.Size > source.Length || source.Read(raw, offset) < BufferHeader.Size) return false;
        var h = BufferHeader.Parse(raw);
        return h.BufferSize == sessionBufferSize && !h.IsCompressed && h.SavedOffset <= h.BufferSize;
    }
}
