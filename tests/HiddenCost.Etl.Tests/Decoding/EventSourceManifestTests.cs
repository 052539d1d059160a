using System.Text;
using HiddenCost.Etl.Decoding.Manifest;
using HiddenCost.Etl.Decoding.Schema;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.Decoding;

/// <summary>
/// EventSources log their own instrumentation manifest (ManifestData, event 0xFFFE): the net.4.5.2 samples hold
/// PerfView's, the TPL's and the framework's, whose events are decoded by name from them.
/// </summary>
[TestClass]
public sealed class EventSourceManifestTests
{
    private const string X64 = "perfview/net.4.5.2.x64.etl.zip", X86 = "perfview/net.4.5.2.x86.etl.zip";
    private static readonly Guid Tpl = new("2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5");
    private static readonly Guid PerfView = new("a8a71ac1-040f-54a2-07ca-00a89b5ab761");

    [TestMethod]
    [DataRow(X64, 118, 2)]
    [DataRow(X86, 119, 3)]
    public void The_net452_samples_log_four_EventSource_manifests_and_every_event_of_theirs_decodes_by_name(string sample, int events, int dequeued)
    {
        var scan = SampleScan.Of(sample);
        Assert.AreEqual(4, scan.Count("ManifestData"));
        Assert.AreEqual(4, scan.Generic.Catalog.EventSourceManifests);
        Assert.AreEqual(0, scan.Generic.Catalog.Errors.Count, string.Join("; ", scan.Generic.Catalog.Errors));
        // 23 PerfView events, 12 TPL, 128 framework; the 61 MetaData schemas name none of them.
        Assert.AreEqual(61 + 23 + 12 + 128, scan.Generic.Catalog.SchemaCount);
        var counts = scan.EventSourceEvents.GroupBy(e => $"{e.Schema.ProviderName}/{e.Schema.EventName}").ToDictionary(g => g.Key, g => g.Count());
        Assert.AreEqual(53, counts["PerfView/PerfViewLog"]);
        Assert.AreEqual(37, counts["PerfView/ProviderEnableParameters"]);
        Assert.AreEqual(3, counts["System.Threading.Tasks.TplEventSource/TaskScheduled/Send"]);
        Assert.AreEqual(1, counts["System.Threading.Tasks.TplEventSource/TaskExecute/Stop"]);
        Assert.AreEqual(3, counts["System.Diagnostics.Eventing.FrameworkEventSource/ThreadPoolEnqueueWork"]);
        Assert.AreEqual(dequeued, counts["System.Diagnostics.Eventing.FrameworkEventSource/ThreadPoolDequeueWork"]);
        Assert.AreEqual(events, scan.EventSourceEvents.Count);
        Assert.IsTrue(scan.EventSourceEvents.All(e => e.Status == DecodeStatus.Complete));
        Assert.IsFalse(scan.ManifestProvidersWithoutSchema.Contains(Tpl));
        Assert.IsFalse(scan.ManifestProvidersWithoutSchema.Contains(PerfView));
    }

    [TestMethod]
    public void A_TPL_task_scheduled_event_decodes_its_fields_from_the_manifest()
    {
        var scheduled = SampleScan.Of(X64).EventSourceEvents.First(e => e.Provider == Tpl && e.Id == 7);
        Assert.AreEqual("TaskScheduled/Send", scheduled.Schema.EventName);
        Assert.AreEqual("TaskScheduled", scheduled.Schema.TaskName);
        Assert.AreEqual((byte)9, scheduled.Schema.Opcode);
        CollectionAssert.AreEqual(new[] { "OriginatingTaskSchedulerID", "OriginatingTaskID", "TaskID", "CreatingTaskID", "TaskCreationOptions" },
            scheduled.Fields.Select(f => f.Name).ToArray());
        CollectionAssert.AreEqual(new object[] { 1L, 5L, 6L, 0L, 8192L }, scheduled.Fields.Select(f => f.Value).ToArray());
        Assert.AreEqual(3988, scheduled.ProcessId);
    }

