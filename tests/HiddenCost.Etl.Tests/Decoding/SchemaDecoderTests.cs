using HiddenCost.Etl.Decoding.Schema;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.Decoding;

[TestClass]
public sealed class SchemaDecoderTests
{
    private static EventSchema Schema(params SchemaField[] fields) =>
        new(SchemaSource.EmbeddedManifest, Guid.Empty, "P", "E", fields, fields.Length);

    private static readonly SchemaField Size = new("Size", 0, FieldInType.UInt32, 0);
    private static readonly SchemaField Blob = new("Blob", 1, FieldInType.Binary, 0) { LengthKind = FieldLengthKind.FromField, LengthFieldIndex = 0 };
    private static readonly SchemaField Name = new("Name", 2, FieldInType.UnicodeString, 0);

    [TestMethod]
    public void A_zero_length_field_at_the_end_of_the_payload_is_complete()
    {
        var fields = FieldCollector.Collect(Schema(Size, Blob), new PayloadBuilder().U32(0).ToArray(), 8, null, out var status);
        Assert.AreEqual(DecodeStatus.Complete, status);
        Assert.AreEqual(2, fields.Count);
        Assert.AreEqual("", fields[1].Text);
    }

    [TestMethod]
    public void A_missing_string_is_truncation_not_an_empty_value()
    {
        var fields = FieldCollector.Collect(Schema(Size, Blob, Name), new PayloadBuilder().U32(1).U8(7).ToArray(), 8, null, out var status);
        Assert.AreEqual(DecodeStatus.Truncated, status);
        CollectionAssert.AreEqual(new[] { "Size", "Blob" }, fields.Select(f => f.Name).ToArray());
    }

    [TestMethod]
    public void A_length_beyond_the_payload_stops_with_the_fields_before_it()
    {
        var fields = FieldCollector.Collect(Schema(Size, Blob), new PayloadBuilder().U32(1000).U8(7).ToArray(), 8, null, out var status);
        Assert.AreEqual(DecodeStatus.Truncated, status);
        Assert.AreEqual("Size", fields.Single().Name);
    }

    [TestMethod]
    public void Fields_are_found_by_name_and_read_without_allocating_a_list()
    {
        var payload = new PayloadBuilder().U32(2).U8(0xAB).U8(0xCD).Utf16z("hello").ToArray();
        var schema = Schema(Size, Blob, Name);
        Assert.IsTrue(SchemaDecoder.TryFind(schema, payload, 8, "Name", out var location));
        Assert.AreEqual("hello", location.Read(payload).Utf16Text.ToString());
        Assert.IsFalse(SchemaDecoder.TryFind(schema, payload, 8, "Missing", out _));
    }

    [TestMethod]
    public void Bit_maps_name_each_set_bit()
    {
        var map = new ValueMap("Flags", true, [(0x1u, "Read"), (0x2u, "Write"), (0x8u, "Delete")]);
        Assert.AreEqual("Read | Delete", map.Format(0x9));
        Assert.AreEqual("Write | 0x10", map.Format(0x12));
        Assert.IsNull(map.Format(0x10));
    }
}
