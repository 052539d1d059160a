using HiddenCost.Etl.Header;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// The k-way merge over processor streams. Ties on timestamp go to the lower processor number, then file
/// order, so the output order is stable and reproducible.
/// </summary>
internal sealed class Merger : IDisposable
{
    private readonly PriorityQueue<ProcessorStream, MergeKey> _queue = new();
    private readonly List<ProcessorStream> _streams = new();
    private readonly ReadAheadWorker? _worker;
    private readonly ThreadContext _threads = new();
    private readonly ClockConverter _clock;
    private ProcessorStream? _current;

    /// <param name="readAhead">Whether to load buffers ahead of need on a thread of the merger's own.</param>
    public Merger(BufferLoader loader, bool readAhead, BufferIndex index, TraceHealth health, TraceHeader header)
    {
        _clock = new ClockConverter(header.StartTimestamp, header.TicksPerSecond);
        if (readAhead && index.Streams.Count > 0)
            _worker = new ReadAheadWorker(loader, index.Streams, ReadAheadWorker.MergeOrder(index), header.BufferSize);
        try
        {
            for (int s = 0; s < index.Streams.Count; s++)
            {
                int cpu = index.Processors[s];
                var stream = new ProcessorStream(loader, cpu, index.Streams[s], health, _worker, s);
                _streams.Add(stream);
                if (stream.MoveNext()) _queue.Enqueue(stream, new MergeKey(stream.Current.Timestamp, cpu));
            }
        }
        catch
        {
            Dispose(); // the file could not be read: stop the read-ahead thread and give its buffers back
            throw;
        }
    }

    public bool MoveNext()
    {
        var current = _current;
        if (current is not null)
        {
            _threads.Observe(current.Current, current.CurrentRecord, current.Processor);
            if (current.MoveNext())
            {
                // Events mostly come in runs from one processor: while the current stream's next event is still
                // the earliest, it stays current and the queue is not touched.
                var key = new MergeKey(current.Current.Timestamp, current.Processor);
                if (!_queue.TryPeek(out _, out var earliest) || key.CompareTo(earliest) < 0) return true;
                _current = _queue.DequeueEnqueue(current, key);
                return true;
            }
            _current = null;
        }
        return _queue.TryDequeue(out _current, out _);
    }

    /// <summary>
    /// Gives back the buffers of a pass stopped early: those loaded ahead (the worker) and those held (a finished
    /// stream has already given back its own).
    /// </summary>
    public void Dispose()
    {
        _worker?.Dispose();
        foreach (var stream in _streams) stream.Release();
        _queue.Clear();
        _current = null;
    }

    public EtwEvent Current
    {
        get
        {
            var s = _current!;
            ref readonly var h = ref s.Current;
            int tid = h.ThreadId, pid = h.ProcessId;
            if (h.Kind == Records.RecordHeaderKind.PerfInfo)
            {
                tid = _threads.RunningThread(s.Processor);
                pid = tid >= 0 ? _threads.ProcessOf(tid) : -1;
            }
            return new EtwEvent(in h, s.CurrentRecord, _clock.ToNanoseconds(h.Timestamp), s.Processor, tid, pid, s.BufferOffset);
        }
    }
}

/// <summary>Merge order: timestamp, then processor number (each processor has one stream, so keys never tie).</summary>
internal readonly record struct MergeKey(long Timestamp, int Processor) : IComparable<MergeKey>
{
    public int CompareTo(MergeKey other) =>
        Timestamp != other.Timestamp ? Timestamp.CompareTo(other.Timestamp) : Processor.CompareTo(other.Processor);
}
