using HiddenCost.Etl.Records;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests;

/// <summary>
/// Exact counts on the real samples. The figures come from an independent decoder (issue 5, the samples README
/// and the ETL format notes), not from this reader.
/// </summary>
[TestClass]
public sealed class ReaderCountsTests
{
    private const string ClrRundown = "a669021c-c450-4609-a035-5af59af4df18";
    private const string ClrRuntime = "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4";
    private const string KernelFile = "edd08927-9cc4-4e65-b970-c2560fb5c289";
    private const string MetaDataTask = "bbccf6c1-6cd1-48c4-80ff-839482e37671";
    private const string PowerShell = "a0c1853b-5c40-4b15-8766-3cf1c58f985a";

    private static readonly Lazy<EventTally> NetX64 = new(() => EventTally.Of(Samples.NetX64));
    private static readonly Lazy<EventTally> TraceLoggingTester = new(() => EventTally.Of(Samples.TraceLoggingTester));

    [TestMethod]
    public void Net_x64_kernel_events_match_the_independent_decoder()
    {
        var t = NetX64.Value;
        Assert.AreEqual(79_528, t.Kernel(KernelGroups.PerfInfo, 46), "SampledProfile");
        Assert.AreEqual(7_046, t.Kernel(KernelGroups.StackWalk, 38), "StackKeyUser");
        Assert.AreEqual(2_061, t.Kernel(KernelGroups.StackWalk, 37), "StackKeyKernel");
        Assert.AreEqual(252, t.Kernel(KernelGroups.StackWalk, 32), "Stack");
        Assert.AreEqual(1_763, t.Kernel(KernelGroups.Image, 3), "Image/DCStart");
        Assert.AreEqual(1_766, t.Kernel(KernelGroups.Image, 4), "Image/DCEnd");
        Assert.AreEqual(670, t.Kernel(KernelGroups.Thread, 3), "Thread/DCStart");
        // Logged under the Process group's hook 0x030A (WMI_LOG_TYPE_PROCESS_LOAD_IMAGE); delivered as Image/Load.
        Assert.AreEqual(35, t.Kernel(KernelGroups.Image, 10), "Image/Load");
        Assert.AreEqual(0, t.Kernel(KernelGroups.Process, 10), "Process type 10");
    }

    [TestMethod]
    public void Net_x64_manifest_and_classic_events_match_the_independent_decoder()
    {
        var t = NetX64.Value;
        Assert.AreEqual(16_702, t.Manifest(ClrRundown, 144, 1), "DotNETRuntimeRundown MethodDCEndVerbose v1");
        Assert.AreEqual(655, t.ExtendedItemsByType.GetValueOrDefault(6), "STACK_TRACE64 items");
        Assert.AreEqual(85, t[$"{{{MetaDataTask}}} op32"] + t[$"{{{MetaDataTask}}} op33"], "embedded MetaData schema events");
        Assert.AreEqual(562, t.Manifest(KernelFile, 12, 1), "Microsoft-Windows-Kernel-File events");
        Assert.AreEqual(33_378, t.EventHeader32, "EVENT_HEADER32 records");
        Assert.AreEqual(34_765, t.EventHeader64, "EVENT_HEADER64 records");
    }

    [TestMethod]
    public void Net_x64_has_359_compressed_buffers_of_360()
    {
        var t = NetX64.Value;
        Assert.AreEqual(360, t.Health.Buffers);
        Assert.AreEqual(359, t.Health.CompressedBuffers);
        Assert.IsTrue(t.Health.IsClean, string.Join("; ", t.Health.Warnings));
        var raw = RawLayout.Buffers(Samples.Bytes(Samples.NetX64));
        Assert.AreEqual(360, raw.Count);
        Assert.AreEqual(359, raw.Count(b => b.IsCompressed));
        Assert.IsFalse(raw[0].IsCompressed, "the first buffer holds the trace header and is stored plain");
    }

    [TestMethod]
    public void Net_x86_counts_match_the_independent_decoder()
    {
        var t = EventTally.Of(Samples.NetX86);
        Assert.AreEqual(88_809, t.Kernel(KernelGroups.PerfInfo, 46), "SampledProfile");
        Assert.AreEqual(39_425, t.EventHeader32, "EVENT_HEADER32 records (the 32-bit target process)");
        Assert.AreEqual(1_073, t.EventHeader64, "EVENT_HEADER64 records");
        Assert.AreEqual(275, t.Health.CompressedBuffers);
        Assert.AreEqual(276, t.Health.Buffers);
    }

    [TestMethod]
    public void TraceLoggingTester_rundown_counts_match_the_independent_decoder()
    {
        var t = TraceLoggingTester.Value;
        Assert.AreEqual(23_367, t.Kernel(KernelGroups.Image, 4), "Image/DCEnd");
        Assert.AreEqual(6_719, t.Kernel(KernelGroups.Thread, 4), "Thread/DCEnd");
        Assert.AreEqual(360, t.Kernel(KernelGroups.Process, 4), "Process/DCEnd");
        Assert.AreEqual(70, t.TraceLoggingEventsWithStacks, "TraceLogging events with STACK_TRACE64");
        Assert.AreEqual(1, t.Kernel(KernelGroups.Thread, 72), "Thread/SetName");
    }

