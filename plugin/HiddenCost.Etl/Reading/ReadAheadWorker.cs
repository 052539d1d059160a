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
    private readonly int _wakeBatch;
    private bool _running;
    private bool _waiting;
    private bool _disposed;

    /// <param name="streams">How many processor streams ask for loads (each keeps up to two in flight).</param>
    public ReadAheadWorker(int streams)
    {
        // Waking a sleeping thread costs a system call on each side (and more on a virtual machine); an idle worker
        // is woken for a few loads at once instead of for each. A load it has not started by the time the stream
        // needs it is run by the stream itself, so batching delays nothing.
        _wakeBatch = Math.Clamp(streams / 2, 1, 4);
    }

    /// <summary>Files smaller than this read on one thread: starting the thread would cost more than it saves.</summary>
    public const long MinFileBytes = 4L * 1024 * 1024;

    /// <summary>Whether reading ahead can pay here: it needs a second core, and a file worth starting a thread for.</summary>
    public static bool IsUseful(long fileBytes) => Environment.ProcessorCount > 1 && fileBytes >= MinFileBytes;

    public void Enqueue(BufferPrefetch load)
    {
        lock (_gate)
        {
            if (_disposed) return; // the stream loads it itself when it needs it
            _queue.Enqueue(load);
            if (_running)
            {
                if (_waiting && _queue.Count >= _wakeBatch) Monitor.Pulse(_gate);
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
                _waiting = true;
                bool woken = !_disposed && Monitor.Wait(_gate, IdleMilliseconds);
                _waiting = false;
                if (!woken)
                {
                    if (_queue.Count > 0 && !_disposed) break;
                    _running = false;
                    return null;
                }
            }
            return _queue.Dequeue();
        }
    }
}
