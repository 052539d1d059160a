using HiddenCost.Synthetic.Events;

namespace HiddenCost.Synthetic.Model;

public sealed partial class TraceBuilder
{
    private readonly List<(long Start, long End)> _samplingGaps = [];

    /// <summary>
    /// No CPU samples between <paramref name="start"/> and <paramref name="end"/> on any CPU, while every other
    /// event goes on: what a trace shows when another tool takes over the kernel logger's profiling.
    /// </summary>
    public void StopSampling(long start, long end)
    {
        EnsureNotBuilt();
        if (end <= start) throw new ArgumentException("empty sampling gap");
        _samplingGaps.Add((start, end));
    }

    /// <summary>Sample interval in ticks (even), 0 when sampling is off.</summary>
    public long SampleIntervalTicks => Settings.SampleIntervalMs > 0 ? Math.Max(2, Ticks(Settings.SampleIntervalMs * 1000)) : 0;

    /// <summary>
    /// One sample per interval per CPU (odd ticks, jittered by up to an eighth of the interval, CPUs staggered),
    /// over [ActivityStart, activityEnd], each attributed to whatever runs on the CPU then (the idle thread when
    /// nothing does) with one of its activity's stacks.
    /// </summary>
    private List<EmittedSample> EmitSamples(long activityEnd)
    {
        var samples = new List<EmittedSample>();
        var interval = SampleIntervalTicks;
        if (interval == 0) return samples;
        var jitter = interval / 8 / 2;
        var idleStack = new[] { Kernel.At(KernelFunctions.PpmIdleRva), Kernel.At(KernelFunctions.KiIdleLoopRva) };
        // Stacks are matched to samples by timestamp and thread; idle threads all have id 0, so no two samples share a time.
        var used = new HashSet<long>();
        for (var cpu = 0; cpu < Settings.Cpus; cpu++)
        {
            var stagger = interval * cpu / Settings.Cpus / 2 * 2;
            for (var k = 0L; ; k++)
            {
                var t = ActivityStart + 1 + stagger + k * interval + 2 * Random.Next(-jitter, jitter + 1);
                if (t > activityEnd) break;
                if (t < ActivityStart || InGap(t)) continue;
                while (!used.Add(t)) t += 2;
                var segment = SegmentOn(cpu, t);
                var thread = segment?.Thread ?? IdleThread;
                var frames = segment is null ? idleStack : segment.Activity.Stacks[(int)Random.Next(0, segment.Activity.Stacks.Count)];
                var context = new EventContext(cpu, t, Settings.PointerSize);
                _records.Add(PerfInfoEvents.SampledProfile(context, frames[0], (uint)thread.Tid, thread.Priority));
                if (Settings.SampleStacks) _records.AddRange(StackRecords(cpu, t, thread, frames, Settings.Stacks));
                samples.Add(new EmittedSample(cpu, t, thread, segment?.Activity, frames));
            }
        }
        return samples;
    }

    private bool InGap(long t) => _samplingGaps.Any(g => t >= g.Start && t < g.End);
}

/// <summary>A CPU sample the builder wrote: who ran, doing what, with which stack (leaf first).</summary>
public sealed record EmittedSample(int Cpu, long Timestamp, SyntheticThread Thread, Activity? Activity, ulong[] Frames)
{
    public ulong InstructionPointer => Frames[0];
}
