using HiddenCost.Etl.Header;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// The k-way merge over processor streams. Ties on timestamp go to the lower processor number, then file
/// order, so the output order is stable and reproducible.
/// </summary>
internal sealed class Merger
{
    private readonly PriorityQueue<ProcessorStream, (long Timestamp, int Processor)> _queue = new();
    private readonly ThreadContext _threads = new();
    private readonly ClockConverter _clock;
    private ProcessorStream? _current;

    public Merger(ByteSource source, BufferIndex index, TraceHealth health, TraceHeader header, int decompressionLimit)
    {
        _clock = new ClockConverter(header.StartTimestamp, header.TicksPerSecond);
        var scratch = new SharedScratch();
        foreach (var (cpu, offsets) in index.ByProcessor)
        {
            var stream = new ProcessorStream(source, cpu, offsets, health, scratch, decompressionLimit);
            if (stream.MoveNext()) _queue.Enqueue(stream, (stream.Current.Timestamp, cpu));
        }
    }

    public bool MoveNext()
    {
        if (_current is not null)
        {
            var done = _current;
            _threads.Observe(done.Current, done.CurrentRecord[done.Current.PayloadOffset..done.Current.Size], done.Processor);
            if (done.MoveNext()) _queue.Enqueue(done, (done.Current.Timestamp, done.Processor));
            _current = null;
        }
        return _queue.TryDequeue(out _current, out _);
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
            return new EtwEvent(h, s.CurrentRecord, _clock.ToNanoseconds(h.Timestamp), s.Processor, tid, pid, s.BufferOffset);
        }
    }
}
