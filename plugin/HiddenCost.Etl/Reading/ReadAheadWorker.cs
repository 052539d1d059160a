namespace HiddenCost.Etl.Reading;

/// <summary>
/// The thread that runs one pass's loads ahead of need, in the order the streams asked for them. A thread of its
/// own rather than the thread pool: pool threads spin while they look for work, and that spinning cost about as
/// much CPU as the loads themselves — a reader that burnt CPU while idle would be a poor tool for finding
/// spin-waits. This one blocks without spinning, starts on the first request, and ends after a short idle time
/// or when the pass is disposed, so an abandoned pass leaves no thread behind.
/// </summary>
internal sealed class ReadAheadWorker : IDisposable
{
    private const int IdleMilliseconds = 100;

    private readonly Queue<BufferPrefetch> _queue = new();
    private readonly object _gate = new();
    private bool _running;
    private bool _disposed;

    /// <summary>Whether reading ahead can overlap anything here: it needs a second core.</summary>
    public static bool Useful => Environment.ProcessorCount > 1;

    public void Enqueue(BufferPrefetch load)
    {
        lock (_gate)
        {
            if (_disposed) return; // the stream loads it itself when it needs it
            _queue.Enqueue(load);
            if (_running)
            {
                Monitor.Pulse(_gate);
                return;
            }
            _running = true;
        }
        new Thread(Run) { IsBackground = true, Name = "HiddenCost ETL read-ahead" }.Start();
    }

    public void Dispose()
    {
        lock (_gate)
        {
            _disposed = true;
            _queue.Clear();
            Monitor.PulseAll(_gate);
        }
    }

    private void Run()
    {
        while (Next() is { } load) load.Execute();
    }

    private BufferPrefetch? Next()
    {
        lock (_gate)
        {
            while (_queue.Count == 0)
            {
                if (_disposed || !Monitor.Wait(_gate, IdleMilliseconds))
                {
                    if (_queue.Count > 0) break;
                    _running = false;
                    return null;
                }
            }
            return _queue.Dequeue();
        }
    }
}
