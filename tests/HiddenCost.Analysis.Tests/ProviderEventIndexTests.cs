using HiddenCost.Analysis.Common;

namespace HiddenCost.Analysis.Tests;

[TestClass]
public sealed class ProviderEventIndexTests
{
    private static readonly Guid ProviderA = new("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
    private static readonly Guid ProviderB = new("a669021c-c450-4609-a035-5af59af4df18");

    [TestMethod]
    public void Pairs_are_numbered_in_the_order_added_and_keep_their_number()
    {
        var index = new ProviderEventIndex();
        Assert.AreEqual(0, index.Add(ProviderA, 10));
        Assert.AreEqual(1, index.Add(ProviderB, 10), "same id, other provider");
        Assert.AreEqual(2, index.Add(ProviderA, 11));
        Assert.AreEqual(0, index.Add(ProviderA, 10));
        Assert.AreEqual(1, index.Find(ProviderB, 10));
        Assert.AreEqual(3, index.Count);
    }

    [TestMethod]
    public void A_pair_found_missing_gets_a_number_when_added_afterwards()
    {
        var index = new ProviderEventIndex();
        Assert.AreEqual(-1, index.Find(ProviderA, 82));
        Assert.AreEqual(-1, index.Find(ProviderA, 82), "the cached miss");
        Assert.AreEqual(0, index.Add(ProviderA, 82));
        Assert.AreEqual(0, index.Find(ProviderA, 82));
        Assert.AreEqual(1, index.Count);
    }

    [TestMethod]
    public void An_id_numbered_for_one_provider_is_missing_for_another_until_added_for_it()
    {
        var index = new ProviderEventIndex();
        Assert.AreEqual(0, index.Add(ProviderA, 81));
        Assert.AreEqual(-1, index.Find(ProviderB, 81));
        Assert.AreEqual(-1, index.Find(ProviderB, 81), "the cached miss");
        Assert.AreEqual(1, index.Add(ProviderB, 81));
        Assert.AreEqual(1, index.Find(ProviderB, 81));
        Assert.AreEqual(0, index.Find(ProviderA, 81));
    }

    [TestMethod]
    public void Many_pairs_sharing_cache_slots_each_keep_their_own_number()
    {
        // 3,000 pairs over a 64-slot cache: most lookups evict another pair, and the dictionary behind it decides.
        var index = new ProviderEventIndex();
        for (int round = 0; round < 2; round++)
            for (ushort id = 0; id < 1500; id++)
            {
                Assert.AreEqual(2 * id, index.Add(ProviderA, id));
                Assert.AreEqual(2 * id + 1, index.Add(ProviderB, id));
            }
        for (ushort id = 1500; id < 1600; id++) Assert.AreEqual(-1, index.Find(ProviderA, id));
        Assert.AreEqual(3000, index.Count);
    }
}
