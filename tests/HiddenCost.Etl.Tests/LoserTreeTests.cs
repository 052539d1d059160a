using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Tests;

/// <summary>The merge's tournament tree: smallest timestamp first, ties to the lower processor, every stream to its end.</summary>
[TestClass]
public sealed class LoserTreeTests
{
    /// <summary>Merges streams of timestamps (stream i is processor <c>processors[i]</c>) and lists (stream, time) in merge order.</summary>
    private static List<(int Stream, long Time)> Merge(long[][] streams, int[]? processors = null)
    {
        var tree = new LoserTree(streams.Length);
        var next = new int[streams.Length];
        for (int s = 0; s < streams.Length; s++)
            if (streams[s].Length > 0)
                tree.Start(s, streams[s][next[s]++], processors?[s] ?? s);
        tree.Build();
        var merged = new List<(int, long)>();
        while (tree.HasWinner)
        {
            int w = tree.Winner;
            merged.Add((w, streams[w][next[w] - 1]));
            if (next[w] < streams[w].Length) tree.Replace(streams[w][next[w]++]);
            else tree.Remove();
        }
        return merged;
    }

    [TestMethod]
    public void Events_come_out_in_timestamp_order_across_streams()
    {
        var merged = Merge(new[] { new long[] { 1, 4, 9 }, new long[] { 2, 3, 10 }, new long[] { 5 } });
        CollectionAssert.AreEqual(new long[] { 1, 2, 3, 4, 5, 9, 10 }, merged.Select(m => m.Time).ToArray());
        CollectionAssert.AreEqual(new[] { 0, 1, 1, 0, 2, 0, 1 }, merged.Select(m => m.Stream).ToArray());
    }

    [TestMethod]
    public void Equal_timestamps_go_to_the_lower_processor_whatever_the_stream_order()
    {
        // Streams listed as processors 7, 2, 5: at timestamp 10 processor 2 first, then 5, then 7.
        var merged = Merge(new[] { new long[] { 10 }, new long[] { 10 }, new long[] { 10 } }, new[] { 7, 2, 5 });
        CollectionAssert.AreEqual(new[] { 1, 2, 0 }, merged.Select(m => m.Stream).ToArray());
    }

    [TestMethod]
    public void A_stream_keeps_its_own_order_even_when_its_timestamps_go_backwards()
    {
        // Processor 0's file holds 5 before 3 (an inversion the reader reports): the merge keeps its order.
        var merged = Merge(new[] { new long[] { 5, 3 }, new long[] { 4 } });
        CollectionAssert.AreEqual(new[] { (1, 4L), (0, 5L), (0, 3L) }, merged);
    }

    [TestMethod]
    public void Empty_streams_and_a_stream_count_that_is_not_a_power_of_two_lose_nothing()
    {
        var streams = new[] { new long[] { 3 }, Array.Empty<long>(), new long[] { 1, 2 }, Array.Empty<long>(), new long[] { 0, 6 } };
        var merged = Merge(streams);
        CollectionAssert.AreEqual(new long[] { 0, 1, 2, 3, 6 }, merged.Select(m => m.Time).ToArray());
        Assert.AreEqual(0, Merge(new[] { Array.Empty<long>() }).Count);
        Assert.AreEqual(0, Merge(Array.Empty<long[]>()).Count);
    }

    [TestMethod]
    public void An_event_with_the_largest_possible_timestamp_still_comes_out()
    {
        var merged = Merge(new[] { new long[] { long.MaxValue }, Array.Empty<long>(), new long[] { 1, long.MaxValue } });
        CollectionAssert.AreEqual(new[] { (2, 1L), (0, long.MaxValue), (2, long.MaxValue) }, merged);
    }

    [TestMethod]
    public void Random_streams_merge_like_a_sort_by_timestamp_then_processor()
    {
        var random = new Random(20261123);
        for (int round = 0; round < 200; round++)
        {
            var streams = Enumerable.Range(0, random.Next(1, 13))
                .Select(_ => Enumerable.Range(0, random.Next(0, 30)).Select(_ => (long)random.Next(0, 50)).Order().ToArray())
                .ToArray();
            var expected = streams.SelectMany((times, s) => times.Select(t => (Stream: s, Time: t)))
                .OrderBy(e => e.Time).ThenBy(e => e.Stream).ToList();
            CollectionAssert.AreEqual(expected, Merge(streams), $"round {round}");
        }
    }
}
