namespace HiddenCost.Etl.Reading;

/// <summary>
/// Loads one pass's buffers ahead of need on a thread of its own, in the order the pass will need them, while the
/// streams decode the buffers before them. Whoever gets to a buffer first loads it: a stream that needs a buffer
/// the thread has not reached loads it itself, so no one waits in a queue, and a stream waits only for a load the
/// thread is running at that moment.
/// <para>
/// The thread runs up to <see cref="MaxAhead"/> loads ahead and then sleeps until the streams have taken half of
/// them: on virtual machines waking a thread costs tens of microseconds, so it is woken once per several buffers,
/// not once per buffer. It blocks without spinning (a reader that burnt CPU while idle would be a poor tool for
/// finding spin-waits), and it ends when its work is done, when the pass is disposed, or after a short idle time
/// (a pass paused or abandoned leaves no thread behind; the next take starts it again).
/// </para>
/// </summary>
internal sealed class ReadAheadWorker : IDisposable
{
    private const int IdleMilliseconds = 100;
    private const long MaxAheadBytes = 8L * 1024 * 1024;

    private readonly BufferLoader _loader;
    private readonly IReadOnlyList<IReadOnlyList<long>> _offsets;
    private readonly BufferPrefetch?[][] _slots; // null: nobody has it yet; _taken: its stream has it
    private readonly BufferPrefetch _taken;
    private readonly (int Stream, int Buffer)[] _order;
    private readonly object _gate = new();
    private int _position;
    private int _ahead; // loads the thread has claimed that no stream has taken yet
    private bool _running;
    private bool _waiting;
    private bool _disposed;

    /// <param name="streams">Each stream's buffer offsets; streams are numbered by their position here.</param>
    /// <param name="order">Which buffer of which stream to load next, in the order the pass will need them.</param>
    /// <param name="bufferSize">The session's buffer size: how many loads fit in the read-ahead allowance.</param>
    public ReadAheadWorker(BufferLoader loader, IReadOnlyList<IReadOnlyList<long>> streams, (int Stream, int Buffer)[] order, long bufferSize)
    {
        _loader = loader;
        _offsets = streams;
        _slots = streams.Select(s => new BufferPrefetch?[s.Count]).ToArray();
        _taken = new BufferPrefetch(loader, -1);
        _order = order;
        MaxAhead = (int)Math.Clamp(MaxAheadBytes / Math.Max(bufferSize, 1), 4, 64);
        lock (_gate) StartThread(); // the first buffers of every stream load while the streams open
    }

    /// <summary>Files smaller than this read on one thread: starting the thread would cost more than it saves.</summary>
    public const long MinFileBytes = 4L * 1024 * 1024;

    /// <summary>Whether reading ahead can pay here: it needs a second core, and a file worth starting a thread for.</summary>
    public static bool IsUseful(long fileBytes) => Environment.ProcessorCount > 1 && fileBytes >= MinFileBytes;

    /// <summary>How many loads the thread runs ahead of the streams at most.</summary>
    public int MaxAhead { get; }

    /// <summary>
    /// The order a merge needs buffers in: every processor's first buffer, then each processor's next buffer at
    /// the point in the file where its previous one ends (buffers are written as they fill, so the file is in
    /// flush order, and a processor's next buffer is needed once the merge has passed its previous one's end).
    /// </summary>
    public static (int Stream, int Buffer)[] MergeOrder(BufferIndex index)
    {
        var streamOf = new Dictionary<int, int>(index.Processors.Count);
        for (int s = 0; s < index.Processors.Count; s++) streamOf[index.Processors[s]] = s;
        var counts = index.Streams.Select(offsets => offsets.Count).ToArray();
        var order = new (int, int)[counts.Sum()];
        int k = 0;
        for (int s = 0; s < counts.Length; s++) order[k++] = (s, 0);
        var passed = new int[counts.Length];
        foreach (var processor in index.ProcessorInFileOrder)
        {
            int s = streamOf[processor], next = ++passed[s];
            if (next < counts[s]) order[k++] = (s, next);
        }
        return order;
    }

    /// <summary>The order of a pass that reads each stream to its end before the next.</summary>
    public static (int Stream, int Buffer)[] StreamByStreamOrder(IReadOnlyList<IReadOnlyList<long>> streams)
    {
        var order = new (int, int)[streams.Sum(s => s.Count)];
        int k = 0;
        for (int s = 0; s < streams.Count; s++)
            for (int b = 0; b < streams[s].Count; b++) order[k++] = (s, b);
        return order;
    }

