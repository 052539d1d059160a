using System.Runtime.ExceptionServices;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// Runs a pass's merge on a thread of its own, ahead of the pass's readers, and hands them its events in batches
/// (<see cref="EventBatch"/>): what the readers do with each event (the analyses) then overlaps the merge (record
/// headers, the k-way merge, thread context), as the read-ahead thread's decompression already does. Every reader
/// (<see cref="Reader"/>, one per lane of <see cref="EtlReader.Dispatch"/>) gets every event, in order: exactly the
/// events, order and health of the merge on one thread.
/// <para>
/// Records are not copied: a batch refers to them in their buffers, and a buffer a stream has finished goes back
/// to the pool only after every reader has read the batch being filled when it was finished (no later batch can
/// hold one of its events). At most <see cref="BatchesInFlight"/> batches exist, so the merge runs at most that far
/// ahead of the slowest reader and memory stays bounded. Threads wait without spinning.
/// </para>
/// </summary>
internal sealed class MergePipeline : IDisposable
{
    /// <summary>Enough for readers of uneven speed to rarely wait on each other; each holds about half a megabyte.</summary>
    private const int BatchesInFlight = 6;

    private readonly Merger _merger;
    private readonly BufferRetirement _retirement;
    private readonly List<EventBatch> _filled = new(); // oldest first
    private readonly Stack<EventBatch> _free = new();
    private readonly object _gate = new();
    private readonly Thread _thread;
    private readonly CancellationToken _cancellation;
    private long _published;
    private bool _stopping;

    /// <param name="cancellation">
    /// Checked by the merge for every buffer, as on one thread, and by each reader for every event: a cancelled pass
    /// stops where its readers are, not where the merge ahead of them is.
    /// </param>
    public MergePipeline(Merger merger, BufferRetirement retirement, int readers = 1, CancellationToken cancellation = default)
    {
        _merger = merger;
        _cancellation = cancellation;
        _retirement = retirement;
        for (int i = 0; i < BatchesInFlight; i++) _free.Push(new EventBatch());
        Readers = Enumerable.Range(0, readers).Select(_ => new Reader(this)).ToArray();
        _thread = new Thread(Produce) { IsBackground = true, Name = "hc-merge" };
        _thread.Start();
    }

    public IReadOnlyList<Reader> Readers { get; }

    /// <summary>Wakes every waiting reader and the merging thread, which then stop: a reader that failed ends the pass for all.</summary>
    public void Stop()
    {
        lock (_gate)
        {
            _stopping = true;
            Monitor.PulseAll(_gate);
        }
    }

    /// <summary>Stops the merging thread and gives back every buffer the batches hold; the merger is the caller's to dispose.</summary>
    public void Dispose()
    {
        Stop();
        _thread.Join();
        _retirement.Into = null; // from here on the streams give their buffers back at once
        foreach (var batch in _filled) _retirement.GiveBack(batch.Retired);
        foreach (var batch in _free) _retirement.GiveBack(batch.Retired);
        _filled.Clear();
    }

    /// <summary>One reader's place in the pass; used by one thread.</summary>
    public sealed class Reader(MergePipeline pipeline)
    {
        private EventBatch? _reading;
        private long _next;
        private int _index;

        /// <summary>The share of the file's buffers merged as far as the batch being read (kept once the pass is over).</summary>
        public double FractionRead { get; private set; }

        /// <exception cref="PipelineStoppedException">Another reader stopped the pass.</exception>
        public bool MoveNext()
        {
            pipeline._cancellation.ThrowIfCancellationRequested();
            var batch = _reading;
            if (batch is not null && ++_index < batch.Count) return true;
            while (true)
            {
                if (batch is not null)
                {
                    // Read before the batch is handed back: from then on the merging thread may fill it again.
                    bool last = batch.Last;
                    var failure = batch.Failure;
                    pipeline.Done(batch);
                    if (last)
                    {
                        // The pass is over for this reader: once every reader is, the last buffers go back.
                        _reading = null;
                        _next = long.MaxValue;
                        if (failure is not null) ExceptionDispatchInfo.Capture(failure).Throw(); // once; then no more events
                        return false;
                    }
                }
                if (Finished) return false;
                _reading = batch = pipeline.Take(_next++);
                _index = 0;
                FractionRead = batch.FractionRead;
                if (batch.Count > 0) return true;
            }
        }

        public EtwEvent Current => MergedEvent.View(ref _reading!.Events[_index]);

        /// <summary>Whether this reader has read every batch of the pass.</summary>
        private bool Finished => _next == long.MaxValue;
    }

    private void Produce()
    {
        EventBatch? batch = null;
        try
        {
            batch = TakeFree();
            while (batch is not null)
            {
                _retirement.Into = batch.Retired;
                while (!batch.IsFull && _merger.MoveNext()) _merger.CopyCurrent(ref batch.Events[batch.Count++]);
                batch.Last = !batch.IsFull;
                batch.FractionRead = _merger.FractionRead;
                Publish(batch);
                batch = batch.Last ? null : TakeFree();
            }
        }
        catch (Exception e)
        {
            // Handed to the readers after the events merged before it, as the merge on their thread would throw it.
            if (batch is null) return;
            batch.Last = true;
            batch.Failure = e;
            batch.FractionRead = _merger.FractionRead;
            Publish(batch);
        }
    }

    /// <summary>A batch to fill; null once the pass is stopping.</summary>
    private EventBatch? TakeFree()
    {
        lock (_gate)
        {
            while (_free.Count == 0 && !_stopping) Monitor.Wait(_gate);
            if (_stopping) return null;
            var batch = _free.Pop();
            batch.Reset();
            return batch;
        }
    }

    private void Publish(EventBatch batch)
    {
        lock (_gate)
        {
            batch.Sequence = _published++;
            batch.ReadersLeft = Readers.Count;
            _filled.Add(batch);
            Monitor.PulseAll(_gate);
        }
    }

    private EventBatch Take(long sequence)
    {
        lock (_gate)
        {
            while (!_stopping && _published <= sequence) Monitor.Wait(_gate);
            if (_stopping) throw new PipelineStoppedException();
            foreach (var batch in _filled)
                if (batch.Sequence == sequence) return batch;
            throw new InvalidOperationException($"batch {sequence} is not in flight"); // a reader read a batch twice: a bug here
        }
    }

    /// <summary>A reader is done with a batch: when it was the last, the batch's retired buffers go back and it can be filled again.</summary>
    private void Done(EventBatch batch)
    {
        lock (_gate)
        {
            if (--batch.ReadersLeft > 0) return;
            _filled.Remove(batch);
            _retirement.GiveBack(batch.Retired);
            _free.Push(batch);
            Monitor.PulseAll(_gate);
        }
    }
}

/// <summary>Thrown to a reader of a pass another reader stopped (its own failure is what the pass reports).</summary>
internal sealed class PipelineStoppedException() : Exception("the pass was stopped by another of its readers");
