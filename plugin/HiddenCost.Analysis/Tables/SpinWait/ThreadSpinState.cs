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

    /// <summary>CPU time of the run so far: its samples, each weighed by the interval in effect.</summary>
    public long RunCpuNs;
    public long RunStartNs, RunLastNs;
    public string? RunSite;
    public bool RunNamed;
    /// <summary>The contention the run spins inside (spinning again after a wake-up), if any.</summary>
    public LockTally? RunInside;
    /// <summary>The runtime code paths the run's samples took (<see cref="SampleClass.RuntimePath"/>).</summary>
    public RuntimePaths RunPaths;
    /// <summary>The runtime code path of the run's latest sample (0: it took none, as a spin named by its symbols).</summary>
    public ulong RunLastPath;

    /// <summary>
    /// The call site of a run that ended because its contention was acquired, and when it last spun: a contention
    /// that starts right after it, with no own code sampled between, is named by it as a run still going would name it.
    /// </summary>
    public string? AcquiredSite;
    public long AcquiredSiteNs;

    public readonly List<OpenContention> Open = new(2);

    public bool Running => RunCpuNs > 0;

    public void AddPath(ulong path)
    {
        RunPaths = RunPaths.With(path);
        RunLastPath = path;
    }

    public SpinRun TakeRun(bool wasted)
    {
        var run = new SpinRun(RunStartNs, RunLastNs, RunCpuNs, RunSite, RunNamed, wasted, RunPaths, RunLastPath);
        RunCpuNs = 0;
        RunSite = null;
        RunNamed = false;
        RunInside = null;
        RunPaths = default;
        RunLastPath = 0;
        return run;
    }
}

/// <summary>A ContentionStart not yet matched by its ContentionStop.</summary>
internal readonly record struct OpenContention(long StartNs, LockTally Lock);