    /// <summary>
    /// Buffer <paramref name="buffer"/> of stream <paramref name="stream"/>, as the stream's own load would give it:
    /// loaded ahead (waiting for a load in progress), or loaded here when the thread has not reached it.
    /// </summary>
    public LoadedBuffer Take(int stream, int buffer)
    {
        var prefetch = Interlocked.Exchange(ref _slots[stream][buffer], _taken);
        if (prefetch is null) return _loader.Load(_offsets[stream][buffer]);
        LoadedBuffer loaded;
        try
        {
            // The thread is still loading this one: rather than sleep until it is done, load the next buffer the
            // thread would have taken on, so both cores keep loading. (One it has claimed but not started, the
            // stream runs at once.)
            while (prefetch.IsRunning && Claim(wait: false) is { } help) help.Execute(onWorker: false);
            loaded = prefetch.Take();
        }
        finally
        {
            Untake(); // also when the load failed: its room is free either way
        }
        return loaded.Deferred ? _loader.Load(loaded.Offset) : _loader.Adopt(loaded);
    }

    /// <summary>Gives back what was loaded ahead for a stream and not taken, once any load in progress is over.</summary>
    private void Release(int stream)
    {
        var slots = _slots[stream];
        for (int b = 0; b < slots.Length; b++)
        {
            var prefetch = Interlocked.Exchange(ref slots[b], _taken);
            if (prefetch is null || ReferenceEquals(prefetch, _taken)) continue;
            prefetch.Abandon();
            Untake();
        }
    }

    /// <summary>
    /// Stops the thread and gives back every load no stream has taken (once any load in progress is over), however
    /// the pass ended: complete, left early, or stopped by a file that could not be read.
    /// </summary>
    public void Dispose()
    {
        lock (_gate)
        {
            _disposed = true;
            Monitor.PulseAll(_gate);
        }
        for (int stream = 0; stream < _slots.Length; stream++) Release(stream);
    }

    /// <summary>A load the thread claimed has left its hands: room for another, and maybe time to wake it.</summary>
    private void Untake()
    {
        lock (_gate)
        {
            _ahead--;
            if (_ahead > MaxAhead / 2) return;
            if (_waiting) Monitor.Pulse(_gate);
            else if (!_running) StartThread();
        }
    }

    private void StartThread()
    {
        if (_running || _disposed || _position >= _order.Length) return;
        _running = true;
        try
        {
            // Thread names of at most 15 characters: Linux tools (top -H, perf, /proc) show no more.
            new Thread(Run) { IsBackground = true, Name = "hc-readahead" }.Start();
        }
        catch (Exception e) when (e is OutOfMemoryException or ThreadStartException)
        {
            _running = false; // no thread to be had: the streams load every buffer themselves, as without read-ahead
        }
    }

    private void Run()
    {
        while (Claim(wait: true) is { } load) load.Execute(onWorker: true);
    }

    /// <summary>
    /// The next buffer no stream has taken, claimed to be loaded ahead. For the thread (<paramref name="wait"/>):
    /// waits for room, and null means the thread should end. For a stream that helps: null when there is nothing
    /// to claim or no room.
    /// </summary>
    private BufferPrefetch? Claim(bool wait)
    {
        lock (_gate)
        {
            while (true)
            {
                if (_disposed || _position >= _order.Length)
                {
                    if (wait) _running = false;
                    return null;
                }
                if (_ahead >= MaxAhead)
                {
                    if (!wait) return null;
                    _waiting = true;
                    bool woken = Monitor.Wait(_gate, IdleMilliseconds);
                    _waiting = false;
                    if (!woken && _ahead >= MaxAhead)
                    {
                        _running = false; // paused or abandoned: the next take that makes room starts a thread again
                        return null;
                    }
                    continue;
                }
                var (stream, buffer) = _order[_position++];
                ref var slot = ref _slots[stream][buffer];
                if (Volatile.Read(ref slot) is not null) continue; // its stream got there first
                var load = new BufferPrefetch(_loader, _offsets[stream][buffer]);
                if (Interlocked.CompareExchange(ref slot, load, null) is not null) continue;
                _ahead++;
                return load;
            }
        }
    }
}
