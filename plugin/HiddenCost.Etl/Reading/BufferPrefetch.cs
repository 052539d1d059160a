using System.Runtime.ExceptionServices;

namespace HiddenCost.Etl.Reading;

/// <summary>
/// One buffer load claimed by the pass's <see cref="ReadAheadWorker"/>, which runs it while the stream decodes the
/// buffers before it. Should the stream need the buffer before the load has started, the stream runs it itself.
/// </summary>
internal sealed class BufferPrefetch
{
    private const int Waiting = 0, Running = 1, Done = 2;

    private readonly BufferLoader _loader;
    private readonly long _offset;
    private readonly object _gate = new();
    private int _state;
    private LoadedBuffer _result;
    private ExceptionDispatchInfo? _failure;

    public BufferPrefetch(BufferLoader loader, long offset)
    {
        _loader = loader;
        _offset = offset;
    }

    /// <summary>Whether the load is under way on another thread (taking it now would wait).</summary>
    public bool IsRunning => Volatile.Read(ref _state) == Running;

    /// <summary>Runs the load on this thread (the worker's, or a stream's that helps), unless it has been started already.</summary>
    /// <param name="onWorker">This is the read-ahead thread (see <see cref="BufferLoader.Load"/>).</param>
    public void Execute(bool onWorker)
    {
        if (Interlocked.CompareExchange(ref _state, Running, Waiting) == Waiting) Run(onWorker);
    }

    /// <summary>The loaded buffer, loading it on this thread if the worker has not started it yet.</summary>
    public LoadedBuffer Take()
    {
        if (Interlocked.CompareExchange(ref _state, Running, Waiting) == Waiting) Run(onWorker: false);
        else
        {
            // No spinning: a load takes tens of microseconds to a millisecond, longer than spinning pays for, and
            // a reader that burnt CPU while it waited would be a poor tool for finding spin-waits.
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

    private void Run(bool onWorker)
    {
        try
        {
            _result = _loader.Load(_offset, ahead: true, onWorker);
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
