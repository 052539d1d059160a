using HiddenCost.Etl.Decoding.Manifest;
using HiddenCost.Etl.Decoding.Schema;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.Decoding;

[TestClass]
public sealed class EmbeddedManifestTests
{
    private const string X64 = "perfview/net.4.5.2.x64.etl.zip";

    [TestMethod]
    public void The_x64_sample_embeds_85_MetaData_schema_events()
    {
        var generic = SampleScan.Of(X64).Generic;
        Assert.AreEqual(85, SampleScan.Of(X64).Count("MetaData"));
        Assert.AreEqual(61, generic.Catalog.EventInfoEvents);
        Assert.AreEqual(24, generic.Catalog.EventMapInfoEvents);
        Assert.AreEqual(0, generic.Catalog.Errors.Count, string.Join("; ", generic.Catalog.Errors));
    }

    [TestMethod]
    public void All_562_Kernel_File_events_decode_with_field_names_from_the_embedded_schema()
    {
        var events = SampleScan.Of(X64).EmbeddedSchemaEvents;
        Assert.AreEqual(562, events.Count);
        Assert.IsTrue(events.All(e => e.Status == DecodeStatus.Complete));
        var names = new[] { "Irp", "FileObject", "IssuingThreadId", "CreateOptions", "CreateAttributes", "ShareAccess", "FileName" };
        Assert.IsTrue(events.All(e => e.Fields.Select(f => f.Name).SequenceEqual(names)));
        var first = events[0];
        Assert.AreEqual("Microsoft-Windows-Kernel-File", first.Schema.ProviderName);
        Assert.AreEqual("Create", first.Schema.EventName);
        Assert.AreEqual((ushort)12, first.Schema.EventId);
        var fields = first.Fields.ToDictionary(f => f.Name);
        Assert.AreEqual(@"\Device\HarddiskVolume2\Windows\SysWOW64\inetsrv\iiscore.dll", fields["FileName"].Value);
        Assert.AreEqual(3780UL, fields["IssuingThreadId"].Value);
        Assert.AreEqual("0xFFFFFA830393A3E8", fields["Irp"].Text);
        Assert.AreEqual("0x1200000", fields["CreateOptions"].Text);
    }

    [TestMethod]
    public void Embedded_schemas_cover_the_runtime_providers_too()
    {
        var generic = SampleScan.Of(X64).Generic;
        // 61 from MetaData; the other 163 come from the trace's four EventSource manifests (EventSourceManifestTests).
        Assert.AreEqual(61, generic.Catalog.EventInfoEvents);
        Assert.AreEqual(224, generic.Catalog.SchemaCount);
        Assert.IsTrue(generic.Catalog.TryGetSchema(new Guid("a669021c-c450-4609-a035-5af59af4df18"), 144, 1, out var dcEnd));
        Assert.AreEqual("CLRMethodRundown/MethodDCEndVerbose", dcEnd.EventName);
        CollectionAssert.AreEqual(new[] { "MethodID", "ModuleID", "MethodStartAddress", "MethodSize", "MethodToken", "MethodFlags",
            "MethodNamespace", "MethodName", "MethodSignature", "ClrInstanceID" }, dcEnd.Fields.Select(f => f.Name).ToArray());
    }

    [TestMethod]
    public void Event_map_info_names_values()
    {
        var map = SampleScan.Of(X64).Generic.Catalog.FindMap(new Guid("1c95126e-7eea-49a9-a3fe-a378b03ddb4d"), "DnsIpTypeMap");
        Assert.IsNotNull(map);
        Assert.IsFalse(map.IsBitMap);
        Assert.AreEqual("static", map.Format(0));
        Assert.AreEqual("dynamic", map.Format(1));
        Assert.IsNull(map.Format(7));
    }

