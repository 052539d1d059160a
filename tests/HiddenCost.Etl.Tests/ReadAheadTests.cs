using System.Buffers.Binary;
using HiddenCost.Etl.Buffers;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests;

/// <summary>
/// Loading buffers ahead on other threads is only a speed-up: the events, their order, their bytes and the
/// trace's health must be exactly those of a pass that loads every buffer itself, on clean and damaged files.
/// </summary>
[TestClass]
public sealed class ReadAheadTests
{
    [TestMethod]
    [DataRow(Samples.ShutdownPerfDiagLogger)]
    [DataRow(Samples.TraceLoggingTester)]
    [DataRow(Samples.NetX64)]
    [DataRow(Samples.NetX86)]
    [DataRow(Samples.SelfDescribingSingleEvent)]
    public void Reading_ahead_delivers_the_same_events_in_the_same_order(string sample)
    {
        using var reader = EtlReader.Open(Samples.PathOf(sample));
        reader.ReadAhead = false;
        var alone = Fingerprint.Of(reader);
        reader.ReadAhead = true;
        var ahead = Fingerprint.Of(reader);
        Assert.AreEqual(alone, ahead);
        Assert.AreEqual(reader.CountRecordsInFileOrder(), ahead.Events);
    }

    /// <summary>
    /// net.4.5.2.x64 with every third compressed buffer's XPRESS data overwritten: the same buffers are skipped
    /// with the same warnings, in the same order, whether or not their loads ran on other threads.
    /// </summary>
    [TestMethod]
    public void Damaged_buffers_give_the_same_warnings_in_the_same_order_when_read_ahead()
    {
        var bytes = Samples.Bytes(Samples.NetX64).ToArray(); // the cached sample is shared: damage a copy
        int damaged = 0, index = 0;
        for (int offset = 0; offset + BufferHeader.Size <= bytes.Length;)
        {
            var header = BufferHeader.Parse(bytes.AsSpan(offset));
            if (header.BufferSize < BufferHeader.Size) break;
            if (header.IsCompressed && index++ % 3 == 1)
            {
                bytes.AsSpan(offset + BufferHeader.Size, 64).Fill(0xFF);
                damaged++;
            }
            offset += (int)header.BufferSize;
        }
        Assert.IsTrue(damaged > 100, $"only {damaged} buffers damaged");

        using var reader = EtlReader.Open(bytes, "damaged.etl");
        reader.ReadAhead = false;
        var alone = Fingerprint.Of(reader);
        var warningsAlone = reader.Health.Warnings.ToArray();
        reader.ReadAhead = true;
        var ahead = Fingerprint.Of(reader);
        Assert.AreEqual(alone, ahead);
        CollectionAssert.AreEqual(warningsAlone, reader.Health.Warnings.ToArray());
        Assert.AreEqual((long)damaged, reader.Health.DamagedBuffers);
    }

    /// <summary>
    /// TraceLoggingTester has 20 processors with 1 MiB buffers: a 24 MiB budget holds one buffer per processor
    /// but not the buffers loading ahead, so loads ahead of need must step back (and the streams load those
    /// buffers themselves) rather than fail a buffer that reading alone would read.
    /// </summary>
    [TestMethod]
    public void Reading_ahead_never_takes_memory_a_buffer_needs()
    {
        using var reader = EtlReader.Open(Samples.PathOf(Samples.TraceLoggingTester));
        reader.BufferBudgetBytes = 24L * 1024 * 1024;
        reader.ReadAhead = false;
        var alone = Fingerprint.Of(reader);
        reader.ReadAhead = true;
        var ahead = Fingerprint.Of(reader);
        Assert.AreEqual(0L, alone.DamagedBuffers);
        Assert.AreEqual(alone, ahead);

        reader.BufferBudgetBytes = 8L * 1024 * 1024;
        var starved = Fingerprint.Of(reader);
        Assert.IsTrue(starved.DamagedBuffers > 0, "a budget below one buffer per processor must show as damaged buffers");
        StringAssert.Contains(reader.Health.Warnings[0].Message, "past 8 MiB");
    }