    [TestMethod]
    public void TraceLoggingTester_has_41_buffers_of_1_MiB()
    {
        var t = TraceLoggingTester.Value;
        Assert.AreEqual(41, t.Health.Buffers);
        Assert.AreEqual(0, t.Health.CompressedBuffers);
        var raw = RawLayout.Buffers(Samples.Bytes(Samples.TraceLoggingTester));
        Assert.AreEqual(41, raw.Count);
        Assert.IsTrue(raw.All(b => b.BufferSize == 1024 * 1024));
    }

    [TestMethod]
    public void ShutdownPerfDiagLogger_image_counts_match_the_independent_decoder()
    {
        var t = EventTally.Of(Samples.ShutdownPerfDiagLogger);
        Assert.AreEqual(6_745, t.Kernel(KernelGroups.Image, 3), "Image/DCStart");
        Assert.AreEqual(4_791, t.Kernel(KernelGroups.Image, 2), "Image/Unload");
        Assert.AreEqual(72, t.Kernel(KernelGroups.Image, 10), "Image/Load (hook 0x030A)");
        Assert.AreEqual(17_078, t.Events, "about 17k events, per the samples README");
        Assert.AreEqual(49, t.Health.Buffers);
    }

    [TestMethod]
    public void Powershell_holds_112_manifest_events()
    {
        var t = EventTally.Of(Samples.Powershell);
        Assert.AreEqual(112, t.ByKey.Where(kv => kv.Key.StartsWith($"{{{PowerShell}}}#", StringComparison.Ordinal)).Sum(kv => kv.Value));
        Assert.AreEqual(112, t.ByKind[RecordHeaderKind.EventHeader]);
        Assert.AreEqual(0, t.TraceLoggingEvents, "manifest events carry no TraceLogging schema");
    }

    [TestMethod]
    public void AmsiTrace_header_reports_3_lost_events_and_19_TraceLogging_events()
    {
        using var reader = EtlReader.Open(Samples.PathOf(Samples.AmsiTrace));
        Assert.AreEqual(3u, reader.Header.EventsLost);
        var t = EventTally.Of(Samples.AmsiTrace);
        Assert.AreEqual(19, t.TraceLoggingEvents);
        Assert.AreEqual(19, t.ByKind[RecordHeaderKind.EventHeader]);
    }

    [TestMethod]
    [DataRow(Samples.LxcoreKernel, 2)]
    [DataRow(Samples.PrimitiveTypes, 5)]
    [DataRow(Samples.SelfDescribingSingleEvent, 1)]
    public void Small_TraceLogging_samples_hold_the_documented_events(string sample, int traceLoggingEvents)
    {
        var t = EventTally.Of(sample);
        Assert.AreEqual(traceLoggingEvents, t.TraceLoggingEvents);
        Assert.IsTrue(t.Health.IsClean, string.Join("; ", t.Health.Warnings));
    }

    [TestMethod]
    public void Primitive_types_events_carry_schema_and_provider_traits_items()
    {
        var t = EventTally.Of(Samples.PrimitiveTypes);
        Assert.AreEqual(5, t.ExtendedItemsByType.GetValueOrDefault(11), "EVENT_SCHEMA_TL");
        Assert.AreEqual(5, t.ExtendedItemsByType.GetValueOrDefault(12), "PROV_TRAITS");
    }

    [TestMethod]
    public void SelfDescribingSingleEvent_decompresses_its_two_compressed_buffers()
    {
        var t = EventTally.Of(Samples.SelfDescribingSingleEvent);
        Assert.AreEqual(3, t.Health.Buffers);
        Assert.AreEqual(2, t.Health.CompressedBuffers);
        Assert.AreEqual(22, t.Events);
    }

    [TestMethod]
    public void Gc_samples_hold_the_documented_CLR_events()
    {
        var gc = EventTally.Of(Samples.GcEvents);
        Assert.AreEqual(69, gc.ByKey.Where(kv => kv.Key.StartsWith($"{{{ClrRuntime}}}#", StringComparison.Ordinal)).Sum(kv => kv.Value));
        var rundown = EventTally.Of(Samples.GcRundownEvents);
        Assert.AreEqual(77, rundown.Manifest(ClrRundown, 144, 1), "MethodDCEndVerbose v1");
        Assert.AreEqual(3, rundown.Manifest(ClrRundown, 144, 2), "MethodDCEndVerbose v2");
    }

    /// <summary>
    /// Every record the minimal test walker finds in the uncompressed samples is delivered once: nothing is
    /// dropped or invented by the merge.
    /// </summary>
    [TestMethod]
    [DataRow(Samples.AmsiTrace)]
    [DataRow(Samples.LxcoreKernel)]
    [DataRow(Samples.ShutdownPerfDiagLogger)]
    [DataRow(Samples.TraceLoggingTester)]
    [DataRow(Samples.Powershell)]
    [DataRow(Samples.GcEvents)]
    [DataRow(Samples.GcRundownEvents)]
    [DataRow(Samples.PrimitiveTypes)]
    public void Every_record_of_an_uncompressed_sample_is_delivered_once(string sample)
    {
        var bytes = Samples.Bytes(sample);
        int expected = RawLayout.Buffers(bytes).Sum(b => RawLayout.Records(bytes, b).Count(r => !r.IsTraceMessage));
        using var reader = EtlReader.Open(Samples.PathOf(sample));
        int delivered = 0;
        foreach (var _ in reader.ReadEvents()) delivered++;
        Assert.AreEqual(expected, delivered);
        Assert.AreEqual(expected, reader.CountRecordsInFileOrder());
        Assert.IsTrue(reader.Health.IsClean, string.Join("; ", reader.Health.Warnings));
    }
}
