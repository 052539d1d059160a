using HiddenCost.Analysis.Common;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>One thread's state: the spin run in progress and the contentions it is waiting in (innermost last).</summary>
internal sealed class ThreadSpinState(ProcessRef process, int threadId, ProcessTally tally)
{
    public ProcessRef Process { get; } = process;
    public int ThreadId { get; } = threadId;
    public ProcessTally Tally { get; } = tally;

    /// <summary>Ever contended: its unnamed runtime samples without a stack then count as unattributed spin.</summary>
    public bool Contended;
    public long LastSeenNs;

    public long RunSamples;
    public long RunStartNs, RunLastNs;
    public string? RunSite;
    public bool RunNamed;
    /// <summary>The contention the run spins inside (spinning again after a wake-up), if any.</summary>
    public LockTally? RunInside;
    /// <summary>The runtime code paths the run's samples took (<see cref="SampleClass.RuntimePath"/>), distinct.</summary>
    public List<ulong>? RunPaths;

    public readonly List<OpenContention> Open = new(2);

    public bool Running => RunSamples > 0;

    /// <summary>Remembers a sample's runtime path; a run rarely takes more than a few, so a short list suffices.</summary>
    public void AddPath(ulong path)
    {
        if (path == 0) return;
        RunPaths ??= new List<ulong>(2);
        if (RunPaths.Count < 16 && !RunPaths.Contains(path)) RunPaths.Add(path);
    }

    public SpinRun TakeRun(bool wasted)
    {
        var run = new SpinRun(RunStartNs, RunLastNs, RunSamples, RunSite, RunNamed, wasted, RunPaths);
        RunSamples = 0;
        RunSite = null;
        RunNamed = false;
        RunInside = null;
        RunPaths = null;
        return run;
    }
}

/// <summary>A ContentionStart not yet matched by its ContentionStop.</summary>
internal readonly record struct OpenContention(long StartNs, LockTally Lock);