    [TestMethod]
    public void A_pass_left_early_does_not_disturb_the_next()
    {
        using var reader = EtlReader.Open(Samples.PathOf(Samples.NetX64));
        var full = Fingerprint.Of(reader);
        for (int stopAfter = 1; stopAfter < 100_000; stopAfter *= 7)
        {
            int seen = 0;
            foreach (var _ in reader.ReadEvents())
                if (++seen == stopAfter) break;
            Assert.AreEqual(stopAfter, seen);
        }
        Assert.AreEqual(full, Fingerprint.Of(reader));
    }

    /// <summary>
    /// A reader that stops to think (here: twice for 250 ms) lets the read-ahead thread run out of room and end
    /// after its idle time; the next buffers taken start it again, and the pass is still exactly the same.
    /// </summary>
    [TestMethod]
    [Timeout(60_000)]
    public void A_pass_paused_longer_than_the_read_ahead_threads_idle_time_is_unchanged()
    {
        using var reader = EtlReader.Open(Samples.PathOf(Samples.NetX64));
        reader.ReadAhead = false;
        var alone = Fingerprint.Of(reader);
        reader.ReadAhead = true;
        var paused = Fingerprint.Of(reader, pauseAt: [1_000, 90_000]);
        Assert.AreEqual(alone, paused);
    }

    /// <summary>
    /// A reader disposed in the middle of a pass: the loads still to come fail, on the thread reading the events and
    /// in file order, with the error reading alone would give — no hang, nothing thrown on the read-ahead thread.
    /// </summary>
    [TestMethod]
    [Timeout(60_000)]
    public void A_reader_disposed_mid_pass_fails_the_pass_instead_of_hanging()
    {
        foreach (bool readAhead in new[] { false, true })
        {
            var reader = EtlReader.Open(Samples.PathOf(Samples.NetX64));
            reader.ReadAhead = readAhead;
            long seen = 0;
            var failure = Assert.Throws<ObjectDisposedException>(() =>
            {
                foreach (var _ in reader.ReadEvents())
                    if (++seen == 20_000) reader.Dispose();
            });
            Assert.IsTrue(seen >= 20_000 && seen < 179_474, $"{seen} events before the failure (read-ahead {readAhead}): {failure.Message}");
        }
    }

    /// <summary>
    /// The merge's read-ahead order: every buffer once, each processor's buffers in file order, every processor's
    /// first buffer at the start, and each later buffer right after its predecessor's place in the file.
    /// </summary>
    [TestMethod]
    [DataRow(Samples.NetX64)]
    [DataRow(Samples.TraceLoggingTester)]
    public void The_merge_reads_ahead_each_processors_next_buffer_where_its_previous_one_ends_in_the_file(string sample)
    {
        var bytes = Samples.Bytes(sample);
        using var source = Reading.ByteSource.FromMemory(bytes);
        var index = Reading.BufferIndex.Build(source, new Reading.TraceHealth());
        var processors = index.Processors.ToArray();
        var order = Reading.ReadAheadWorker.MergeOrder(index);

        Assert.AreEqual(index.ProcessorInFileOrder.Count, order.Length);
        Assert.AreEqual(order.Length, order.Distinct().Count());
        CollectionAssert.AreEqual(Enumerable.Range(0, processors.Length).ToArray(), order.Take(processors.Length).Select(o => o.Stream).ToArray());
        Assert.IsTrue(order.Take(processors.Length).All(o => o.Buffer == 0));
        var fileOrder = index.ProcessorInFileOrder.Select(p => Array.IndexOf(processors, p)).ToArray();
        int k = processors.Length;
        var passed = new int[processors.Length];
        foreach (var stream in fileOrder)
        {
            int next = ++passed[stream];
            if (next < index.Streams[stream].Count) Assert.AreEqual((stream, next), order[k++]);
        }
        Assert.AreEqual(order.Length, k);
    }
}
