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
    public void A_count_field_inside_a_struct_still_sizes_the_array_after_it()
    {
        // Only fields that size another are kept while decoding: a count met before its array must still be.
        var count = new SchemaField("Count", 1, FieldInType.UInt16, 0);
        var items = new SchemaField("Items", 2, FieldInType.UInt32, 0) { CountKind = FieldCountKind.FromField, CountFieldIndex = 1 };
        var header = new SchemaField("Header", 0, FieldInType.Struct, 0) { Members = [count] };
        var schema = new EventSchema(SchemaSource.EmbeddedManifest, Guid.Empty, "P", "E", [header, items], 3);
        var payload = new PayloadBuilder().U16(2).U32(7).U32(9).U32(11).ToArray();
        var fields = FieldCollector.Collect(schema, payload, 8, null, out var status);
        Assert.AreEqual(DecodeStatus.Complete, status);
        CollectionAssert.AreEqual(new[] { "Count", "Items", "Items" }, fields.Select(f => f.Name).ToArray());
        CollectionAssert.AreEqual(new[] { "2", "7", "9" }, fields.Select(f => f.Text).ToArray());
    }

    [TestMethod]
    [Timeout(10_000)]
    public void A_schema_whose_structs_share_members_is_built_in_linear_time_synthetic()
    {
        // Eight levels of structs, each level's 40 structs all holding the same 40 structs of the level below:
        // 40^8 paths, 321 fields. Anything that walked every path would not finish.
        var level = Enumerable.Range(0, 40).Select(i => new SchemaField($"Leaf{i}", i, FieldInType.UInt8, 0)).ToArray();
        int index = level.Length;
        for (int depth = 0; depth < 8; depth++)
        {
            var members = level;
            level = Enumerable.Range(0, 40).Select(i => new SchemaField($"S{depth}_{i}", index++, FieldInType.Struct, 0) { Members = members }).ToArray();
        }
        var schema = new EventSchema(SchemaSource.EmbeddedManifest, Guid.Empty, "P", "E", [level[0]], index);
        Assert.AreEqual(1, schema.Fields.Count);
        // Decoding it is bounded by the decoder's visit limit, not by the number of paths.
        var visitor = new Counter();
        var status = SchemaDecoder.Decode(schema, new byte[64], 8, ref visitor);
        Assert.AreEqual(DecodeStatus.Truncated, status);
        Assert.AreEqual(64, visitor.Count);
    }

    private struct Counter : IEventFieldVisitor
    {
        public int Count;

        public bool Visit(in EventField field)
        {
            Count++;
            return true;
        }
    }

    [TestMethod]
    public void A_schema_added_after_a_lookup_missed_it_is_found()
    {
        var catalog = new HiddenCost.Etl.Decoding.Manifest.SchemaCatalog();
        var provider = new Guid("0d1c8f3e-5a57-4f5b-9d2e-3c1a2b4c5d6e");
        Assert.IsFalse(catalog.TryGetSchema(provider, 5, 1, out _));
        var schema = new EventSchema(SchemaSource.EmbeddedManifest, provider, "P", "E", [Size], 1) { EventId = 5, Version = 1 };
        catalog.Add(schema);
        Assert.IsTrue(catalog.TryGetSchema(provider, 5, 1, out var found));
        Assert.AreSame(schema, found);
        Assert.IsFalse(catalog.TryGetSchema(provider, 5, 2, out _));
        Assert.IsFalse(catalog.TryGetSchema(Guid.Empty, 5, 1, out _));
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
