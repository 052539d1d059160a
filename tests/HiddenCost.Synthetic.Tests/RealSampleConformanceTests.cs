using HiddenCost.Etl;
using HiddenCost.Etl.Records;
using HiddenCost.Synthetic.Etl;
using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Tests.Support;
using HiddenCost.TestSupport;

namespace HiddenCost.Synthetic.Tests;

/// <summary>
/// For every event kind the writer emits that also occurs in the real traces under ../shared/etl-samples, the
/// writer uses the same header kind and version, and its payload decodes with the same layout as the real ones.
/// </summary>
[TestClass]
public sealed class RealSampleConformanceTests
{
    private static readonly string[] Samples =
    [
        "perfview/net.4.5.2.x64.etl.zip",
        "perfview/net.4.5.2.x86.etl.zip",
        "perfview/gcrundownevents.etl.zip",
        "etl-parser/ShutdownPerfDiagLogger.etl",
        "etwanalyzer/TraceLoggingTester.etl.zip",
    ];

    private static readonly Lazy<Dictionary<string, KindProfile>> Real = new(ReadReal);

    private sealed class KindProfile
    {
        public HashSet<(RecordHeaderKind Kind, byte Version)> Headers { get; } = [];
        public int Count { get; set; }
        public List<string> LayoutFailures { get; } = [];
    }

    [TestMethod]
    public void Shared_event_kinds_use_the_real_header_kind_and_version()
    {
        var real = RealOrSkip();
        var mine = Mine();
        var shared = 0;
        foreach (var (key, profile) in mine)
        {
            if (!real.TryGetValue(key, out var r)) continue;
            shared++;
            foreach (var header in profile.Headers)
                Assert.IsTrue(r.Headers.Contains(header), $"{key}: writer uses {header}, real traces use {string.Join(", ", r.Headers)}");
        }
        // Kernel rundown and stacks, KernelTraceControl identity, CLR method events, FileIo names, the sample interval.
        Assert.IsTrue(shared >= 25, $"only {shared} shared event kinds");
    }

    [TestMethod]
    public void Shared_event_kinds_decode_with_the_same_layout()
    {
        var real = RealOrSkip();
        var mine = Mine();
        var checkedKinds = 0;
        foreach (var (key, profile) in mine)
        {
            if (!real.TryGetValue(key, out var r) || !Layouts.ContainsKey(LayoutKey(key))) continue;
            checkedKinds++;
            Assert.AreEqual(0, r.LayoutFailures.Count, $"real {key} events do not fit the layout: {string.Join("; ", r.LayoutFailures.Take(3))}");
            Assert.AreEqual(0, profile.LayoutFailures.Count, $"written {key} events do not fit the layout: {string.Join("; ", profile.LayoutFailures.Take(3))}");
        }
        Assert.IsTrue(checkedKinds >= 20, $"only {checkedKinds} layouts compared");
    }

    [TestMethod]
    public void Kernel_module_rundown_uses_system_headers_and_user_images_perfinfo_headers_as_in_real_traces()
    {
        var real = RealOrSkip();
        Assert.IsTrue(real["k:20:3:kernel"].Headers.All(h => h.Kind == RecordHeaderKind.System));
        Assert.IsTrue(real["k:20:3:user"].Headers.All(h => h.Kind == RecordHeaderKind.PerfInfo));
        var mine = Mine();
        Assert.IsTrue(mine["k:20:3:kernel"].Headers.All(h => h.Kind == RecordHeaderKind.System));
        Assert.IsTrue(mine["k:20:3:user"].Headers.All(h => h.Kind == RecordHeaderKind.PerfInfo));
    }

    private static Dictionary<string, KindProfile> RealOrSkip()
    {
        SharedFolder.Require();
        return Real.Value;
    }

    private static Dictionary<string, KindProfile> ReadReal()
    {
        var profiles = new Dictionary<string, KindProfile>();
        foreach (var sample in Samples)
        {
            using var reader = EtlReader.Open(SharedFolder.EtlSample(sample));
            foreach (var e in reader.ReadEvents()) Observe(profiles, e);
        }
        return profiles;
    }

    private static Dictionary<string, KindProfile> Mine()
    {
        var s = new EtlTraceSettings { NumberOfProcessors = 3 };
        var writer = new EtlFileWriter(s);
        writer.AddRange(EmitterFixtures.All(s).Select(x => x.Record));
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-conformance-{Environment.ProcessId}-{Guid.NewGuid():N}.etl");
        File.WriteAllBytes(path, writer.ToArray());
        try
        {
            var profiles = new Dictionary<string, KindProfile>();
            using var reader = EtlReader.Open(path);
            foreach (var e in reader.ReadEvents()) Observe(profiles, e);
            return profiles;
        }
        finally
        {
            File.Delete(path);
        }
    }

    private static void Observe(Dictionary<string, KindProfile> profiles, EtwEvent e)
    {
        var key = Key(e);
        if (key is null) return;
        if (!profiles.TryGetValue(key, out var profile)) profiles[key] = profile = new KindProfile();
        profile.Count++;
        profile.Headers.Add((e.Kind, e.Version));
        if (Layouts.TryGetValue(LayoutKey(key), out var layout) && profile.LayoutFailures.Count < 10)
        {
            var c = new PayloadCursor(e.Payload.ToArray(), e.PointerSize);
            try
            {
                layout(c, e.Version);
                if (c.Remaining != 0) profile.LayoutFailures.Add($"{c.Remaining} bytes left of {e.Payload.Length}");
            }
            catch (Exception ex) when (ex is InvalidDataException or IndexOutOfRangeException or ArgumentOutOfRangeException)
            {
                profile.LayoutFailures.Add(ex.Message);
            }
        }
    }

