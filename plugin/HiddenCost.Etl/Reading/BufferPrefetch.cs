using System.Runtime.ExceptionServices;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// One buffer load started ahead of need on a thread-pool thread, so reading and decompressing the next buffer
/// overlaps decoding the current one. Whoever gets to it first runs it: when the stream needs the buffer before
/// a pool thread has picked it up, the stream loads it itself, so a busy or starved pool (inside WPA, say) can
/// slow nothing down and no one ever waits for a queue.
/// </summary>
internal sealed class BufferPrefetch : IThreadPoolWorkItem
{
    private const int Waiting = 0, Running = 1, Done = 2;

    private readonly BufferLoader _loader;
    private readonly long _offset;
    private readonly object _gate = new();
    private int _state;
    private LoadedBuffer _result;
    private ExceptionDispatchInfo? _failure;

    private BufferPrefetch(BufferLoader loader, long offset)
    {
        _loader = loader;
        _offset = offset;
    }

    public static BufferPrefetch Start(BufferLoader loader, long offset)
    {
        var prefetch = new BufferPrefetch(loader, offset);
        ThreadPool.UnsafeQueueUserWorkItem(prefetch, preferLocal: false);
        return prefetch;
    }

    void IThreadPoolWorkItem.Execute()
    {
        if (Interlocked.CompareExchange(ref _state, Running, Waiting) == Waiting) Run();
    }

    /// <summary>The loaded buffer, loading it on this thread if no pool thread has started it yet.</summary>
    public LoadedBuffer Take()
    {
        if (Interlocked.CompareExchange(ref _state, Running, Waiting) == Waiting) Run();
        else if (Volatile.Read(ref _state) != Done)
        {
            // A load takes microseconds to a millisecond: spin briefly before sleeping, as waking a blocked
            // thread costs about as much as the wait itself.
            var spin = new SpinWait();
            while (Volatile.Read(ref _state) != Done && !spin.NextSpinWillYield) spin.SpinOnce(sleep1Threshold: -1);
            lock (_gate)
                while (_state != Done) Monitor.Wait(_gate);
        }
        _failure?.Throw();
        return _result;
    }

    /// <summary>
    /// For a stream abandoned before it took the buffer: gives the array back once the load is over, so an early
    /// stop leaks no budget. A load that failed has nothing to give back, and no one left to tell.
    /// </summary>
    public void Abandon()
    {
        if (Interlocked.CompareExchange(ref _state, Done, Waiting) == Waiting) return; // never started: nothing to give back
        lock (_gate)
            while (_state != Done) Monitor.Wait(_gate);
        if (_failure is null && _result.Data is not null) _loader.Return(_result.Data, ahead: true);
    }

    private void Run()
    {
        try
        {
            _result = _loader.Load(_offset, ahead: true);
        }
        catch (Exception e)
        {
            // Reading the file failed (I/O error, disposed reader): surfaces on the stream's thread, as it would
            // have without the prefetch.
            _failure = ExceptionDispatchInfo.Capture(e);
        }
        lock (_gate)
        {
            Volatile.Write(ref _state, Done);
            Monitor.PulseAll(_gate);
        }
    }
}
