using System.Text;
using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.EventCounts;
using HiddenCost.Analysis.Tables.TraceInfo;
using HiddenCost.Synthetic.Etl;
using HiddenCost.Synthetic.Events;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

/// <summary>Event Counts against the independent decoder's figures for the public samples (reader issue).</summary>
[TestClass]
public sealed class EventCountsTests
{
    private static long Count(Table<EventCountRow> t, string provider, string evt, string? header = null) =>
        t.Rows.Where(r => r.Provider == provider && r.Event == evt && (header is null || r.Header == header)).Sum(r => r.Count);

    private static long WithStack(Table<EventCountRow> t, string provider, string evt) =>
        t.Rows.Where(r => r.Provider == provider && r.Event == evt).Sum(r => r.WithStack);

    private static Table<EventCountRow> Counts(string sample) => TraceAnalyzer.Analyze(SharedFolder.EtlSample(sample)).Table(EventCountsAnalysis.Definition);

    [TestMethod]
    public void Manifest_events_the_reader_decodes_are_named_without_embedded_schemas()
    {
        // The rundown trace embeds no schema for these: MethodDCEndVerbose (versions 1 and 2) and ModuleDCEnd were numbers.
        var rundown = Counts("perfview/gcrundownevents.etl.zip");
        Assert.AreEqual(80L, Count(rundown, "Microsoft-Windows-DotNETRuntimeRundown", "CLRMethodRundown/MethodDCEndVerbose"));
        Assert.AreEqual(7L, Count(rundown, "Microsoft-Windows-DotNETRuntimeRundown", "CLRLoaderRundown/ModuleDCEnd"));
        Assert.AreEqual(0L, Count(rundown, "Microsoft-Windows-DotNETRuntimeRundown", "144"));
        // The synthetic samples carry no schemas at all: names as the manifests give them, matching what merged traces show.
        var sample = TraceAnalyzer.Analyze(Path.Combine(SharedFolder.RepositoryRoot, "samples", "hiddencost-sample.etl")).Table(EventCountsAnalysis.Definition);
        Assert.AreEqual(41L, Count(sample, "Microsoft-Windows-DotNETRuntime", "Contention/Start"));
        Assert.AreEqual(41L, Count(sample, "Microsoft-Windows-DotNETRuntime", "Contention/Stop"));
        Assert.AreEqual(352L, Count(sample, "Microsoft-Windows-RPC", "RpcClientCall/Start"));
        Assert.AreEqual(352L, Count(sample, "Microsoft-Windows-RPC", "RpcServerCall/Stop"));
        Assert.AreEqual(2L, Count(sample, "Microsoft-Windows-WMI-Activity", "11"), "its manifest names no task or opcode");
    }

    [TestMethod]
    public void Net452_x64_counts_match_the_independent_decoder()
    {
        var t = Counts("perfview/net.4.5.2.x64.etl.zip");
        Assert.AreEqual(79_528, Count(t, "PerfInfo", "SampledProfile"));
        Assert.AreEqual(7_046, Count(t, "StackWalk", "StackKeyUser"));
        Assert.AreEqual(2_061, Count(t, "StackWalk", "StackKeyKernel"));
        Assert.AreEqual(252, Count(t, "StackWalk", "Stack"));
        Assert.AreEqual(1_763, Count(t, "Image", "DCStart"));
        Assert.AreEqual(1_622, Count(t, "Image", "DCStart", "PERFINFO"));
        Assert.AreEqual(141, Count(t, "Image", "DCStart", "SYSTEM"));
        Assert.AreEqual(1_766, Count(t, "Image", "DCEnd"));
        Assert.AreEqual(670, Count(t, "Thread", "DCStart"));
        Assert.AreEqual(16_702, Count(t, "Microsoft-Windows-DotNETRuntimeRundown", "CLRMethodRundown/MethodDCEndVerbose"));
        Assert.AreEqual(3_534, Count(t, "KernelTraceControl", "DbgID_RSDS"));
        Assert.AreEqual(179_474, t.Rows.Sum(r => r.Count));
    }

