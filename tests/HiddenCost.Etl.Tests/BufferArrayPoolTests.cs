using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Tests;

/// <summary>
/// The reader keeps arrays of the session's buffer size from one pass to the next; other sizes go to the shared
/// pool, and what it keeps is bounded.
/// </summary>
[TestClass]
public sealed class BufferArrayPoolTests
{
    private const int BufferSize = 64 * 1024;

    [TestMethod]
    public void An_array_given_back_is_the_next_one_rented()
    {
        var pool = new BufferArrayPool(BufferSize);
        var first = pool.Rent(BufferSize - 100);
        Assert.AreEqual(BufferSize, first.Length);
        pool.Return(first);
        Assert.AreEqual(1, pool.KeptCount);
        Assert.AreSame(first, pool.Rent(BufferSize));
        Assert.AreEqual(0, pool.KeptCount);
    }

    [TestMethod]
    public void Data_larger_than_the_session_buffer_gets_a_large_enough_array_that_is_not_kept()
    {
        var pool = new BufferArrayPool(BufferSize);
        var large = pool.Rent(BufferSize + 1);
        Assert.IsTrue(large.Length > BufferSize);
        pool.Return(large);
        Assert.AreEqual(0, pool.KeptCount);
    }

    [TestMethod]
    public void Data_of_a_partly_filled_buffer_does_not_take_a_whole_array()
    {
        var pool = new BufferArrayPool(BufferSize);
        var small = pool.Rent(BufferSize / 8);
        Assert.IsTrue(small.Length >= BufferSize / 8 && small.Length < BufferSize, $"length {small.Length}");
        pool.Return(small);
        Assert.AreEqual(0, pool.KeptCount);
    }

    [TestMethod]
    public void Clearing_gives_every_kept_array_up()
    {
        var pool = new BufferArrayPool(BufferSize);
        pool.Return(pool.Rent(BufferSize));
        pool.Clear();
        Assert.AreEqual(0, pool.KeptCount);
    }

    [TestMethod]
    public void At_most_the_kept_bytes_limit_stays_in_the_pool()
    {
        const int size = 16 * 1024 * 1024; // 32 MiB kept at most: two arrays
        var pool = new BufferArrayPool(size);
        var arrays = Enumerable.Range(0, 4).Select(_ => pool.Rent(size)).ToList();
        foreach (var array in arrays) pool.Return(array);
        Assert.AreEqual(2, pool.KeptCount);

        var huge = new BufferArrayPool(64 * 1024 * 1024); // one array would pass the limit: none is kept
        huge.Return(huge.Rent(64 * 1024 * 1024));
        Assert.AreEqual(0, huge.KeptCount);

        var small = new BufferArrayPool(BufferSize);
        var many = Enumerable.Range(0, 600).Select(_ => small.Rent(BufferSize)).ToList();
        foreach (var array in many) small.Return(array);
        Assert.AreEqual((int)(BufferArrayPool.MaxKeptBytes / BufferSize), small.KeptCount);
    }
}