    [TestMethod]
    public void PerfView_names_its_kernel_keywords_through_the_manifests_bit_map()
    {
        var enable = SampleScan.Of(X64).EventSourceEvents.Single(e => e.Provider == PerfView && e.Schema.EventName == "KernelEnableParameters");
        var keywords = enable.Fields.Single(f => f.Name == "keywords");
        Assert.AreEqual(16852751UL, Convert.ToUInt64(keywords.Value));
        StringAssert.StartsWith(keywords.Text, "DiskFileIO | DiskIO | ImageLoad | MemoryHardFaults | NetworkTCPIP | Process");
    }

    // ---- the envelope and its chunks ----

    private static byte[] Envelope(ushort total, ushort number, string xml, byte format = 1, byte magic = 0x5B) =>
        new PayloadBuilder().U8(format).U8(1).U8(0).U8(magic).U16(total).U16(number).Bytes(Encoding.UTF8.GetBytes(xml)).ToArray();

    private static readonly Guid Provider = new("11111111-2222-3333-4444-555555555555");

    private const string Small = """
        <instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events"><instrumentation><events>
        <provider name="Demo" guid="{11111111-2222-3333-4444-555555555555}">
         <tasks><task name="Work" value="3"><opcodes><opcode name="Pulse" value="11"/></opcodes></task></tasks>
         <opcodes><opcode name="Custom" value="12"/></opcodes>
         <maps><bitMap name="Flags"><map value="0x1" message="$(string.f1)"/><map value="0x4" message="Four"/></bitMap></maps>
         <events>
          <event value="1" version="2" opcode="win:Start" task="Work" template="T1"/>
          <event value="2" opcode="Pulse" task="Work" template="T2"/>
          <event value="3" opcode="Custom" symbol="Named" template="Missing"/>
          <event value="4" symbol="Named"/>
          <event value="5" opcode="Custom" symbol="CustomEvent"/>
         </events>
         <templates>
          <template tid="T1"><data name="Count" inType="win:UInt16"/><data name="Items" inType="win:Int32" count="Count"/>
           <data name="Text" inType="win:UnicodeString"/><data name="Mask" inType="win:UInt32" map="Flags"/></template>
          <template tid="T2"><struct name="Pair" count="2"><data name="A" inType="win:UInt8"/><data name="B" inType="win:UInt8"/></struct>
           <data name="Size" inType="win:UInt32"/><data name="Blob" inType="win:Binary" length="Size"/></template>
         </templates>
        </provider></events></instrumentation>
        <localization><resources culture="en-US"><stringTable><string id="f1" value="One"/></stringTable></resources></localization>
        </instrumentationManifest>
        """;

    private static SchemaCatalog Learn(params byte[][] chunks)
    {
        var catalog = new SchemaCatalog();
        foreach (var chunk in chunks)
            Assert.IsTrue(catalog.Observe(SyntheticEvent.Manifest(Provider, 0xFFFE, 1, chunk, opcode: 254)));
        return catalog;
    }

    [TestMethod]
    public void A_manifest_sent_in_chunks_is_read_once_every_chunk_has_come()
    {
        int half = Small.Length / 2;
        var catalog = Learn(Envelope(2, 0, Small[..half]));
        Assert.AreEqual(0, catalog.EventSourceManifests);
        catalog.Observe(SyntheticEvent.Manifest(Provider, 0xFFFE, 1, Envelope(2, 1, Small[half..]), opcode: 254));
        Assert.AreEqual(1, catalog.EventSourceManifests);
        Assert.AreEqual("Demo", catalog.ProviderName(Provider));
        // Event 3's template is missing: left out and said; the others are read.
        Assert.AreEqual(4, catalog.SchemaCount);
        Assert.AreEqual(1, catalog.Errors.Count);
        StringAssert.Contains(catalog.Errors[0], "event 3: template 'Missing' is missing");
    }

