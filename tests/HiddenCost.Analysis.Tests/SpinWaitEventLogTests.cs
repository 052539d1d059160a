using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Tables.SpinWait;
using HiddenCost.Etl.Stacks;

namespace HiddenCost.Analysis.Tests;

/// <summary>The deferred log the Spin-Wait analysis keeps until stacks and CLR rundown have arrived.</summary>
[TestClass]
public sealed class SpinWaitEventLogTests
{
    private sealed class Recorder : ISpinEventVisitor
    {
        public readonly List<string> Seen = new();
        public void Sample(in LoggedSample sample) => Seen.Add($"S{sample.TimeNs}:{sample.ThreadId}:{sample.Process}:0x{sample.InstructionPointer:X}:{sample.Stack}");
        public void Event(in LoggedEvent ev) => Seen.Add(ev.Kind switch
        {
            LoggedKind.ContentionStart => $"start{ev.TimeNs}:0x{ev.A:X}:0x{ev.B:X}",
            LoggedKind.ContentionStop => $"stop{ev.TimeNs}:{ev.DurationNs?.ToString() ?? "none"}",
            _ => $"out{ev.TimeNs}:{ev.WaitReason}:{ev.State}",
        });
    }

    [TestMethod]
    public void Replay_gives_samples_and_events_back_in_the_order_they_were_logged()
    {
        var log = new SpinEventLog();
        log.AddContentionStop(1, 7, 0, 250.0);                     // before any sample
        log.AddSample(2, 7, 0, 0x7FF8_0000_1000, 11);
        log.AddContentionStart(2, 7, 0, 0xABC, 0xDEF);             // same time as the sample, logged after it
        log.AddSwitchOut(3, 7, 0, KernelWait.UserRequest, KernelWait.StateWaiting);
        log.AddContentionStop(4, 7, 0, null);
        log.AddSample(5, 7, 1, 0x1000, 12);
        var r = new Recorder();
        log.Replay(r);
        CollectionAssert.AreEqual(new[]
        {
            "stop1:250", "S2:7:0:0x7FF800001000:11", "start2:0xABC:0xDEF", "out3:6:5", "stop4:none", "S5:7:1:0x1000:12",
        }, r.Seen);
        Assert.AreEqual(2L, log.SampleCount);
        Assert.AreEqual(4L, log.EventCount);
    }

    [TestMethod]
    public void Log_spans_many_chunks_without_losing_order()
    {
        var log = new SpinEventLog();
        const int n = 200_000;
        for (int i = 0; i < n; i++)
        {
            log.AddSample(i, 1, 0, (ulong)i, i);
            if (i % 3 == 0) log.AddSwitchOut(i, 1, 0, KernelWait.WrYieldExecution, 1);
        }
        var order = new OrderCheck();
        log.Replay(order);
        Assert.AreEqual(n, order.Samples);
        Assert.AreEqual((n + 2) / 3, order.Events);
        Assert.IsTrue(order.InOrder);
    }

    [TestMethod]
    public void Replay_into_the_tracker_classifies_samples_and_keeps_contentions_in_place()
    {
        var processes = new[] { new ProcessRef(4200, 0, "Shop.exe") };
        var log = new SpinEventLog();
        const long ms = 1_000_000;
        for (int i = 0; i < 3; i++) log.AddSample((10 + i) * ms, 101, 0, 0x1000, stack: 1);  // spin stack
        log.AddContentionStart(13 * ms, 101, 0, 0xABC, 0xDEF);
        log.AddContentionStop(20 * ms, 101, 0, 7e6);
        log.AddSample(21 * ms, 101, 0, 0x2000, stack: 2);                                   // ordinary code
        var tracker = new SpinWaitTracker();
        tracker.ProfileInterval(ms);
        new SpinReplay(tracker, processes, (in LoggedSample s) =>
            s.Stack == 1 ? new SampleClass(SpinEvidence.PossibleSpin, "Shop.Inventory.Reserve") : SampleClass.NotSpin).Run(log);
        var (locks, _) = tracker.Build(100 * ms);
        Assert.AreEqual(1, locks.Rows.Count);
        Assert.AreEqual(0xABCL, locks.Rows[0].LockId);
        Assert.AreEqual("Shop.Inventory.Reserve", locks.Rows[0].CallSite);
        Assert.AreEqual(3.0, locks.Rows[0].WastedSpinCpuMs);
        Assert.AreEqual(7.0, locks.Rows[0].WaitMs);
    }

