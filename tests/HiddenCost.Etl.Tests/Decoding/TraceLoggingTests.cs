using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Decoding.Schema;
using HiddenCost.Etl.Decoding.TraceLogging;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.Decoding;

[TestClass]
public sealed class TraceLoggingTests
{
    [TestMethod]
    public void SelfDescribingSingleEvent_decodes_its_one_event_with_field_names()
    {
        var scan = SampleScan.Of("perfview/SelfDescribingSingleEvent.etl");
        var e = scan.TraceLoggingEvents.Single();
        Assert.AreEqual("MySource", e.Schema.ProviderName);
        Assert.AreEqual("TestEvent", e.Schema.EventName);
        Assert.AreEqual(DecodeStatus.Complete, e.Status);
        CollectionAssert.AreEqual(new[] { "a.b=Hello", "a.c=World!" }, e.Fields.Select(f => $"{f.Path}={f.Text}").ToArray());
        Assert.AreEqual("a", e.Schema.Fields.Single().Name);
        Assert.IsTrue(e.Schema.Fields[0].IsStruct);
    }

    [TestMethod]
    public void Primitive_types_decode_every_value_of_the_five_events()
    {
        var events = SampleScan.Of("perfview/primitive-types.etl.zip").TraceLoggingEvents;
        Assert.AreEqual(5, events.Count);
        Assert.IsTrue(events.All(e => e.Status == DecodeStatus.Complete && e.Schema.ProviderName == "solar_system" && e.Schema.EventName == "PrimitiveTypesTest"));
        var mercury = events[0].Fields.ToDictionary(f => f.Name);
        Assert.AreEqual("Mercury", mercury["string_type"].Value);
        Assert.AreEqual(false, mercury["boolean_type"].Value);
        Assert.AreEqual("M", mercury["char_type"].Text);
        Assert.AreEqual(-51L, mercury["int16_type"].Value);
        Assert.AreEqual(-102L, mercury["int32_type"].Value);
        Assert.AreEqual(51UL, mercury["uint16_type"].Value);
        Assert.AreEqual(102UL, mercury["uint32_type"].Value);
        // The sample's own metadata declares int64_type as UINT64 (in-type 10): the decoder follows the schema.
        Assert.AreEqual(unchecked((ulong)-204L), mercury["int64_type"].Value);
        Assert.AreEqual(204UL, mercury["uint64_type"].Value);
        Assert.AreEqual(new Guid("0ad614c4-0ef4-4225-8013-f44f37cb0397"), mercury["guid_type"].Value);
        Assert.AreEqual(new DateTime(2021, 9, 9, 14, 59, 35, 799, DateTimeKind.Utc), mercury["file_time_type"].Value);
        CollectionAssert.AreEqual(new[] { "Mercury", "Venus", "Earth", "Mars", "Jupiter" }, events.Select(e => e.Fields[0].Text).ToArray());
    }

    [TestMethod]
    public void TraceLoggingTester_has_70_TraceLogging_events_every_one_with_a_stack()
    {
        var scan = SampleScan.Of("etwanalyzer/TraceLoggingTester.etl.zip");
        Assert.AreEqual(70, scan.TraceLoggingEvents.Count);
        Assert.IsTrue(scan.TraceLoggingEvents.All(e => e.Status == DecodeStatus.Complete));
        Assert.IsTrue(scan.TraceLoggingEvents.All(e => e.StackTicket >= 0 && !scan.Stacks.StackOf(e.StackTicket).IsNone));
        var names = scan.TraceLoggingEvents.GroupBy(e => e.Schema.EventName).ToDictionary(g => g.Key, g => g.Count());
        Assert.AreEqual(7, names.Count);
        Assert.IsTrue(names.Values.All(n => n == 10));
        var mark = scan.TraceLoggingEvents.First(e => e.Schema.EventName == "MarkStringInteger");
        Assert.AreEqual("CSharpTraceLoggingEventSource", mark.Schema.ProviderName);
        CollectionAssert.AreEqual(new[] { "input=Hello, ETW with number", "number1=42" }, mark.Fields.Select(f => $"{f.Name}={f.Text}").ToArray());
        var list = scan.TraceLoggingEvents.First(e => e.Schema.EventName == "WriteIntList");
        CollectionAssert.AreEqual(new[] { "numbers[0]", "numbers[1]", "numbers[2]", "numbers[3]" }, list.Fields.Select(f => f.Path).ToArray());
    }

