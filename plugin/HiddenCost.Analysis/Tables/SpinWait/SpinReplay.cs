using HiddenCost.Analysis.Common;

namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>Classifies one logged sample (from its stack ticket or instruction pointer) once stacks and method names are known.</summary>
public delegate SampleClass LoggedSampleClassifier(in LoggedSample sample);

/// <summary>
/// Feeds a <see cref="SpinEventLog"/> into a <see cref="SpinWaitTracker"/> in stream order: samples classified by
/// the given classifier, contention events and lock-wait switches as they were logged. Process indexes in the
/// log refer to <paramref name="processes"/>.
/// </summary>
public sealed class SpinReplay(SpinWaitTracker tracker, IReadOnlyList<ProcessRef> processes, LoggedSampleClassifier classify) : ISpinEventVisitor
{
    public void Run(SpinEventLog log) => log.Replay(this);

    public void Sample(in LoggedSample sample)
    {
        var process = processes[sample.Process];
        if (process.Pid is 0 or 4) return; // Idle and System run no user code, so never a lock's spin
        tracker.Sample(sample.TimeNs, process, sample.ThreadId, classify(sample));
    }

    public void Event(in LoggedEvent ev)
    {
        var process = processes[ev.Process];
        switch (ev.Kind)
        {
            case LoggedKind.ContentionStart: tracker.ContentionStart(ev.TimeNs, process, ev.ThreadId, ev.A, ev.B); break;
            case LoggedKind.ContentionStop: tracker.ContentionStop(ev.TimeNs, process, ev.ThreadId, ev.DurationNs); break;
            case LoggedKind.SwitchOut: tracker.ContextSwitch(ev.TimeNs, process, ev.ThreadId, ev.WaitReason, ev.State); break;
        }
    }
}
