using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests;

/// <summary>
/// Merging ahead on a thread of its own, and handing every event to several lanes on threads of their own, are only
/// speed-ups: each reader and each lane must get exactly the events, order, bytes and health of the merge on the
/// reader's thread, whatever the timing, and a pass that fails or stops early must give back every buffer.
/// </summary>
[TestClass]
public sealed class MergeAheadTests
{
    [TestMethod]
    [DataRow(Samples.TraceLoggingTester)]
    [DataRow(Samples.NetX64)]
    [DataRow(Samples.NetX86)]
    public void Merging_ahead_delivers_the_same_events_to_fast_and_slow_readers(string sample)
    {
        using var reader = EtlReader.Open(Samples.PathOf(sample));
        reader.MergeAhead = false;
        var inline = Fingerprint.Of(reader);
        reader.MergeAhead = true;
        Assert.AreEqual(inline, Fingerprint.Of(reader));
        Assert.AreEqual(inline, Fingerprint.Of(reader, spinPerEvent: 50), "a reader slower than the merge");
        Assert.AreEqual(inline, Fingerprint.Of(reader, pauseAt: [1, 5_000, 60_000]), "a reader that stops for a while");
    }

    /// <summary>
    /// Passes at once on more threads than cores: the merging threads, read-ahead threads and readers are preempted
    /// at every point. (A reader that looked at a batch after handing it back once saw it refilled as the pass's last
    /// batch and ended the pass early, a multiple of 4,096 events short.)
    /// </summary>
    [TestMethod]
    public void Passes_merging_ahead_at_once_each_deliver_every_event()
    {
        var expected = new Dictionary<string, Fingerprint>();
        foreach (var sample in new[] { Samples.NetX64, Samples.NetX86 })
        {
            using var reader = EtlReader.Open(Samples.PathOf(sample));
            reader.MergeAhead = false;
            expected[sample] = Fingerprint.Of(reader);
        }
        for (int round = 0; round < 3; round++)
        {
            var passes = new[] { Samples.NetX64, Samples.NetX86, Samples.NetX64, Samples.NetX86 }.Select(sample => Task.Run(() =>
            {
                using var reader = EtlReader.Open(Samples.PathOf(sample));
                reader.MergeAhead = true;
                return (sample, Fingerprint.Of(reader, spinPerEvent: sample == Samples.NetX64 ? 20 : 0));
            })).ToArray();
            foreach (var (sample, fingerprint) in passes.Select(p => p.Result)) Assert.AreEqual(expected[sample], fingerprint, $"{sample}, round {round}");
        }
    }

    [TestMethod]
    [DataRow(true)]
    [DataRow(false)]
    public void Every_lane_gets_every_event_in_order_with_or_without_merging_ahead(bool mergeAhead)
    {
        using var reader = EtlReader.Open(Samples.PathOf(Samples.NetX64));
        reader.MergeAhead = false;
        var inline = Fingerprint.Of(reader);
        reader.MergeAhead = mergeAhead;
        var lanes = new[] { new Fingerprint.Sink(), new Fingerprint.Sink(spinPerEvent: 40), new Fingerprint.Sink(pauseAt: [70_000]) };
        var fractions = new List<double>();
        reader.Dispatch(lanes, new SyncProgress(fractions.Add));
        foreach (var lane in lanes) Assert.AreEqual(inline, lane.Result(reader.Health));
        Assert.IsTrue(fractions.Count >= 2, $"{fractions.Count} progress reports");
        for (int i = 1; i < fractions.Count; i++) Assert.IsTrue(fractions[i] >= fractions[i - 1], "progress only grows");
    }

    [TestMethod]
    [DataRow(0)]
    [DataRow(1)]
    public void A_lane_that_throws_ends_the_pass_for_every_lane_and_its_exception_comes_out(int failingLane)
    {
        using var reader = EtlReader.Open(Samples.PathOf(Samples.NetX64));
        reader.MergeAhead = true;
        var lanes = new IEventSink[] { new Fingerprint.Sink(), new Fingerprint.Sink() };
        lanes[failingLane] = new ThrowingSink(after: 10_000);
        var thrown = Assert.Throws<InvalidOperationException>(() => reader.Dispatch(lanes));
        Assert.AreEqual("lane failed at event 10000", thrown.Message);
        // The reader is whole after it: the next pass reads everything.
        reader.MergeAhead = false;
        var inline = Fingerprint.Of(reader);
        var again = new[] { new Fingerprint.Sink(), new Fingerprint.Sink() };
        reader.MergeAhead = true;
        reader.Dispatch(again);
        Assert.AreEqual(inline, again[1].Result(reader.Health));
    }

    [TestMethod]
    public void A_cancelled_pass_in_lanes_stops_every_lane()
    {
        using var reader = EtlReader.Open(Samples.PathOf(Samples.TraceLoggingTester));
        reader.MergeAhead = true;
        using var cancel = new CancellationTokenSource();
        var lanes = new IEventSink[] { new CancellingSink(cancel, after: 1_000), new Fingerprint.Sink(spinPerEvent: 40) };
        Assert.Throws<OperationCanceledException>(() => reader.Dispatch(lanes, cancellation: cancel.Token));
    }

    [TestMethod]
    public void Buffers_are_given_back_by_a_pass_merged_ahead_that_ends_and_by_one_left_early()
    {
        using var reader = EtlReader.Open(Samples.PathOf(Samples.NetX64));
        reader.MergeAhead = true;
        using (var whole = reader.ReadEvents().GetEnumerator())
        {
            Assert.IsTrue(whole.MergesAhead, "a 4.9 MB trace on a machine with more than one core merges ahead when asked");
            while (whole.MoveNext()) { }
            Assert.AreEqual(0L, whole.BytesHeld, "a finished pass gives back its buffers before it is disposed");
        }
        var early = reader.ReadEvents().GetEnumerator();
        for (int i = 0; i < 20_000 && early.MoveNext(); i++) { }
        Thread.Sleep(100); // the merge runs ahead and holds buffers for the batches it filled
        Assert.IsTrue(early.BytesHeld > 0);
        early.Dispose();
        Assert.AreEqual(0L, early.BytesHeld);
    }

    private sealed class ThrowingSink(long after) : IEventSink
    {
        private long _seen;

        public void OnEvent(in EtwEvent e)
        {
            if (_seen++ == after) throw new InvalidOperationException($"lane failed at event {after}");
        }
    }

    private sealed class CancellingSink(CancellationTokenSource cancel, long after) : IEventSink
    {
        private long _seen;

        public void OnEvent(in EtwEvent e)
        {
            if (++_seen == after) cancel.Cancel();
        }
    }

    /// <summary>Reports on the reporting thread (<see cref="Progress{T}"/> posts to the thread pool).</summary>
    private sealed class SyncProgress(Action<double> report) : IProgress<double>
    {
        public void Report(double value) => report(value);
    }
}
