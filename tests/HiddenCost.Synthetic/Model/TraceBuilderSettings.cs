namespace HiddenCost.Synthetic.Model;

/// <summary>How stacks are written after the events they belong to.</summary>
public enum StackEncoding
{
    /// <summary>One StackWalk Stack (32) event with all frames.</summary>
    Plain,

    /// <summary>StackKeyKernel (37) / StackKeyUser (38) references, frames defined once by KeyRundown (36) at the end (Win8+ stack caching).</summary>
    Keyed,
}

/// <summary>The synthetic machine and the recording settings of a <see cref="TraceBuilder"/>.</summary>
public sealed record TraceBuilderSettings
{
    /// <summary>Kernel pointer size: 8 for 64-bit Windows, 4 for 32-bit Windows.</summary>
    public int PointerSize { get; init; } = 8;

    public int Cpus { get; init; } = 4;
    public bool Compress { get; init; }
    public int BufferSize { get; init; } = 64 * 1024;
    public int Build { get; init; } = 26100;
    public DateTime StartTimeUtc { get; init; } = new(2026, 1, 15, 9, 30, 0, DateTimeKind.Utc);

    /// <summary>CPU sampling interval (the profile source "Timer"); 0 records no samples.</summary>
    public double SampleIntervalMs { get; init; } = 1.0;

    public StackEncoding Stacks { get; init; } = StackEncoding.Keyed;

    /// <summary>Stacks on CPU samples (the SampledProfile stack value); off, samples are written without them.</summary>
    public bool SampleStacks { get; init; } = true;

    /// <summary>Seed of every random choice (sample jitter, stack variants); same seed, same bytes.</summary>
    public ulong Seed { get; init; } = 1;

    /// <summary>
    /// Describes the processes, threads and images that existed before the trace only in a DCEnd rundown at its end,
    /// as WPR's memory mode (the default of `wpr -start`) saves them: its circular buffers have overwritten the start
    /// rundown by then. Off: a DCStart rundown at the start, as a file-mode recording has it.
    /// </summary>
    public bool RundownAtEndOnly { get; init; }

    /// <summary>
    /// Starts the scenario's threads of processes that predate the trace when the activity begins (a Thread Start
    /// event each, as a thread pool grows under load) instead of before the trace; with
    /// <see cref="RundownAtEndOnly"/>, such a thread is known at once but its process only at the end.
    /// </summary>
    public bool ThreadsStartWithActivity { get; init; }

    /// <summary>Time reserved for the start rundown before scenario activity begins.</summary>
    public double RundownMs { get; init; } = 2.0;

    public string LoggerName { get; init; } = "HiddenCost Synthetic Trace";
    public string LogFileName { get; init; } = "synthetic.etl";
}
