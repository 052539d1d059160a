using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Stacks;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.Stacks;

/// <summary>
/// Stack ids nobody holds are forgotten once their keys turn out to name frames the store already holds under another
/// id (issue 37: a trace defines the same stacks under new keys again and again); every id somebody holds reads as before.
/// </summary>
[TestClass]
public sealed class StackStoreForgetTests
{
    private const ulong K1 = 0xFFFFF800_00001000, K2 = 0xFFFFF800_00002000, U1 = 0x7FF6_0000_1000, U2 = 0x7FF6_0000_2000;

    [TestMethod]
    public void An_unheld_id_whose_key_names_known_frames_is_forgotten_and_a_held_one_keeps_its_frames()
    {
        var store = new StackStore();
        int kernel = store.InternPart([K1, K2]), user = store.InternPart([U1]);
        var known = store.Intern(kernel, user);
        int first = store.NewPendingPart(), second = store.NewPendingPart();
        var unheld = store.InternUnheld(kernel, first);
        var held = store.InternUnheld(kernel, second);
        store.Hold(held);
        store.ResolvePart(first, [U1]);
        store.ResolvePart(second, [U1]);
        Assert.AreEqual(1L, store.ForgottenStacks);
        Assert.AreEqual((0, 0), store.PartsOf(unheld));
        CollectionAssert.AreEqual(new[] { K1, K2, U1 }, store.GetFrames(held).ToArray());
        Assert.AreEqual(known, store.Canonical(held));
        Assert.AreEqual(known, store.Intern(kernel, user), "the index still finds the first id for those frames");
        var next = store.Intern(kernel, store.InternPart([U2]));
        Assert.AreEqual(held.Value + 1, next.Value, "ids are never given again");
    }

    [TestMethod]
    public void An_unheld_id_whose_key_names_new_frames_is_the_one_the_index_finds()
    {
        var store = new StackStore();
        int kernel = store.InternPart([K1]);
        int pending = store.NewPendingPart();
        var stack = store.InternUnheld(kernel, pending);
        store.ResolvePart(pending, [U2]);
        Assert.AreEqual(0L, store.ForgottenStacks);
        CollectionAssert.AreEqual(new[] { K1, U2 }, store.GetFrames(stack).ToArray());
        Assert.AreEqual(stack, store.Intern(kernel, store.InternPart([U2])));
    }

    [TestMethod]
    public void Chunks_of_forgotten_ids_let_their_memory_go_and_the_few_held_in_them_still_read()
    {
        var store = new StackStore();
        int kernel = store.InternPart([K1]), user = store.InternPart([U1]);
        var known = store.Intern(kernel, user);
        var held = new List<StackId>();
        for (int i = 0; i < 20_000; i++)
        {
            int pending = store.NewPendingPart();
            var id = store.InternUnheld(kernel, pending);
            if (i % 1000 == 0)
            {
                store.Hold(id);
                held.Add(id);
            }
            store.ResolvePart(pending, [U1]);
            store.Release(pending);
        }
        Assert.AreEqual(20_000L - 20, store.ForgottenStacks);
        Assert.AreEqual(1, store.StackChunksHeld, "ids 1..20,001 fill chunks of 8,192: the two complete ones went");
        foreach (var id in held)
        {
            CollectionAssert.AreEqual(new[] { K1, U1 }, store.GetFrames(id).ToArray());
            Assert.AreEqual(known, store.Canonical(id));
        }
        Assert.IsTrue(store.PartCount < 10, $"{store.PartCount} part slots: released duplicates' slots are reused");
    }

    private sealed class Passer : IStackListener
    {
        public List<StackMatch> Seen { get; } = new();
        public void OnStack(in StackMatch match) => Seen.Add(match);
        public bool Take(in StackMatch match)
        {
            OnStack(match);
            return false;
        }
    }

    private sealed class Keeper : IStackListener
    {
        public List<StackMatch> Seen { get; } = new();
        public void OnStack(in StackMatch match) => Seen.Add(match);
    }

    private static EtwEvent KeyRef(bool user, long eventTime, int tid, ulong key, long now) =>
        SyntheticEvent.Kernel(KernelGroups.StackWalk, user ? StackWalkTypes.StackKeyUser : StackWalkTypes.StackKeyKernel, 2,
            new PayloadBuilder().I64(eventTime).I32(50).I32(tid).Ptr(key).ToArray(), timestamp: now);

    private static EtwEvent KeyDelete(ulong key, long now, params ulong[] frames)
    {
        var b = new PayloadBuilder().Ptr(key);
        foreach (var f in frames) b.Ptr(f);
        return SyntheticEvent.Kernel(KernelGroups.StackWalk, StackWalkTypes.KeyDelete, 2, b.ToArray(), timestamp: now);
    }

    /// <summary>Two events get the stack of one kernel key and one user key each, the second pair naming the first's frames.</summary>
    private static void Feed(StackCollector c)
    {
        c.Observe(KeyRef(false, 100, 7, 0xA, 100));
        c.Observe(KeyRef(true, 100, 7, 0xB, 101));
        c.Observe(KeyDelete(0xA, 110, K1));
        c.Observe(KeyDelete(0xB, 111, U1));
        c.Observe(KeyRef(false, 200, 7, 0xC, 200));
        c.Observe(KeyRef(true, 200, 7, 0xD, 201));
        c.Observe(KeyDelete(0xC, 210, K1));
        c.Observe(KeyDelete(0xD, 211, U1));
    }

    [TestMethod]
    public void A_listener_that_keeps_no_stack_lets_the_collector_forget_a_repeated_one_synthetic()
    {
        var passer = new Passer();
        var c = new StackCollector(listener: passer);
        Feed(c);
        Assert.AreEqual(2, passer.Seen.Count);
        Assert.AreEqual(1L, c.Store.ForgottenStacks);
        CollectionAssert.AreEqual(new[] { K1, U1 }, c.Store.GetFrames(passer.Seen[0].Stack).ToArray(), "the first is the one the index finds");
    }

    [TestMethod]
    public void A_listener_that_only_implements_OnStack_keeps_every_stack_synthetic()
    {
        var keeper = new Keeper();
        var c = new StackCollector(listener: keeper);
        Feed(c);
        Assert.AreEqual(0L, c.Store.ForgottenStacks);
        foreach (var match in keeper.Seen) CollectionAssert.AreEqual(new[] { K1, U1 }, c.Store.GetFrames(match.Stack).ToArray());
    }

    [TestMethod]
    public void A_ticket_keeps_its_stack_whatever_the_listener_says_synthetic()
    {
        var c = new StackCollector(listener: new Passer());
        int ticket = c.Expect(200, 7, 200);
        Feed(c);
        Assert.AreEqual(0L, c.Store.ForgottenStacks);
        CollectionAssert.AreEqual(new[] { K1, U1 }, c.Store.GetFrames(c.StackOf(ticket)).ToArray());
    }
}
