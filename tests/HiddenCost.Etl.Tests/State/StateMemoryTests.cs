using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.State;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.State;

/// <summary>What the state keeps per range, so that a process id reused again and again costs little (issue 37).</summary>
[TestClass]
public sealed class StateMemoryTests
{
    private static EtwEvent Method(ushort id, ulong start, uint size, string name, long t, ulong methodId = 1) =>
        SyntheticEvent.Manifest(ClrProviders.Runtime, id, 1,
            new PayloadBuilder().U64(methodId).U64(1).U64(start).U32(size).U32(0).U32(8).Utf16z("N").Utf16z(name).Utf16z("()").U16(1).ToArray(),
            processId: 3, timestamp: t);

    [TestMethod]
    public void A_method_loaded_again_at_its_address_is_a_record_of_its_own_with_the_same_names_synthetic()
    {
        var state = new TraceState();
        state.Observe(Method(143, 0x5000, 0x40, "Run", 10));
        state.Observe(Method(144, 0x5000, 0x40, "Run", 20));
        state.Observe(Method(143, 0x5000, 0x40, "Run", 30));
        state.Observe(Method(144, 0x5000, 0x40, "Run", 40));
        state.Observe(Method(143, 0x5000, 0x40, "Run", 50, methodId: 2)); // another method id: not the same method
        var records = state.MethodsOf(3);
        Assert.AreEqual(3, records.Count);
        Assert.AreEqual(3, state.MethodCount);
        var (first, second, third) = (records[0], records[1], records[2]);
        Assert.AreEqual((10L, 20L, 30L, 40L, 50L, Lifetime.AfterTrace),
            (first.LoadTimeNs, first.UnloadTimeNs, second.LoadTimeNs, second.UnloadTimeNs, third.LoadTimeNs, third.UnloadTimeNs));
        Assert.AreEqual(("N.Run", "()", 0x5000UL, 0x40U, 1UL, 1UL, 3), (second.FullName, second.Signature, second.Start, second.Size, second.MethodId, second.ModuleId, second.ProcessId));
        Assert.AreEqual((2UL, "N.Run"), (third.MethodId, third.FullName));
        Assert.AreSame(first, state.FindMethod(3, 0x5010, 15));
        Assert.AreSame(first, state.FindMethod(3, 0x5010, 25), "between the two, the latest earlier range");
        Assert.AreSame(second, state.FindMethod(3, 0x5010, 35));
        Assert.AreSame(second, state.FindMethod(3, 0x5010, 45));
        Assert.AreSame(third, state.FindMethod(3, 0x5010, 55));
    }

    private sealed class Range(int order, ulong start) : IAddressRange
    {
        public int Order { get; } = order;
        public ulong RangeStart { get; } = start;
        public ulong RangeLength => 0x10;
        public long RangeLoad => Order;
        public long RangeUnload => Order + 1;
    }

    [TestMethod]
    public void Ranges_merged_batch_by_batch_keep_the_order_of_their_starts_and_of_addition_among_equal_starts()
    {
        var table = new RangeTable<Range>();
        var random = new Random(37);
        var added = new List<Range>();
        for (int i = 0; i < 5_000; i++)
        {
            var range = new Range(i, 0x1000 + (ulong)random.Next(300) * 0x10);
            table.Add(range);
            added.Add(range);
            if (i % 700 == 0) _ = table.Items; // a merge with a part-filled batch too
        }
        var expected = added.OrderBy(r => r.RangeStart).ThenBy(r => r.Order).Select(r => r.Order).ToArray();
        CollectionAssert.AreEqual(expected, table.Items.Select(r => r.Order).ToArray());
    }
}