    [TestMethod]
    public void Tasks_opcodes_counts_lengths_structs_and_bit_maps_of_a_manifest_decode()
    {
        var catalog = Learn(Envelope(1, 0, Small));
        Assert.IsTrue(catalog.TryGetSchema(Provider, 1, 2, out var start));
        Assert.AreEqual("Work/Start", start.EventName);
        Assert.AreEqual((ushort)3, start.Task);
        Assert.AreEqual((byte)1, start.Opcode);
        var payload = new PayloadBuilder().U16(2).I32(-1).I32(7).Utf16z("hi").U32(5).ToArray();
        var fields = FieldCollector.Collect(start, payload, 8, catalog, out var status);
        Assert.AreEqual(DecodeStatus.Complete, status);
        CollectionAssert.AreEqual(new[] { "Count", "Items", "Items", "Text", "Mask" }, fields.Select(f => f.Name).ToArray());
        Assert.AreEqual(-1L, fields[1].Value);
        Assert.AreEqual("hi", fields[3].Value);
        Assert.AreEqual("One | Four", fields[4].Text);

        Assert.IsTrue(catalog.TryGetSchema(Provider, 2, 0, out var pulse));
        Assert.AreEqual("Work/Pulse", pulse.EventName);
        Assert.AreEqual((byte)11, pulse.Opcode, "a task's own opcode");
        var blob = FieldCollector.Collect(pulse, new PayloadBuilder().U8(1).U8(2).U8(3).U8(4).U32(3).Bytes(9, 9, 9).ToArray(), 8, catalog, out status);
        Assert.AreEqual(DecodeStatus.Complete, status);
        CollectionAssert.AreEqual(new[] { "A", "B", "A", "B", "Size", "Blob" }, blob.Select(f => f.Name).ToArray());

        // Named task/opcode as TraceEvent and TDH name them; by its symbol only when it has neither.
        Assert.IsTrue(catalog.TryGetSchema(Provider, 4, 0, out var named));
        Assert.AreEqual("Named", named.EventName);
        Assert.AreEqual(0, named.Fields.Count);
        Assert.IsTrue(catalog.TryGetSchema(Provider, 5, 0, out var custom));
        Assert.AreEqual("Custom", custom.EventName);
        Assert.AreEqual((byte)12, custom.Opcode);
    }

    [TestMethod]
    public void A_modern_EventSources_start_event_is_named_task_and_opcode_not_by_its_method()
    {
        // .NET 4.6+ and .NET Core EventSources write symbol="<method>" on every event.
        var xml = Small.Replace("""<event value="1" version="2" opcode="win:Start" task="Work" template="T1"/>""",
            """<event value="1" version="2" symbol="WorkStart" opcode="win:Start" task="Work" template="T1"/>""");
        Assert.IsTrue(Learn(Envelope(1, 0, xml)).TryGetSchema(Provider, 1, 2, out var start));
        Assert.AreEqual("Work/Start", start.EventName);
    }

    [TestMethod]
    public void MetaData_schemas_win_over_an_EventSources_own_and_each_different_manifest_adds_its_events()
    {
        var catalog = new SchemaCatalog();
        var meta = new EventSchema(SchemaSource.EmbeddedManifest, Provider, "FromMetaData", "M", Array.Empty<SchemaField>(), 0) { EventId = 1, Version = 2 };
        catalog.Add(meta);
        catalog.Observe(SyntheticEvent.Manifest(Provider, 0xFFFE, 1, Envelope(1, 0, Small), opcode: 254));
        Assert.IsTrue(catalog.TryGetSchema(Provider, 1, 2, out var kept));
        Assert.AreSame(meta, kept);
        // Another process's version of the source, smaller (a newer one may have dropped events): its new event
        // version is added, the events both describe take the later manifest's description.
        var newer = Small.Replace("""<event value="4" symbol="Named"/>""", """<event value="4" version="1" symbol="Four"/>""")
            .Replace("""<event value="5" opcode="Custom" symbol="CustomEvent"/>""", "");
        catalog.Observe(SyntheticEvent.Manifest(Provider, 0xFFFE, 1, Envelope(1, 0, newer), opcode: 254));
        Assert.IsTrue(catalog.TryGetSchema(Provider, 4, 1, out var four));
        Assert.AreEqual("Four", four.EventName);
        Assert.IsTrue(catalog.TryGetSchema(Provider, 4, 0, out var named));
        Assert.AreEqual("Named", named.EventName);
        Assert.IsTrue(catalog.TryGetSchema(Provider, 5, 0, out _));
        Assert.AreEqual(2, catalog.EventSourceManifests);
    }

