using HiddenCost.Synthetic.Model;

namespace HiddenCost.Synthetic.Scenarios;

/// <summary>Options of the four scenarios that share one trace.</summary>
public sealed record CombinedSampleOptions
{
    public SyscallHookStormOptions Syscall { get; init; } = new();
    public SpinContentionOptions Spin { get; init; } = new();
    public NotifyBufferStormOptions Notify { get; init; } = new();
    public EventLogRenderOptions EventLog { get; init; } = new();

    public int CpusNeeded => Syscall.CpusNeeded + Spin.CpusNeeded + Notify.CpusNeeded + EventLog.CpusNeeded;
}

/// <summary>
/// Ground truth of the combined trace: each scenario's own truth, computed from this trace (the syscall storm's
/// sampling pause applies to every CPU here, so spin figures count the samples this trace actually has).
/// </summary>
public sealed record CombinedSampleTruth(
    SyscallHookStormTruth Syscall, SpinContentionTruth Spin, NotifyBufferStormTruth Notify, EventLogRenderTruth EventLog);

/// <summary>All four problems at once on one machine, each on its own CPUs: the trace `hiddencost` shows by default.</summary>
public static class CombinedSample
{
    public static ScenarioTrace<CombinedSampleTruth> Generate(CombinedSampleOptions? options = null, TraceBuilderSettings? settings = null)
    {
        var o = options ?? new CombinedSampleOptions();
        var b = new TraceBuilder(ScenarioSupport.WithCpus(settings, o.CpusNeeded, "hiddencost-sample.etl"));
        var next = 0;
        int[] Take(int n)
        {
            var cpus = Enumerable.Range(next, n).ToArray();
            next += n;
            return cpus;
        }

        var syscall = SyscallHookStorm.Plan(b, o.Syscall, Take(o.Syscall.CpusNeeded));
        var spin = SpinContention.Plan(b, o.Spin, Take(o.Spin.CpusNeeded));
        var notify = NotifyBufferStorm.Plan(b, o.Notify, Take(o.Notify.CpusNeeded));
        var eventLog = EventLogRender.Plan(b, o.EventLog, Take(o.EventLog.CpusNeeded));
        var trace = b.Build();
        return new ScenarioTrace<CombinedSampleTruth>(trace,
            new CombinedSampleTruth(syscall.Truth(trace), spin.Truth(trace), notify.Truth(trace), eventLog.Truth(trace)));
    }
}
