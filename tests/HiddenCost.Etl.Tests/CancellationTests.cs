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
        Assert.Throws<OperationCanceledException>(() =>
        {
            using var events = reader.ReadEvents(cancel.Token).GetEnumerator();
            while (events.MoveNext())
            {
                if (++read == 1) cancel.Cancel();
            }
        });
        // At most what the buffers in hand still held: fewer than one of its 41 buffers' share of the events (the
        // merge soon needs a processor's next buffer; here the first one's, which holds only the trace header).
        Assert.IsTrue(read < total / 41, $"{read:N0} of {total:N0} events read after cancelling");

        long again = 0;
        foreach (var _ in reader.ReadEvents()) again++;
        Assert.AreEqual(total, again, "a cancelled read gives back every buffer it held");
    }
}