    private static string? Key(EtwEvent e)
    {
        switch (e.Kind)
        {
            case RecordHeaderKind.System or RecordHeaderKind.Compact or RecordHeaderKind.PerfInfo:
                if (e.Group == KernelGroup.Image && e.Payload.Length >= 2 * e.PointerSize + 4)
                {
                    var pid = BitConverter.ToUInt32(e.Payload.Slice(2 * e.PointerSize, 4));
                    return $"k:{e.Group}:{e.Opcode}:{(pid == 0 ? "kernel" : "user")}";
                }
                return $"k:{e.Group}:{e.Opcode}";
            case RecordHeaderKind.EventHeader:
                return $"m:{e.ProviderId}:{e.EventId}:v{e.Version}";
            case RecordHeaderKind.Classic or RecordHeaderKind.Instance:
                return $"c:{e.ProviderId}:{e.Opcode}";
            default:
                return null;
        }
    }

    private static string LayoutKey(string key) =>
        key.StartsWith("k:20:", StringComparison.Ordinal) ? string.Join(':', key.Split(':').Take(3))
        : key.StartsWith("m:", StringComparison.Ordinal) ? key[..key.LastIndexOf(':')]
        : key;

    /// <summary>Layouts as the reference notes document them, written here independently of the emitters.</summary>
    private static readonly Dictionary<string, Action<PayloadCursor, byte>> Layouts = BuildLayouts();

    private static Dictionary<string, Action<PayloadCursor, byte>> BuildLayouts()
    {
        var d = new Dictionary<string, Action<PayloadCursor, byte>>();
        d["k:15:46"] = (c, _) => { c.Pointer(); c.U32(); c.U16(); c.U8(); c.U8(); };
        d["k:15:73"] = d["k:15:74"] = (c, _) => { c.U32(); c.U32(); c.U32(); c.WString(); };
        d["k:24:32"] = (c, _) => { c.I64(); c.U32(); c.U32(); while (c.Remaining > 0) c.Pointer(); };
        d["k:24:35"] = d["k:24:36"] = (c, _) => { c.Pointer(); while (c.Remaining > 0) c.Pointer(); };
        d["k:24:37"] = d["k:24:38"] = (c, _) => { c.I64(); c.U32(); c.U32(); c.Pointer(); };
        Action<PayloadCursor, byte> process = (c, _) =>
        {
            c.Pointer(); c.U32(); c.U32(); c.U32(); c.I32(); c.Pointer(); c.U32();
            var peek = c.U32();
            if (peek != 0)
            {
                c.Skip(2 * PointerSizeOf(c) - 4);
                c.U8();
                var count = c.U8();
                c.Skip(6 + 4 * count);
            }
            c.AString(); c.WString(); c.WString(); c.WString();
        };
        foreach (var t in new[] { 1, 2, 3, 4 }) d[$"k:3:{t}"] = process;
        Action<PayloadCursor, byte> thread = (c, _) =>
        {
            c.U32(); c.U32();
            for (var i = 0; i < 7; i++) c.Pointer();
            c.U32(); c.U8(); c.U8(); c.U8(); c.U8();
            if (c.Remaining > 0) c.WString();
        };
        foreach (var t in new[] { 1, 2, 3, 4 }) d[$"k:5:{t}"] = thread;
        Action<PayloadCursor, byte> image = (c, _) =>
        {
            c.Pointer(); c.Pointer(); c.U32(); c.U32(); c.U32(); c.U8(); c.U8(); c.U16(); c.Pointer(); c.U32(); c.U32(); c.U32(); c.U32(); c.WString();
        };
        foreach (var t in new[] { 2, 3, 4, 10 }) d[$"k:20:{t}"] = image;
        foreach (var t in new[] { 0, 32, 35, 36 }) d[$"k:4:{t}"] = (c, _) => { c.Pointer(); c.WString(); };
        d[$"c:{Providers.KernelTraceControlImageId}:0"] = (c, _) => { c.Pointer(); c.Pointer(); c.U32(); c.U32(); c.WString(); };
        d[$"c:{Providers.KernelTraceControlImageId}:36"] = (c, _) => { c.Pointer(); c.U32(); c.Guid(); c.U32(); c.AString(); };
        d[$"c:{Providers.KernelTraceControlSystemConfigEx}:35"] = (c, _) => { c.WString(); c.WString(); };
        Action<PayloadCursor, byte> method = (c, v) =>
        {
            c.U64(); c.U64(); c.U64(); c.U32(); c.U32(); c.U32(); c.WString(); c.WString(); c.WString();
            if (v >= 1) c.U16();
            if (v >= 2) c.U64();
        };
        d[$"m:{Providers.DotNetRuntime}:143"] = method;
        d[$"m:{Providers.DotNetRuntimeRundown}:143"] = method;
        d[$"m:{Providers.DotNetRuntimeRundown}:144"] = method;
        return d;
    }

    private static int PointerSizeOf(PayloadCursor c) => c.PointerSizeValue;
}