    [TestMethod]
    public void Net452_x64_stacks_are_counted_once_per_event()
    {
        var t = Counts("perfview/net.4.5.2.x64.etl.zip");
        // Kernel and user halves of one sample's stack count once; the set of (timestamp, thread) pairs with
        // a StackWalk event intersected with the samples' pairs has 6,318 members.
        Assert.AreEqual(6_318, WithStack(t, "PerfInfo", "SampledProfile"));
        long stackItems = t.Rows.Where(r => r.Header == "EVENT_HEADER").Sum(r => r.WithStack);
        Assert.AreEqual(655, stackItems, "EVENT_HEADER events with a STACK_TRACE64 item");
        Assert.AreEqual(0, WithStack(t, "KernelTraceControl", "ImageID"));
    }

    [TestMethod]
    public void TraceLoggingTester_counts_match_and_names_come_from_the_schema()
    {
        var t = Counts("etwanalyzer/TraceLoggingTester.etl.zip");
        Assert.AreEqual(23_367, Count(t, "Image", "DCEnd"));
        Assert.AreEqual(6_719, Count(t, "Thread", "DCEnd"));
        Assert.AreEqual(360, Count(t, "Process", "DCEnd"));
        var tl = t.Rows.Where(r => r.Provider == "CSharpTraceLoggingEventSource").ToArray();
        Assert.AreEqual(70, tl.Sum(r => r.WithStack), "TraceLogging events with stacks");
        Assert.AreEqual(10, Count(t, "CSharpTraceLoggingEventSource", "MarkString"));
    }

    [TestMethod]
    public void Manifest_events_take_their_names_from_the_schemas_the_trace_embeds()
    {
        // net.4.5.2.x64 embeds 85 MetaData schemas at its end; they name events (task/opcode) and providers that
        // have no name of their own in the table — as WPA shows them through TDH.
        var t = Counts("perfview/net.4.5.2.x64.etl.zip");
        Assert.AreEqual(14_983, Count(t, "Microsoft-Windows-DotNETRuntime", "CLRStack/CLRStackWalk"));
        Assert.AreEqual(10_382, Count(t, "Microsoft-Windows-DotNETRuntime", "GarbageCollection/GCAllocationTick"));
        Assert.AreEqual(4, Count(t, "Microsoft-Windows-DNS-Client", "DnsServerForInterface"), "a provider named only by its schema");
        Assert.AreEqual(0, t.Rows.Count(r => r.Provider == "1c95126e-7eea-49a9-a3fe-a378b03ddb4d"));
        // EventSources log their own manifests (ManifestData, 65534), which name them and their events too.
        Assert.AreEqual(53, Count(t, "PerfView", "PerfViewLog"));
        Assert.AreEqual(2, Count(t, "PerfView", "ManifestData"));
        Assert.AreEqual(3, Count(t, "System.Threading.Tasks.TplEventSource", "TaskScheduled/Send"));
        Assert.AreEqual(1, Count(t, "System.Diagnostics.Eventing.FrameworkEventSource", "ManifestData"));
        Assert.AreEqual(0, t.Rows.Count(r => r.Provider is "a8a71ac1-040f-54a2-07ca-00a89b5ab761" or "2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5"));
        // Events nothing describes keep their number.
        Assert.AreEqual(264, Count(t, "Microsoft-Windows-DotNETRuntimePrivate", "10"));
        // 763fd754-… is the runtime's Private provider (PerfView's ClrPrivateTraceEventParser), not its Stress one.
        long privateEvents = t.Rows.Where(r => r.ProviderId == new Guid("763fd754-7086-4dfe-95eb-c01a46faf4ca")).Sum(r => r.Count);
        Assert.AreEqual(1_627, privateEvents);
        Assert.AreEqual(privateEvents, t.Rows.Where(r => r.Provider == "Microsoft-Windows-DotNETRuntimePrivate").Sum(r => r.Count));
        Assert.AreEqual(0, t.Rows.Count(r => r.Provider == "Microsoft-Windows-DotNETRuntimeStress"));
    }

