namespace HiddenCost.Analysis.Pipeline;

/// <summary>
/// The parts of the shared <see cref="TraceSession"/> an analysis reads. A pass builds only the parts its analyses
/// need: each part costs decoding and memory on every event of its kinds (a trace's stacks, every image and JIT
/// method). Counting the events the decoders could not decode is not a need: every table says it (the analyzer's
/// warning), so it always runs.
/// </summary>
[Flags]
public enum SessionNeeds
{
    None = 0,
    /// <summary>Processes and threads over time: <see cref="TraceSession.Process"/>, <see cref="TraceSession.ProcessOfThread"/>, <see cref="TraceSession.Final"/>.</summary>
    Processes = 1,
    /// <summary>Images, kernel modules and their identities in <see cref="TraceSession.State"/> (frames resolved to modules).</summary>
    Images = 2,
    /// <summary>.NET method ranges in <see cref="TraceSession.State"/> (frames resolved to methods).</summary>
    ClrMethods = 4,
    /// <summary>Stacks matched to their events: <see cref="TraceSession.Stacks"/> and the stack listeners.</summary>
    Stacks = 8,
    /// <summary>Which kernel events carried a stack, by kind: <see cref="TraceSession.StackedEvents"/>.</summary>
    StackedEvents = 16,
    /// <summary>The thread running on each processor, from the context switches: <see cref="TraceSession.Running"/>.</summary>
    RunningThreads = 32,
    All = Processes | Images | ClrMethods | Stacks | StackedEvents | RunningThreads,
}
