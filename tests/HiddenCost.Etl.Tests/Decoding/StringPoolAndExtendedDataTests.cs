using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.Decoding;

[TestClass]
public sealed class StringPoolAndExtendedDataTests
{
    [TestMethod]
    public void Interned_text_comes_back_as_the_same_instance()
    {
        var pool = new StringPool();
        var a = pool.Intern("ntdll.dll".AsSpan());
        var b = pool.Intern(new string("ntdll.dll".ToCharArray()).AsSpan());
        Assert.AreSame(a, b);
        Assert.AreSame(a, pool.InternUtf8("ntdll.dll"u8));
        Assert.AreEqual("", pool.Intern(ReadOnlySpan<char>.Empty));
        for (int i = 0; i < 5000; i++) pool.Intern(("f" + i).AsSpan());
        Assert.AreEqual(5001, pool.Count);
        Assert.AreSame(a, pool.Intern("ntdll.dll".AsSpan()), "survives growth");
    }

    [TestMethod]
    public void Payload_strings_without_a_terminator_end_at_the_payload_end()
    {
        var bytes = new PayloadBuilder().Bytes((byte)'a', 0, (byte)'b', 0).ToArray();
        int offset = 0;
        Assert.AreEqual("ab", PayloadStrings.Utf16(bytes, ref offset, null));
        Assert.AreEqual(4, offset);
        offset = 10;
        Assert.AreEqual("", PayloadStrings.Utf16(bytes, ref offset, null));
    }

    [TestMethod]
    public void Extended_items_are_walked_in_order_and_a_bad_size_stops_the_walk()
    {
        var items = SyntheticEvent.ExtendedItem(ExtendedDataType.ProviderTraits, new byte[] { 1, 2, 3 }, linked: true)
            .Concat(SyntheticEvent.ExtendedItem(ExtendedDataType.StackTrace64, new byte[16])).ToArray();
        var types = new List<ushort>();
        foreach (var item in new ExtendedData(items)) types.Add(item.Type);
        CollectionAssert.AreEqual(new ushort[] { 12, 6 }, types);
        Assert.AreEqual(16, ExtendedData.Find(items, ExtendedDataType.StackTrace64).Length);
        items[16 + 7] = 0xFF; // the second item's DataSize becomes 0xFF10
        types.Clear();
        foreach (var item in new ExtendedData(items)) types.Add(item.Type);
        CollectionAssert.AreEqual(new ushort[] { 12 }, types);
    }
}