    [TestMethod]
    public void Two_processes_sending_one_providers_manifest_in_chunks_at_once_are_both_put_together()
    {
        // Every process using the TPL's or the framework's EventSource sends its manifest at the same enable.
        var catalog = new SchemaCatalog();
        string a = Small, b = Small.Replace("name=\"Demo\"", "name=\"DemoB\"");
        void Send(int process, ushort number, string text) =>
            catalog.Observe(SyntheticEvent.Manifest(Provider, 0xFFFE, 1, Envelope(2, number, text), processId: process, threadId: process + 1, opcode: 254));
        Send(100, 0, a[..(a.Length / 2)]);
        Send(200, 0, b[..(b.Length / 2)]);
        Send(100, 1, a[(a.Length / 2)..]);
        Send(200, 1, b[(b.Length / 2)..]);
        Assert.AreEqual(2, catalog.EventSourceManifests);
        Assert.IsFalse(catalog.Errors.Any(e => e.Contains("chunk")), string.Join("; ", catalog.Errors));
        Assert.AreEqual("Demo", catalog.ProviderName(Provider), "the first name learned stays");
    }

    [TestMethod]
    public void Chunks_of_one_sending_with_different_envelope_versions_are_dropped()
    {
        var second = Envelope(2, 1, Small[100..]);
        second[1] = 2;
        var catalog = Learn(Envelope(2, 0, Small[..100]), second);
        Assert.AreEqual(0, catalog.EventSourceManifests);
        StringAssert.Contains(catalog.Errors.Single(), "chunk 1 of 2 (version 2.0) where chunk 1 of 2 (version 1.0) was due");
    }