    [TestMethod]
    public void TraceLogging_stacks_resolve_into_the_logging_process_images()
    {
        var scan = SampleScan.Of("etwanalyzer/TraceLoggingTester.etl.zip");
        var e = scan.TraceLoggingEvents[0];
        var frames = scan.Stacks.Store.GetFrames(scan.Stacks.StackOf(e.StackTicket));
        Assert.AreEqual(9, frames.Count);
        var leaf = scan.State.ResolveFrame(e.ProcessId, frames[0], e.TimeNs);
        Assert.IsTrue(leaf.IsResolved, leaf.Name);
    }

    [TestMethod]
    public void Array_and_struct_fields_decode_from_synthetic_TraceLogging_metadata()
    {
        // Metadata: size, tag 0, "Ev", field "n" UINT32 with a variable count (0x40|8), struct "s" (0x80|24, 2 members) of "x" INT16 and "t" COUNTEDSTRING.
        var meta = new PayloadBuilder().U16(0).U8(0).Ansiz("Ev").Ansiz("n").U8(0x48).Ansiz("s").U8(0x98).U8(2).Ansiz("x").U8(5).Ansiz("t").U8(22).ToArray();
        meta[0] = (byte)meta.Length;
        var payload = new PayloadBuilder().U16(2).U32(7).U32(8).U16(unchecked((ushort)-3)).U16(4).Bytes((byte)'h', 0, (byte)'i', 0).ToArray();
        var e = SyntheticEvent.Manifest(Guid.NewGuid(), 0, 0, payload, extended: SyntheticEvent.ExtendedItem(ExtendedDataType.EventSchemaTraceLogging, meta));
        var decoder = new TraceLoggingDecoder();
        Assert.IsTrue(decoder.TryGetSchema(e, out var schema));
        var fields = FieldCollector.Collect(schema, e.Payload, 8, null, out var status);
        Assert.AreEqual(DecodeStatus.Complete, status);
        CollectionAssert.AreEqual(new[] { "n[0]=7", "n[1]=8", "s.x=-3", "s.t=hi" }, fields.Select(f => $"{f.Path}={f.Text}").ToArray());
        Assert.IsTrue(decoder.TryGetSchema(e, out var cached));
        Assert.AreSame(schema, cached);
        Assert.AreEqual(1, decoder.SchemaCount);
    }

    [TestMethod]
    public void Truncated_TraceLogging_payload_delivers_the_fields_before_the_cut_synthetic()
    {
        var meta = new PayloadBuilder().U16(0).U8(0).Ansiz("Ev").Ansiz("a").U8(8).Ansiz("b").U8(10).ToArray();
        meta[0] = (byte)meta.Length;
        var payload = new PayloadBuilder().U32(1).U32(2).ToArray(); // b (u64) has only 4 of its 8 bytes
        var e = SyntheticEvent.Manifest(Guid.NewGuid(), 0, 0, payload, extended: SyntheticEvent.ExtendedItem(ExtendedDataType.EventSchemaTraceLogging, meta));
        Assert.IsTrue(new TraceLoggingDecoder().TryGetSchema(e, out var schema));
        var fields = FieldCollector.Collect(schema, e.Payload, 8, null, out var status);
        Assert.AreEqual(DecodeStatus.Truncated, status);
        Assert.AreEqual("a=1", fields.Single().Name + "=" + fields.Single().Text);
    }
}
