using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests;

/// <summary>
/// A cancelled read stops within a buffer, wherever it is: while the file's buffers are indexed (before any event)
/// and while events come out. A host that cancels loading a large trace must not wait for the whole file.
/// </summary>
[TestClass]
public sealed class CancellationTests
{
    [TestMethod]
    public void A_read_cancelled_before_it_starts_stops_while_indexing_buffers()
    {
        using var reader = EtlReader.Open(Samples.PathOf(Samples.TraceLoggingTester));
        using var cancel = new CancellationTokenSource();
        cancel.Cancel();
        Assert.Throws<OperationCanceledException>(() => reader.ReadEvents(cancel.Token).GetEnumerator());
    }

    [TestMethod]
    [DataRow(true)]
    [DataRow(false)]
    public void A_read_cancelled_after_its_first_event_stops_at_the_next_buffer_and_the_reader_reads_again_in_full(bool readAhead)
    {
        using var reader = EtlReader.Open(Samples.PathOf(Samples.TraceLoggingTester));
        reader.ReadAhead = readAhead;
        long total = 0;
        foreach (var _ in reader.ReadEvents()) total++;

        using var cancel = new CancellationTokenSource();
        long read = 0;
        EventStream.Enumerator? cancelled = null;
        Assert.Throws<OperationCanceledException>(() =>
        {
            using var events = cancelled = reader.ReadEvents(cancel.Token).GetEnumerator();
            while (events.MoveNext())
            {
                if (++read == 1) cancel.Cancel();
            }
        });
        Assert.AreEqual(0L, cancelled!.BytesHeld, "the cancelled pass gave back every buffer it held or loaded ahead");
        // At most what the buffers in hand still held: fewer than one of its 41 buffers' share of the events (the
        // merge soon needs a processor's next buffer; here the first one's, which holds only the trace header).
        Assert.IsTrue(read < total / 41, $"{read:N0} of {total:N0} events read after cancelling");

        long again = 0;
        foreach (var _ in reader.ReadEvents()) again++;
        Assert.AreEqual(total, again, "the reader reads in full after a cancelled read");
    }

    [TestMethod]
    [DataRow(true)]
    [DataRow(false)]
    public void Buffers_are_given_back_by_a_pass_that_ends_and_by_one_left_early(bool readAhead)
    {
        using var reader = EtlReader.Open(Samples.PathOf(Samples.TraceLoggingTester));
        reader.ReadAhead = readAhead;
        var whole = reader.ReadEvents().GetEnumerator();
        while (whole.MoveNext()) { }
        Assert.AreEqual(0L, whole.BytesHeld, "a finished stream gives back its own buffers");
        whole.Dispose();

        var early = reader.ReadEvents().GetEnumerator();
        for (int i = 0; i < 10_000 && early.MoveNext(); i++) { }
        Assert.IsTrue(early.BytesHeld > 0, "a pass under way holds buffers");
        early.Dispose();
        Assert.AreEqual(0L, early.BytesHeld);
    }

    [TestMethod]
    public void The_share_of_buffers_read_only_grows_and_reaches_one()
    {
        using var reader = EtlReader.Open(Samples.PathOf(Samples.TraceLoggingTester));
        using var events = reader.ReadEvents().GetEnumerator();
        var shares = new List<double> { events.FractionRead };
        long n = 0;
        while (events.MoveNext())
            if (++n % 20_000 == 0) shares.Add(events.FractionRead);
        shares.Add(events.FractionRead);
        for (int i = 1; i < shares.Count; i++) Assert.IsTrue(shares[i] >= shares[i - 1], string.Join(", ", shares));
        Assert.AreEqual(1.0, shares[^1]);
        // 41 buffers over 20 processors: a quarter of the way through the events, well short of the end (reading by
        // file position showed 85% at once: a processor that logs little flushes its first buffer near the file's end).
        Assert.IsTrue(shares[2] < 0.75, string.Join(", ", shares));
    }
}