    [TestMethod]
    public void Classic_events_added_at_merge_are_named_by_task_and_opcode()
    {
        // WPR's merge adds SystemConfigEx (build, paths, volumes), MetaData (event schemas) and WinSat events, and its
        // markers ("Wpr_Initiated_Rundown") are PerfInfo Mark events: named as PerfView names them, not by number.
        var t = Counts("etwanalyzer/TraceLoggingTester.etl.zip");
        Assert.AreEqual(1, Count(t, "KernelTraceControl", "BuildInfo", "CLASSIC"));
        Assert.AreEqual(1, Count(t, "KernelTraceControl", "SystemPaths", "CLASSIC"));
        Assert.AreEqual(2, Count(t, "KernelTraceControl", "UnknownVolume", "CLASSIC"));
        Assert.AreEqual(12, Count(t, "KernelTraceControl", "VolumeMapping", "CLASSIC"));
        Assert.AreEqual(10, Count(t, "KernelTraceControl", "EventInfo", "CLASSIC"));
        Assert.AreEqual(8, Count(t, "KernelTraceControl", "EventMapInfo", "CLASSIC"));
        Assert.AreEqual(4, Count(t, "PerfInfo", "Mark", "CLASSIC"));
        Assert.AreEqual(3, Count(t, "KernelTraceControl", "WinSPR", "CLASSIC") + Count(t, "KernelTraceControl", "Metrics", "CLASSIC")
            + Count(t, "KernelTraceControl", "SystemConfig", "CLASSIC"));
        Assert.AreEqual(56, Count(t, "KernelTraceControl", "36", "CLASSIC"), "an opcode no public parser names keeps its number");
    }

    [TestMethod]
    public void ShutdownPerfDiagLogger_counts_match()
    {
        var t = Counts("etl-parser/ShutdownPerfDiagLogger.etl");
        Assert.AreEqual(6_745, Count(t, "Image", "DCStart"));
        Assert.AreEqual(4_791, Count(t, "Image", "Unload"));
    }

    [TestMethod]
    public void Powershell_trace_holds_112_manifest_events()
    {
        var t = Counts("krabsetw/powershell.etl");
        Assert.AreEqual(112, t.Rows.Where(r => r.Provider == "Microsoft-Windows-PowerShell").Sum(r => r.Count));
    }

    [TestMethod]
    public void SelfDescribingSingleEvent_holds_one_tracelogging_event()
    {
        var t = Counts("perfview/SelfDescribingSingleEvent.etl");
        var eventHeaderRows = t.Rows.Where(r => r.Header == "EVENT_HEADER").ToArray();
        Assert.AreEqual(1, eventHeaderRows.Length);
        Assert.AreEqual(1L, eventHeaderRows[0].Count);
    }

    [TestMethod]
    public void Kernel_events_report_id_zero_and_the_group_task_guid()
    {
        var t = Counts("perfview/net.4.5.2.x64.etl.zip");
        var sample = t.Rows.Single(r => r.Provider == "PerfInfo" && r.Event == "SampledProfile");
        Assert.AreEqual(new Guid("ce1dbfb4-137e-4da6-87b0-3f59aa102cbc"), sample.ProviderId);
        Assert.AreEqual(0L, sample.Id);
        Assert.AreEqual(46L, sample.Opcode);
        Assert.AreEqual(2L, sample.Version);
        Assert.AreEqual("PERFINFO", sample.Header);
    }