    [TestMethod]
    public void The_runtimes_own_ManifestData_is_not_used()
    {
        var runtime = new Guid("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
        var catalog = new SchemaCatalog();
        var chunk = Envelope(1, 0, Small.Replace(Provider.ToString(), runtime.ToString()));
        Assert.IsTrue(catalog.Observe(SyntheticEvent.Manifest(runtime, 0xFFFE, 1, chunk, opcode: 254)));
        Assert.AreEqual(0, catalog.EventSourceManifests);
        Assert.AreEqual(0, catalog.SchemaCount);
    }

    [TestMethod]
    public void Incomplete_manifests_together_hold_at_most_32_MiB()
    {
        var catalog = new SchemaCatalog();
        var chunk = new string('x', 60_000);
        for (int thread = 0; thread < 5 && catalog.Errors.Count == 0; thread++)
            for (ushort n = 0; n < 139 && catalog.Errors.Count == 0; n++)
                catalog.Observe(SyntheticEvent.Manifest(Provider, 0xFFFE, 1, Envelope(1000, n, chunk), threadId: thread, opcode: 254));
        // The sending begun first gives way to the one going on.
        StringAssert.Contains(catalog.Errors.Single(), "incomplete EventSource manifests hold more than 33,554,432 bytes: the manifest of "
            + $"{Provider} that process 1 (thread 0) began sending first, still incomplete at chunk 139 of 1000, dropped");
    }

    [TestMethod]
    public void Sendings_broken_off_long_ago_give_way_to_later_manifests()
    {
        // A process that exited (or lost events) mid-sending never completes its manifest.
        var catalog = new SchemaCatalog();
        for (int thread = 0; thread < 64; thread++)
            catalog.Observe(SyntheticEvent.Manifest(Provider, 0xFFFE, 1, Envelope(2, 0, "<m"), threadId: thread, opcode: 254));
        int half = Small.Length / 2;
        catalog.Observe(SyntheticEvent.Manifest(Provider, 0xFFFE, 1, Envelope(2, 0, Small[..half]), threadId: 999, opcode: 254));
        catalog.Observe(SyntheticEvent.Manifest(Provider, 0xFFFE, 1, Envelope(2, 1, Small[half..]), threadId: 999, opcode: 254));
        Assert.AreEqual(1, catalog.EventSourceManifests);
        StringAssert.Contains(catalog.Errors[0], "more than 64 EventSource manifests incomplete at once: the manifest of "
            + $"{Provider} that process 1 (thread 0) began sending first, still incomplete at chunk 1 of 2, dropped");
    }

    [TestMethod]
    public void The_same_manifest_sent_again_counts_but_is_not_read_again()
    {
        // Small's event 3 names a missing template: each reading of it says so once.
        var catalog = Learn(Envelope(1, 0, Small), Envelope(1, 0, Small));
        Assert.AreEqual(2, catalog.EventSourceManifests);
        Assert.AreEqual(1, catalog.Errors.Count, string.Join("; ", catalog.Errors));
    }

    [TestMethod]
    [DataRow(2, 1, "chunk 1 of 2 without the chunks before it")]
    [DataRow(2, 2, "chunk 2 of 2")]
    public void A_chunk_out_of_its_place_is_said_and_not_used(int total, int number, string error)
    {
        var catalog = Learn(Envelope((ushort)total, (ushort)number, Small));
        Assert.AreEqual(0, catalog.EventSourceManifests);
        StringAssert.Contains(catalog.Errors.Single(), error);
    }

    [TestMethod]
    public void A_sending_broken_off_is_dropped_and_the_next_one_read()
    {
        var catalog = Learn(Envelope(3, 0, "<a"), Envelope(3, 2, "b>"), Envelope(1, 0, Small));
        StringAssert.Contains(catalog.Errors[0], "chunk 2 of 3 (version 1.0) where chunk 1 of 3 (version 1.0) was due");
        Assert.AreEqual(1, catalog.EventSourceManifests);
    }

    [TestMethod]
    [DataRow(2, 0x5B, "format 2")]
    [DataRow(1, 0x00, "magic 0x00")]
    public void An_envelope_that_is_not_an_XML_manifest_is_said(int format, int magic, string error)
    {
        var catalog = Learn(Envelope(1, 0, Small, (byte)format, (byte)magic));
        Assert.AreEqual(0, catalog.SchemaCount);
        StringAssert.Contains(catalog.Errors.Single(), error);
    }

    [TestMethod]
    public void A_short_payload_is_said()
    {
        var catalog = Learn(new byte[] { 1, 1, 0 }, new byte[] { 1, 1, 0, 0x5B, 1, 0, 0, 0 });
        StringAssert.Contains(catalog.Errors[0], "ManifestData payload is 3 bytes");
        StringAssert.Contains(catalog.Errors[1], "ManifestData payload is 8 bytes: an 8-byte envelope and a chunk expected");
    }

    [TestMethod]
    public void A_manifest_growing_past_the_limit_is_dropped_without_holding_it()
    {
        var chunk = Envelope(ushort.MaxValue, 0, new string('x', 60_000));
        var catalog = new SchemaCatalog();
        catalog.Observe(SyntheticEvent.Manifest(Provider, 0xFFFE, 1, chunk, opcode: 254));
        for (ushort n = 1; catalog.Errors.Count == 0 && n < 200; n++)
            catalog.Observe(SyntheticEvent.Manifest(Provider, 0xFFFE, 1, Envelope(ushort.MaxValue, n, new string('x', 60_000)), opcode: 254));
        StringAssert.Contains(catalog.Errors.Single(), "grows beyond 8,388,608 bytes");
    }

    // ---- the XML ----

    [TestMethod]
    public void A_manifest_with_a_DTD_is_refused_without_expanding_entities()
    {
        const string bomb = """
            <?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
            <instrumentationManifest><provider name="&c;" guid="{11111111-2222-3333-4444-555555555555}"/></instrumentationManifest>
            """;
        Assert.IsNull(InstrumentationManifestParser.Parse(Encoding.UTF8.GetBytes(bomb), out var error));
        StringAssert.Contains(error, "not well-formed XML");
    }

    [TestMethod]
    [DataRow("<m", "not well-formed XML")]
    [DataRow("<m><events/></m>", "names no provider")]
    [DataRow("<m><provider name=\"x\" guid=\"nope\"/></m>", "'nope' is not a GUID")]
    public void Text_that_is_not_a_usable_manifest_is_said(string xml, string error)
    {
        Assert.IsNull(InstrumentationManifestParser.Parse(Encoding.UTF8.GetBytes(xml), out var said));
        StringAssert.Contains(said, error);
    }

    [TestMethod]
    [DataRow("<data name=\"X\" inType=\"win:Int32\" count=\"Later\"/><data name=\"Later\" inType=\"win:UInt16\"/>", "takes its count from 'Later', which is not an earlier field")]
    [DataRow("<data name=\"X\" inType=\"win:Mystery\"/>", "in-type 'win:Mystery'")]
    [DataRow("<data name=\"X\" inType=\"win:Int32\" count=\"70000\"/>", "count 70000, beyond 65,535")]
    public void A_template_that_cannot_be_used_leaves_its_events_out_and_says_why(string data, string problem)
    {
        string xml = $"""
            <m><provider name="P" guid="{Provider}"><events><event value="1" template="T"/><event value="2"/></events>
            <templates><template tid="T">{data}</template></templates></provider></m>
            """;
        var manifest = InstrumentationManifestParser.Parse(Encoding.UTF8.GetBytes(xml), out var error);
        Assert.IsNotNull(manifest, error);
        Assert.AreEqual((ushort)2, manifest.Schemas.Single().EventId);
        Assert.AreEqual(2, manifest.Problems.Count, string.Join("; ", manifest.Problems));
        StringAssert.Contains(manifest.Problems[0], problem);
        Assert.AreEqual("event 1: template 'T' cannot be used; event left out", manifest.Problems[1]);
    }

    [TestMethod]
    public void A_template_shared_by_many_events_costs_in_proportion_to_the_XML()
    {
        // Each event's schema shares its template's fields: 4,000 fields x 4,000 events took 1 GB and seconds.
        string fields = string.Concat(Enumerable.Range(0, 4000).Select(i => $"<data name=\"f{i}\" inType=\"win:UInt8\"/>"));
        string events = string.Concat(Enumerable.Range(1, 4000).Select(i => $"<event value=\"{i}\" template=\"T\"/>"));
        var xml = Encoding.UTF8.GetBytes($"<m><provider name=\"P\" guid=\"{Provider}\"><events>{events}</events><templates><template tid=\"T\">{fields}</template></templates></provider></m>");
        long before = GC.GetAllocatedBytesForCurrentThread();
        var manifest = InstrumentationManifestParser.Parse(xml, out var error);
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.AreEqual(4000, manifest!.Schemas.Count, error);
        Assert.AreSame(manifest.Schemas[0].Fields, manifest.Schemas[3999].Fields);
        Assert.IsTrue(allocated < 50L * xml.Length, $"{allocated:N0} bytes allocated for {xml.Length:N0} bytes of XML");
    }

    [TestMethod]
    public void XML_nested_deeper_than_any_manifest_is_refused_before_it_is_loaded()
    {
        string xml = string.Concat(Enumerable.Repeat("<a>", 20_000)) + string.Concat(Enumerable.Repeat("</a>", 20_000));
        Assert.IsNull(InstrumentationManifestParser.Parse(Encoding.UTF8.GetBytes(xml), out var error));
        Assert.AreEqual("manifest nests elements deeper than 32", error);
    }

    /// <summary>` a0="" a1="" …`: <paramref name="count"/> attributes for an element's tag.</summary>
    private static string EmptyAttributes(int count) => string.Concat(Enumerable.Range(0, count).Select(i => $" a{i}=\"\""));

    [TestMethod]
    [DataRow(257)]
    [DataRow(500_000)]
    public void An_element_with_hundreds_of_attributes_is_refused_before_XmlReader_reads_it(int attributes)
    {
        // XmlReader's time grows with the square of one element's attributes (250,000: 0.9 s); manifests have ten.
        string xml = "<m" + EmptyAttributes(attributes) + "/>";
        Assert.IsNull(InstrumentationManifestParser.Parse(Encoding.UTF8.GetBytes(xml), out var error));
        Assert.AreEqual("manifest has an element with more than 256 attributes", error);
    }

    [TestMethod]
    public void An_element_with_256_attributes_is_read()
    {
        string attributes = EmptyAttributes(254);
        string xml = Small.Replace("<provider name=", $"<provider{attributes} name=");
        Assert.IsNotNull(InstrumentationManifestParser.Parse(Encoding.UTF8.GetBytes(xml), out var error), error);
    }

    [TestMethod]
    public void Equals_signs_in_comments_text_and_attribute_values_are_not_counted_as_attributes()
    {
        string many = new('=', 300);
        string xml = Small
            .Replace("<instrumentation>", $"<!-- {many} --><instrumentation>")
            .Replace("""<string id="f1" value="One"/>""", $"""<string id="f1" value="One"/><string id="x" value="{many}"/><string id="y" value='{many}'/>""")
            .Replace("</localization>", $"</localization><notes>{many}<![CDATA[{many}]]></notes><?note {many}?>");
        var manifest = InstrumentationManifestParser.Parse(Encoding.UTF8.GetBytes(xml), out var error);
        Assert.IsNotNull(manifest, error);
        Assert.AreEqual(4, manifest.Schemas.Count);
    }

    [TestMethod]
    [DataRow("\">\"")]
    [DataRow("'>'")]
    [DataRow("\"<OnEventCommand>\"")]
    public void A_closing_bracket_inside_a_quoted_value_does_not_end_the_count_of_attributes(string value)
    {
        string xml = $"<m x={value}" + EmptyAttributes(300) + "/>";
        Assert.IsNull(InstrumentationManifestParser.Parse(Encoding.UTF8.GetBytes(xml), out var error));
        Assert.AreEqual("manifest has an element with more than 256 attributes", error);
    }

    [TestMethod]
    [DataRow("<!-->")]
    [DataRow("<!--->")]
    public void A_comment_opened_with_a_closing_bracket_does_not_hide_the_attributes_after_it(string opener)
    {
        // Read as closed at once, the comment's "<?" hid the rest of the XML from the count while XmlReader read it all.
        string xml = $"{opener}<?-->" + "<m" + EmptyAttributes(300) + "/>";
        Assert.IsNull(InstrumentationManifestParser.Parse(Encoding.UTF8.GetBytes(xml), out var error));
        Assert.AreEqual("manifest has an element with more than 256 attributes", error);
    }

    [TestMethod]
    [DataRow("utf-16")]
    [DataRow("utf-32")]
    [DataRow("us-ascii")]
    public void A_manifest_is_read_as_UTF8_whatever_encoding_its_declaration_names(string declared)
    {
        // XmlReader given the bytes switched to the declared encoding: it refused UTF-8 declared UTF-16, and read the
        // same bytes otherwise than the attribute count before it had.
        string xml = $"<?xml version=\"1.0\" encoding=\"{declared}\"?>" + Small.Replace("""value="One"/>""", """value="Oné ∀"/>""");
        var manifest = InstrumentationManifestParser.Parse(Encoding.UTF8.GetBytes(xml), out var error);
        Assert.IsNotNull(manifest, error);
        Assert.AreEqual("Oné ∀", manifest.Maps.Single(m => m.Name == "Flags").Format(1));
    }

    [TestMethod]
    public void A_manifest_declared_UTF32_and_written_so_without_a_byte_order_mark_is_not_read()
    {
        // U+2200's UTF-32 bytes hold a '"', which would throw the byte scan's quotes out of step with XmlReader's.
        string attributes = EmptyAttributes(300);
        var bytes = Encoding.UTF8.GetBytes("<?xml version=\"1.0\" encoding=\"utf-32\"?>")
            .Concat(new UTF32Encoding(bigEndian: false, byteOrderMark: false).GetBytes($"<m v=\"\u2200\"{attributes}/>")).ToArray();
        Assert.IsNull(InstrumentationManifestParser.Parse(bytes, out var error));
        StringAssert.StartsWith(error, "manifest is not well-formed XML");
    }

    [TestMethod]
    public void A_manifest_in_UTF16_is_refused_as_ManifestData_format_1_is_UTF8()
    {
        var utf16 = Encoding.Unicode.GetPreamble().Concat(Encoding.Unicode.GetBytes(Small)).ToArray();
        Assert.IsNull(InstrumentationManifestParser.Parse(utf16, out var error));
        Assert.AreEqual("manifest is not UTF-8 XML: its first bytes are those of UTF-16 or UTF-32", error);
        Assert.IsNull(InstrumentationManifestParser.Parse(Encoding.BigEndianUnicode.GetBytes(Small), out error));
        StringAssert.StartsWith(error, "manifest is not UTF-8 XML");
        Assert.IsNotNull(InstrumentationManifestParser.Parse(Encoding.UTF8.GetPreamble().Concat(Encoding.UTF8.GetBytes(Small)).ToArray(), out error), error);
    }

    [TestMethod]
    public void The_unescaped_OnEventCommand_of_shipped_manifests_is_read_as_text()
    {
        string xml = Small.Replace("""<string id="f1" value="One"/>""", """<string id="f1" value="One"/><string id="x" value="called from <OnEventCommand>"/>""");
        var manifest = InstrumentationManifestParser.Parse(Encoding.UTF8.GetBytes(xml), out var error);
        Assert.IsNotNull(manifest, error);
        Assert.AreEqual(4, manifest.Schemas.Count);
    }

    [TestMethod]
    public void A_negative_enum_value_in_a_map_names_its_32_bit_payload_value()
    {
        // EventSource writes an Int32 enum's -1 as 0xffffffffffffffff; the payload holds 0xFFFFFFFF.
        string xml = Small.Replace("""<map value="0x4" message="Four"/></bitMap>""",
            """<map value="0x4" message="Four"/></bitMap><valueMap name="E"><map value="0xffffffffffffffff" message="Unknown"/></valueMap>""");
        var manifest = InstrumentationManifestParser.Parse(Encoding.UTF8.GetBytes(xml), out _);
        Assert.AreEqual("Unknown", manifest!.Maps.Single(m => m.Name == "E").Format(0xFFFFFFFF));
    }

    [TestMethod]
    public void A_map_value_beyond_32_bits_names_no_32_bit_value()
    {
        // A ulong flags enum's 1 << 32 is no 32-bit value: cut to 32 bits it would name 0 (and 0x100000001 would name 1).
        string xml = Small.Replace("""<map value="0x4" message="Four"/></bitMap>""",
            """<map value="0x4" message="Four"/></bitMap><valueMap name="E"><map value="0x100000001" message="Big"/><map value="0x1" message="One"/><map value="0x100000000" message="High"/></valueMap>""");
        var map = InstrumentationManifestParser.Parse(Encoding.UTF8.GetBytes(xml), out _)!.Maps.Single(m => m.Name == "E");
        Assert.AreEqual("One", map.Format(1));
        Assert.IsNull(map.Format(0));
        Assert.AreEqual(1, map.Count);
    }

    [TestMethod]
    public void Decoding_against_a_template_of_many_fields_costs_in_proportion_to_the_payload()
    {
        // A hostile manifest may hold hundreds of thousands of fields in one template; an empty payload must not
        // cost a value slot for each of them.
        var fields = Enumerable.Range(0, 700_001).Select(i => new SchemaField("f", i, FieldInType.UInt8, 0)).ToArray();
        var schema = new EventSchema(SchemaSource.EventSourceManifest, Provider, "P", "E", fields, fields.Length);
        long before = GC.GetAllocatedBytesForCurrentThread();
        var fieldsRead = FieldCollector.Collect(schema, ReadOnlySpan<byte>.Empty, 8, null, out var status);
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.AreEqual(0, fieldsRead.Count);
        Assert.AreEqual(DecodeStatus.Truncated, status);
        Assert.IsTrue(allocated < 100_000, $"{allocated:N0} bytes allocated to decode an empty payload");
    }

    [TestMethod]
    public void Structs_nested_past_the_limit_are_refused()
    {
        string open = string.Concat(Enumerable.Range(0, 12).Select(i => $"<struct name=\"S{i}\">")), close = string.Concat(Enumerable.Repeat("</struct>", 12));
        string xml = $"""<m><provider name="P" guid="{Provider}"><events><event value="1" template="T"/></events><templates><template tid="T">{open}<data name="X" inType="win:UInt8"/>{close}</template></templates></provider></m>""";
        var manifest = InstrumentationManifestParser.Parse(Encoding.UTF8.GetBytes(xml), out _);
        Assert.AreEqual(0, manifest!.Schemas.Count);
        StringAssert.Contains(manifest.Problems[0], "nested deeper than 8");
        Assert.AreEqual(2, manifest.Problems.Count);
    }
}