    [TestMethod]
    public void Powershell_manifest_events_have_no_embedded_schema_but_keep_their_raw_payload()
    {
        var scan = SampleScan.Of("krabsetw/powershell.etl");
        Assert.AreEqual(112, scan.Count("EventHeader"));
        Assert.AreEqual(0, scan.Generic.Catalog.SchemaCount);
        CollectionAssert.AreEqual(new[] { new Guid("a0c1853b-5c40-4b15-8766-3cf1c58f985a") }, scan.ManifestProvidersWithoutSchema.ToArray());
    }

    [TestMethod]
    public void Powershell_events_are_reachable_by_provider_and_id_with_their_payload()
    {
        using var reader = EtlReader.Open(HiddenCost.TestSupport.SharedFolder.EtlSample("krabsetw/powershell.etl"));
        var key = new ManifestEventKey(new Guid("a0c1853b-5c40-4b15-8766-3cf1c58f985a"), 7937);
        int count = 0;
        long bytes = 0;
        foreach (var e in reader.ReadEvents())
        {
            if (!key.Matches(e)) continue;
            count++;
            bytes += e.Payload.Length;
        }
        Assert.AreEqual(101, count);
        Assert.IsTrue(bytes > 0);
    }

    [TestMethod]
    public void Malformed_TRACE_EVENT_INFO_is_refused_with_a_reason()
    {
        var info = new byte[112];
        BitConverter.TryWriteBytes(info.AsSpan(100), 1000u); // 1000 properties in 112 bytes
        Assert.IsNull(TraceEventInfoParser.Parse(info, out var error));
        StringAssert.Contains(error, "1000 properties");
        Assert.IsNull(TraceEventInfoParser.Parse(new byte[40], out error));
        StringAssert.Contains(error, "40 bytes");
    }

    [TestMethod]
    public void TRACE_EVENT_INFO_with_a_length_parameter_and_a_struct_decodes_synthetic()
    {
        // Properties: 0 Len (UINT16), 1 Data (BINARY, length from property 0), 2 Pair (struct of 3..4), 3 A (INT32), 4 B (UNICODESTRING).
        var names = new[] { "Len", "Data", "Pair", "A", "B" };
        int stringsAt = 112 + 5 * 24;
        var nameOffsets = new List<int>();
        var strings = new PayloadBuilder();
        foreach (var n in names) { nameOffsets.Add(stringsAt + strings.Length); strings.Utf16z(n); }
        var info = new PayloadBuilder().Guid(Guid.Empty).Guid(Guid.Empty).U16(5).U8(0).U8(0).U8(4).U8(0).U16(0).U64(0).U32(0)
            .Bytes(new byte[40]).U32(0).U32(0).U32(5).U32(3).U32(0);
        void Prop(uint flags, int name, ushort a, ushort b, ushort count, ushort length) =>
            info.U32(flags).I32(name).U16(a).U16(b).U32(0).U16(count).U16(length).U32(0);
        Prop(0, nameOffsets[0], (ushort)FieldInType.UInt16, 0, 1, 0);
        Prop(0x2, nameOffsets[1], (ushort)FieldInType.Binary, 0, 1, 0);
        Prop(0x1, nameOffsets[2], 3, 2, 1, 0);
        Prop(0, nameOffsets[3], (ushort)FieldInType.Int32, 0, 1, 0);
        Prop(0, nameOffsets[4], (ushort)FieldInType.UnicodeString, 0, 1, 0);
        info.Bytes(strings.ToArray());
        var parsed = TraceEventInfoParser.Parse(info.ToArray(), out var error);
        Assert.IsNotNull(parsed, error);
        var payload = new PayloadBuilder().U16(3).Bytes(0xAA, 0xBB, 0xCC).I32(-9).Utf16z("ok").ToArray();
        var fields = FieldCollector.Collect(parsed.Schema, payload, 8, null, out var status);
        Assert.AreEqual(DecodeStatus.Complete, status);
        CollectionAssert.AreEqual(new[] { "Len=3", "Data=AABBCC", "Pair.A=-9", "Pair.B=ok" }, fields.Select(f => $"{f.Path}={f.Text}").ToArray());
    }
}
