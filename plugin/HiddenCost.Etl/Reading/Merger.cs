using HiddenCost.Etl.Header;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// The k-way merge over processor streams. Ties on timestamp go to the lower processor number, then file
/// order, so the output order is stable and reproducible.
/// </summary>
internal sealed class Merger : IDisposable
{
    private readonly LoserTree _order;
    private readonly List<ProcessorStream> _streams = new();
    private readonly ReadAheadWorker? _worker;
    private readonly ThreadContext _threads = new();
    private readonly ClockConverter _clock;
    private readonly BufferLoader _loader;
    private readonly int _bufferCount;
    private ProcessorStream? _current;

    /// <param name="readAhead">Whether to load buffers ahead of need on a thread of the merger's own.</param>
    /// <param name="cancellation">Checked by every stream for every buffer it takes.</param>
    /// <param name="retirement">Where streams put finished buffers when the merge runs ahead of its reader (<see cref="MergePipeline"/>).</param>
    public Merger(BufferLoader loader, bool readAhead, BufferIndex index, TraceHealth health, TraceHeader header, TimeWindow window,
        CancellationToken cancellation = default, BufferRetirement? retirement = null)
    {
        _clock = new ClockConverter(header.StartTimestamp, header.TicksPerSecond);
        _loader = loader;
        _bufferCount = index.Streams.Sum(s => s.Count);
        _order = new LoserTree(index.Streams.Count);
        if (readAhead && index.Streams.Count > 0)
            _worker = new ReadAheadWorker(loader, index.Streams, ReadAheadWorker.MergeOrder(index), header.BufferSize);
        try
        {
            for (int s = 0; s < index.Streams.Count; s++)
            {
                int cpu = index.Processors[s];
                var stream = new ProcessorStream(loader, cpu, index.Streams[s], health, _worker, s, cancellation, window, retirement);
                _streams.Add(stream);
                if (stream.MoveNext()) _order.Start(s, stream.Current.Timestamp, cpu);
            }
            _order.Build();
        }
        catch
        {
            Dispose(); // the file could not be read: stop the read-ahead thread and give its buffers back
            throw;
        }
    }

    /// <summary>
    /// The share of the file's buffers the streams have taken: it only grows, and tracks the work done, where the
    /// current event's place in the file does neither (a processor that logs little flushes its first buffer late,
    /// near the file's end, while its events are early).
    /// </summary>
    public double FractionRead
    {
        get
        {
            if (_bufferCount == 0) return 1.0;
            long taken = 0;
            foreach (var stream in _streams) taken += stream.BuffersTaken;
            return (double)taken / _bufferCount;
        }
    }

    /// <summary>Bytes the pass's buffers hold now (0 once it has given every one back).</summary>
    internal long BytesHeld => _loader.BytesHeld;

    public bool MoveNext()
    {
        var current = _current;
        if (current is not null)
        {
            // Only thread events teach the context: the group is checked here, so no other record is sliced for it.
            ref readonly var h = ref current.Current;
            if (h.Group == KernelGroups.Thread) _threads.Observe(h, current.CurrentRecord, current.Processor);
            if (current.MoveNext()) _order.Replace(current.Current.Timestamp);
            else _order.Remove();
        }
        _current = _order.HasWinner ? _streams[_order.Winner] : null;
        return _current is not null;
    }

    /// <summary>
    /// Gives back the buffers of a pass stopped early: those loaded ahead (the worker) and those held (a finished
    /// stream has already given back its own).
    /// </summary>
    public void Dispose()
    {
        _worker?.Dispose();
        foreach (var stream in _streams) stream.Release();
        _order.Clear();
        _current = null;
    }

    public EtwEvent Current
    {
        get
        {
            var s = _current!;
            ref readonly var h = ref s.Current;
            var (tid, pid) = Context(s, in h);
            return new EtwEvent(in h, s.CurrentRecord, _clock.ToNanoseconds(h.Timestamp), s.Processor, tid, pid, s.BufferOffset);
        }
    }

    /// <summary>Copies the current event into a batch slot: the same fields <see cref="Current"/> gives, the record left in its buffer.</summary>
    public void CopyCurrent(ref MergedEvent slot)
    {
        var s = _current!;
        ref readonly var h = ref s.Current;
        var (tid, pid) = Context(s, in h);
        slot = new MergedEvent(h, s.CurrentBuffer, s.CurrentPosition, _clock.ToNanoseconds(h.Timestamp), s.Processor, tid, pid, s.BufferOffset);
    }

    /// <summary>The event's thread and process: a PerfInfo record's are the thread running on its processor.</summary>
    private (int ThreadId, int ProcessId) Context(ProcessorStream s, ref readonly Records.RecordHeader h) =>
        h.Kind == Records.RecordHeaderKind.PerfInfo
            ? (_threads.RunningThread(s.Processor), _threads.RunningProcess(s.Processor))
            : (h.ThreadId, h.ProcessId);
}
