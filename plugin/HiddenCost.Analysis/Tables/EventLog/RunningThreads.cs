namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>
/// Which thread runs on each processor and since when, from context switches. A thread that logs an event is
/// on the processor that logged it, so events also confirm who runs where when a switch was missed.
/// </summary>
internal sealed class RunningThreads
{
    private const int MaxProcessors = 4096;
    private int[] _thread = [];
    private long[] _since = [];
    private bool[] _switched = [];

    public long Switches { get; private set; }

    /// <summary>A context switch on <paramref name="cpu"/>; returns since when <paramref name="oldThread"/> ran there, or null when that is not known.</summary>
    public long? Switch(long t, int cpu, int newThread, int oldThread)
    {
        Switches++;
        if (!Ensure(cpu)) return null;
        long? ranSince = _thread[cpu] == oldThread ? _since[cpu] : null;
        _switched[cpu] = true;
        _thread[cpu] = newThread;
        _since[cpu] = t;
        return ranSince;
    }

    /// <summary><paramref name="thread"/> logged an event on <paramref name="cpu"/> at <paramref name="t"/>: it runs there.</summary>
    public void Seen(long t, int cpu, int thread)
    {
        if (!Ensure(cpu) || _thread[cpu] == thread) return;
        _thread[cpu] = thread;
        _since[cpu] = t;
    }

    /// <summary>
    /// Whether a context switch has been seen on <paramref name="cpu"/>: from then on the kernel session's events of
    /// that processor are in the trace (a memory-mode trace's kernel buffers may begin later than another session's).
    /// </summary>
    public bool HasSwitched(int cpu) => (uint)cpu < (uint)_switched.Length && _switched[cpu];

    /// <summary>Since when <paramref name="thread"/> runs on <paramref name="cpu"/>, or null when it does not (as far as the trace says).</summary>
    public long? RunningSince(int cpu, int thread) =>
        (uint)cpu < (uint)_thread.Length && _thread[cpu] == thread ? _since[cpu] : null;

    /// <summary>Since when <paramref name="thread"/> runs on any processor, or null.</summary>
    public long? RunningSince(int thread)
    {
        for (int cpu = 0; cpu < _thread.Length; cpu++)
            if (_thread[cpu] == thread) return _since[cpu];
        return null;
    }

    private bool Ensure(int cpu)
    {
        if ((uint)cpu >= MaxProcessors) return false;
        if (cpu < _thread.Length) return true;
        int size = Math.Max(cpu + 1, Math.Max(8, _thread.Length * 2));
        int old = _thread.Length;
        Array.Resize(ref _thread, size);
        Array.Resize(ref _since, size);
        Array.Resize(ref _switched, size);
        _thread.AsSpan(old).Fill(-1);
        return true;
    }
}