    [TestMethod]
    public void Events_of_one_provider_id_and_opcode_count_apart_by_the_names_their_metadata_gives_synthetic()
    {
        // TraceLogging events share id 0: their names come from their own metadata (EVENT_SCHEMA_TL), and a provider
        // may name itself in provider traits. A manifest event of the same provider, id and opcode has neither.
        var provider = new Guid("3f1d8c6e-5a1b-4e5e-9c51-2d7a9c0b1e11");
        var s = new EtlTraceSettings { NumberOfProcessors = 1, BufferSize = 4096 };
        var writer = new EtlFileWriter(s);
        long t = s.StartQpc;
        static ExtendedDataItem Schema(string name) =>
            new(11, [.. BitConverter.GetBytes((ushort)(4 + name.Length)), 0, .. Encoding.ASCII.GetBytes(name), 0]);
        static ExtendedDataItem Traits(string name) =>
            new(12, [.. BitConverter.GetBytes((ushort)(3 + name.Length)), .. Encoding.ASCII.GetBytes(name), 0]);
        ManifestRecord Event(params ExtendedDataItem[] items) => new()
        {
            Cpu = 0, Timestamp = ++t, ProviderId = provider, Descriptor = new EventDescriptor(0, 0, 0, 4, 0, 0, 0),
            ExtendedData = items, Payload = [],
        };
        writer.Add(Event(Schema("First"), Traits("Tester")));
        writer.Add(Event(Schema("Second"), Traits("Tester")));
        writer.Add(Event(Schema("First"), Traits("Tester")));
        writer.Add(Event());
        writer.Add(Event(Traits("Renamed")));
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-eventcounts-{Guid.NewGuid():N}.etl");
        writer.Save(path);
        try
        {
            var table = TraceAnalyzer.Analyze(path).Table(EventCountsAnalysis.Definition);
            Assert.AreEqual(2L, Count(table, "Tester", "First"));
            Assert.AreEqual(1L, Count(table, "Tester", "Second"));
            Assert.AreEqual(1L, Count(table, provider.ToString(), "0"), "no metadata: the provider's GUID and the event's id");
            Assert.AreEqual(1L, Count(table, "Renamed", "0"));
        }
        finally
        {
            File.Delete(path);
        }
    }
    [TestMethod]
    public void A_stack_finds_its_event_across_a_time_inversion_in_the_file_synthetic()
    {
        // File order on the one processor: SysClEnter at +100, SysClExit whose timestamp reads +50 (earlier than the
        // event before it: the file itself is out of order), then the SysClEnter's stack. The search for the stack's
        // event passes the earlier SysClExit and must not take it for the end of the events in time order.
        var s = new EtlTraceSettings { NumberOfProcessors = 1, BufferSize = 4096 };
        var writer = new EtlFileWriter(s);
        long start = s.StartQpc, enter = start + 100, patched = start + 0x5A5A5A5A, stack = patched + 10;
        var c = new EventContext(0, enter);
        writer.Add(PerfInfoEvents.SysClEnter(c, 0xFFFFF800_12345678));
        writer.Add(PerfInfoEvents.SysClExit(c.At(patched), 0));
        writer.Add(StackWalkEvents.Stack(c.At(stack), enter, 4, 8, [0xFFFFF800_12345678]));
        var bytes = writer.ToArray();
        var marker = BitConverter.GetBytes(patched);
        int at = bytes.AsSpan().IndexOf(marker);
        Assert.IsTrue(at > 0 && bytes.AsSpan(at + 1).IndexOf(marker) < 0, "the SysClExit's timestamp appears once");
        BitConverter.GetBytes(start + 50).CopyTo(bytes, at);
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-eventcounts-{Guid.NewGuid():N}.etl");
        File.WriteAllBytes(path, bytes);
        try
        {
            var result = TraceAnalyzer.Analyze(path);
            var table = result.Table(EventCountsAnalysis.Definition);
            Assert.AreEqual(1L, WithStack(table, "PerfInfo", "SysClEnter"));
            Assert.AreEqual(0L, WithStack(table, "PerfInfo", "SysClExit"));
            Assert.IsTrue(result.Table(TraceInfoAnalysis.Definition).Notes.Texts().Any(n => n.StartsWith("1 events are earlier than the event before them")), "the reader saw the inversion");
        }
        finally
        {
            File.Delete(path);
        }
    }
}
