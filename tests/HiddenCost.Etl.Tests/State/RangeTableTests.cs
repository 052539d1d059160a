using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.State;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.State;

[TestClass]
public sealed class RangeTableTests
{
    private static EtwEvent Method(ushort id, ulong start, uint size, string name, long t) =>
        SyntheticEvent.Manifest(id == 143 && t < 0 ? ClrProviders.Rundown : ClrProviders.Runtime, id, 1,
            new PayloadBuilder().U64(start).U64(1).U64(start).U32(size).U32(0).U32(8).Utf16z("N").Utf16z(name).Utf16z("()").U16(1).ToArray(),
            processId: 3, timestamp: Math.Max(t, 0));

    [TestMethod]
    public void Thousands_of_methods_added_in_random_order_all_resolve_synthetic()
    {
        var state = new TraceState();
        var random = new Random(5);
        var order = Enumerable.Range(0, 5_000).OrderBy(_ => random.Next()).ToArray();
        foreach (int i in order)
        {
            state.Observe(Method(143, 0x10_0000 + (ulong)i * 0x100, 0x80, "M" + i, 10));
            if (i % 997 == 0) Assert.AreEqual("N.M" + i, state.ResolveFrame(3, 0x10_0000 + (ulong)i * 0x100 + 5, 20).Name, "lookups between additions");
        }
        for (int i = 0; i < 5_000; i++)
        {
            Assert.AreEqual("N.M" + i, state.ResolveFrame(3, 0x10_0000 + (ulong)i * 0x100 + 0x7F, 20).Name);
            Assert.IsFalse(state.ResolveFrame(3, 0x10_0000 + (ulong)i * 0x100 + 0x80, 20).IsManaged, "gap between methods");
        }
        var starts = state.MethodsOf(3).Select(m => m.Start).ToArray();
        CollectionAssert.AreEqual(starts.Order().ToArray(), starts);
    }

    [TestMethod]
    public void A_reused_code_address_resolves_by_time_synthetic()
    {
        var state = new TraceState();
        state.Observe(Method(143, 0x5000, 0x40, "Old", 10));
        state.Observe(Method(144, 0x5000, 0x40, "Old", 20));
        state.Observe(Method(143, 0x5000, 0x40, "New", 30));
        Assert.AreEqual("N.Old", state.ResolveFrame(3, 0x5010, 15).Name);
        Assert.AreEqual("N.New", state.ResolveFrame(3, 0x5010, 35).Name);
        Assert.AreEqual("N.Old", state.ResolveFrame(3, 0x5010, 25).Name, "between the two, the latest earlier range");
    }
}