    [TestMethod]
    public void Stacks_arriving_after_their_samples_are_attached_by_timestamp_and_thread()
    {
        var log = new SpinEventLog();
        var matcher = new SampleStackMatcher(log);
        matcher.Expect(rawTimestamp: 1000, threadId: 7, log.AddSample(10, 7, 0, 0x1000), 10);
        matcher.Expect(rawTimestamp: 1000, threadId: 8, log.AddSample(10, 8, 0, 0x2000), 10);
        matcher.Expect(rawTimestamp: 1010, threadId: 7, log.AddSample(11, 7, 0, 0x3000), 11);
        matcher.OnStack(new HiddenCost.Etl.Stacks.StackMatch(1010, 42, 7, new HiddenCost.Etl.Stacks.StackId(5)));
        matcher.OnStack(new HiddenCost.Etl.Stacks.StackMatch(1000, 42, 7, new HiddenCost.Etl.Stacks.StackId(3)));
        matcher.OnStack(new HiddenCost.Etl.Stacks.StackMatch(1000, 42, 7, new HiddenCost.Etl.Stacks.StackId(9)));   // a second stack for a matched sample is ignored
        matcher.OnStack(new HiddenCost.Etl.Stacks.StackMatch(2000, 42, 7, new HiddenCost.Etl.Stacks.StackId(4)));   // another event's stack
        var r = new Recorder();
        log.Replay(r);
        CollectionAssert.AreEqual(new[] { "S10:7:0:0x1000:3", "S10:8:0:0x2000:0", "S11:7:0:0x3000:5" }, r.Seen);
        Assert.AreEqual(2L, matcher.Matched);
    }

    private sealed class OrderCheck : ISpinEventVisitor
    {
        private long _last = -1;
        public int Samples, Events;
        public bool InOrder = true;

        public void Sample(in LoggedSample sample)
        {
            InOrder &= sample.TimeNs == Samples && sample.Stack == Samples && sample.TimeNs >= _last;
            _last = sample.TimeNs;
            Samples++;
        }

        public void Event(in LoggedEvent ev)
        {
            InOrder &= ev.TimeNs == _last && ev.TimeNs % 3 == 0;
            Events++;
        }
    }

    [TestMethod]
    public void Stack_matcher_queue_stays_bounded_behind_a_sample_that_never_gets_a_stack()
    {
        var log = new SpinEventLog();
        var matcher = new SampleStackMatcher(log);
        matcher.Expect(0, 1, log.AddSample(0, 1, 0, 0x1000), 0);          // never matched
        int n = 2 * SampleStackMatcher.MaxPending + SampleStackMatcher.MaxPending / 2;
        for (long t = 1; t <= n; t++)
        {
            matcher.Expect(t, 1, log.AddSample(t, 1, 0, 0x1000), t);
            matcher.OnStack(new StackMatch(t, 0, 1, new StackId(5)));
        }
        Assert.AreEqual(n, matcher.Matched);
        Assert.IsTrue(matcher.QueuedKeys <= 2 * SampleStackMatcher.MaxPending + 1, $"{matcher.QueuedKeys:N0} keys queued");
        // The waiting sample still gets its stack if it arrives.
        matcher.OnStack(new StackMatch(0, 0, 1, new StackId(9)));
        Assert.AreEqual(n + 1L, matcher.Matched);
    }
}
