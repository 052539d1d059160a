namespace HiddenCost.Analysis.Pipeline;

/// <summary>
/// Which thread runs on each processor and since when, from context switches: one view for every analysis of a pass
/// (<see cref="TraceSession.Running"/>, which the session feeds each switch before the analyses see it). An analysis that
/// acts on a switch reports it too and gets what ran before it; a tracker used on its own (tests, benchmarks) feeds its own
/// view that way. A thread that logs an event is on the processor that logged it, so an analysis may also confirm who runs
/// where when a switch was missed (<see cref="Seen"/>). The reader keeps a copy of its own of the switched-in thread only
/// to stamp PerfInfo events with their thread and process ids (it sits below the pipeline and cannot use this view).
/// </summary>
public sealed class RunningThreads
{
    private const int MaxProcessors = 4096;
    private int[] _thread = [];
    private long[] _since = [];
    private bool[] _switched = [];
    // The latest switch applied on each processor and what ran there before it: every analysis that tracks switches
    // reports each one, and all of them must see the state before it, whichever reports it first.
    private long[] _switchNs = [];
    private int[] _switchTo = [];
    private SwitchedFrom[] _before = [];

    /// <summary>Context switches seen (each counted once, however many analyses report it).</summary>
    public long Switches { get; private set; }

    /// <summary>
    /// A context switch on <paramref name="cpu"/>: <paramref name="newThread"/> runs there from <paramref name="t"/>. Reporting
    /// the same switch again (another analysis of the pass) changes nothing and returns the same answer.
    /// </summary>
    /// <returns>What ran on the processor before the switch.</returns>
    public SwitchedFrom Switch(long t, int cpu, int newThread, int oldThread)
    {
        if (!Ensure(cpu))
        {
            Switches++;
            return default;
        }
        if (_switched[cpu] && _switchNs[cpu] == t && _switchTo[cpu] == newThread) return _before[cpu];
        Switches++;
        var before = new SwitchedFrom(_switched[cpu], _thread[cpu] == oldThread ? _since[cpu] : null);
        _before[cpu] = before;
        _switchNs[cpu] = t;
        _switchTo[cpu] = newThread;
        _switched[cpu] = true;
        _thread[cpu] = newThread;
        _since[cpu] = t;
        return before;
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

    /// <summary>The thread running on <paramref name="cpu"/>, or -1 when the trace has not said.</summary>
    public int Running(int cpu) => (uint)cpu < (uint)_thread.Length ? _thread[cpu] : -1;

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
        Array.Resize(ref _switchNs, size);
        Array.Resize(ref _switchTo, size);
        Array.Resize(ref _before, size);
        _thread.AsSpan(old).Fill(-1);
        return true;
    }
}

/// <summary>What ran on a processor before a context switch.</summary>
/// <param name="HadSwitched">Whether an earlier switch had named the processor's thread (else it was not known).</param>
/// <param name="OldThreadSince">Since when the switch's old thread ran there, or null when the view did not have it running there.</param>
public readonly record struct SwitchedFrom(bool HadSwitched, long? OldThreadSince);
