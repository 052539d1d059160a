using HiddenCost.Analysis.Tables.SpinWait;
using HiddenCost.Etl.Stacks;

namespace HiddenCost.Analysis.Tests;

[TestClass]
public sealed class SpinWaitStackExpiryTests
{
    private const long Wait = StackCollector.TicketWaitNs;

    [TestMethod]
    public void Samples_whose_stack_never_comes_stop_waiting_after_the_collectors_ticket_wait()
    {
        var log = new SpinEventLog();
        var matcher = new SampleStackMatcher(log);
        // One sample a millisecond for ten seconds of trace, none ever given a stack.
        const long ms = 1_000_000;
        for (long t = 0; t < 10_000 * ms; t += ms) matcher.Expect(t, 1, log.AddSample(t, 1, 0, 0x1000), t);
        // What waits is the last second's samples (the sample exactly one wait old still waits), not all 10,000.
        Assert.AreEqual(1001, matcher.PendingCount);
        Assert.AreEqual(1001, matcher.QueuedKeys);
        Assert.AreEqual(8999L, matcher.Expired);
        // A stack for an expired sample is not attached; one for a sample still waiting is.
        matcher.OnStack(new StackMatch(0, 0, 1, new StackId(5)));
        matcher.OnStack(new StackMatch(9_999 * ms, 0, 1, new StackId(6)));
        Assert.AreEqual(1L, matcher.Matched);
    }

    [TestMethod]
    public void A_sample_whose_kernel_part_waits_for_its_user_part_keeps_waiting_past_the_ticket_wait()
    {
        var log = new SpinEventLog();
        var matcher = new SampleStackMatcher(log, (thread, timestamp) => thread == 2 && timestamp == 100);
        matcher.Expect(100, 2, log.AddSample(0, 2, 0, 0x1000), 0);   // kernel part waiting
        matcher.Expect(100, 3, log.AddSample(0, 3, 0, 0x2000), 0);   // nothing arrived
        matcher.Expect(200, 2, log.AddSample(Wait + 1, 2, 0, 0x3000), Wait + 1);
        Assert.AreEqual(2, matcher.PendingCount);
        Assert.AreEqual(1L, matcher.Expired);
        matcher.OnStack(new StackMatch(100, 0, 2, new StackId(7)));
        matcher.OnStack(new StackMatch(100, 0, 3, new StackId(8)));
        Assert.AreEqual(1L, matcher.Matched);
        var stacks = new List<int>();
        log.Replay(new StackRecorder(stacks));
        CollectionAssert.AreEqual(new[] { 7, 0, 0 }, stacks);
    }

    [TestMethod]
    public void An_expired_entry_does_not_end_the_wait_of_a_later_sample_with_the_same_key()
    {
        var log = new SpinEventLog();
        var matcher = new SampleStackMatcher(log);
        matcher.Expect(100, 2, log.AddSample(0, 2, 0, 0x1000), 0);
        matcher.OnStack(new StackMatch(100, 0, 2, new StackId(7)));
        // The same raw timestamp and thread again later (a trace whose stack walks repeat earlier timestamps).
        matcher.Expect(100, 2, log.AddSample(Wait / 2, 2, 0, 0x1000), Wait / 2);
        matcher.Expect(300, 2, log.AddSample(Wait + 1, 2, 0, 0x1000), Wait + 1);   // the first entry expires
        Assert.AreEqual(0L, matcher.Expired);
        matcher.OnStack(new StackMatch(100, 0, 2, new StackId(9)));
        Assert.AreEqual(2L, matcher.Matched);
    }

    private sealed class StackRecorder(List<int> stacks) : ISpinEventVisitor
    {
        public void Sample(in LoggedSample sample) => stacks.Add(sample.Stack);
        public void Event(in LoggedEvent ev) { }
    }
}

[TestClass]
public sealed class SpinEventLogPackingTests
{
    [TestMethod]
    public void Sample_times_far_apart_backwards_and_at_the_ends_of_the_clock_replay_exactly()
    {
        var log = new SpinEventLog();
        long[] times = { 5, 5, 4, 3_000_000_000, 2_999_999_000, long.MinValue, long.MaxValue, -7, int.MaxValue - 7L, 0 };
        for (int i = 0; i < times.Length; i++) log.AddSample(times[i], 10 + i % 3, i % 2, (ulong)i, stack: i);
        var seen = new List<LoggedSample>();
        log.Replay(new Collector(seen));
        Assert.AreEqual(times.Length, seen.Count);
        for (int i = 0; i < times.Length; i++)
            Assert.AreEqual(new LoggedSample(times[i], (ulong)i, 10 + i % 3, i % 2, i), seen[i], $"sample {i}");
    }

    private sealed class Collector(List<LoggedSample> seen) : ISpinEventVisitor
    {
        public void Sample(in LoggedSample sample) => seen.Add(sample);
        public void Event(in LoggedEvent ev) { }
    }
}
