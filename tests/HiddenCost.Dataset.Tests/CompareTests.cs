using System.Security.Cryptography;
using System.Text.Json;
using HiddenCost.Analysis.Tables.Findings;
using HiddenCost.Cli.Commands;
using HiddenCost.Cli.Output;
using HiddenCost.Dataset.Extract;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;

namespace HiddenCost.Dataset.Tests;

/// <summary>
/// `hiddencost compare` with DATASET@TRACEID sides: before/after pairs of synthetic traces (each scenario as the committed
/// samples record it, then with its problem fixed: a smaller buffer, no hooking driver, no spinning, cheap renders),
/// extracted into one dataset, compare from the dataset exactly as from the files.
/// </summary>
[TestClass]
public sealed class CompareTests
{
    private static DatasetFixture _fixture = null!;
    private static readonly Dictionary<string, (string Before, string After)> Pairs = new(StringComparer.Ordinal);

    /// <summary>Two junk files whose SHA-256 (their trace ids) share the first 8 hex digits: extract records both as refused.</summary>
    private static (string First, string Second, string Prefix) _twins;

    /// <summary>The notify storm's before-trace cut to 90%: extract records it as damaged.</summary>
    private static string _cut = null!;

    [ClassInitialize]
    public static void Extract(TestContext _)
    {
        _fixture = new DatasetFixture();
        static TraceBuilderSettings Settings(string name) => Synthetic.Samples.SampleCatalog.Settings(compress: true, StackEncoding.Keyed, name);
        void Pair(string name, Func<TraceBuilderSettings, BuiltTrace> before, Func<TraceBuilderSettings, BuiltTrace> after)
        {
            var b = Path.Combine(_fixture.Inputs, $"{name}-before.etl");
            var a = Path.Combine(_fixture.Inputs, $"{name}-after.etl");
            before(Settings(Path.GetFileName(b))).Save(b);
            after(Settings(Path.GetFileName(a))).Save(a);
            Pairs[name] = (b, a);
        }
        Pair("notify", s => NotifyBufferStorm.Generate(null, s).Trace,
            s => NotifyBufferStorm.Generate(new NotifyBufferStormOptions { LargeBufferBytes = 64 * 1024, DemandZeroFaultsPerSmallCompletion = 1 }, s).Trace);
        Pair("syscall", s => SyscallHookStorm.Generate(null, s).Trace, s => SyscallHookStorm.Generate(new SyscallHookStormOptions { HookUs = 0 }, s).Trace);
        Pair("spin", s => SpinContention.Generate(null, s).Trace,
            s => SpinContention.Generate(new SpinContentionOptions { SpinMsMin = 0.001, SpinMsMax = 0.002, OpenMp = false, YieldStorm = false }, s).Trace);
        Pair("eventlog", s => EventLogRender.Generate(null, s).Trace, s => EventLogRender.Generate(new EventLogRenderOptions { RenderUs = 10, QueryUs = 300 }, s).Trace);
        _twins = WriteTwins(_fixture.Inputs);
        var bytes = File.ReadAllBytes(Pairs["notify"].Before);
        _cut = Path.Combine(_fixture.Inputs, "notify-before-cut.etl");
        File.WriteAllBytes(_cut, bytes[..(bytes.Length * 9 / 10)]);
        var (exit, output, errors) = _fixture.Extract();
        Assert.AreEqual(1, exit, $"the two junk files are refused: {output} {errors}");
        StringAssert.Contains(output, "11 traces extracted (8 ok, 1 damaged, 2 refused, 0 failed)");
    }

    [ClassCleanup]
    public static void Cleanup() => _fixture.Dispose();

    private static string Id(string trace) => TraceHasher.OfContent(trace);

    /// <summary>DATASET@ the first <paramref name="digits"/> of the trace's id.</summary>
    private static string InDataset(string trace, int digits = 12) => $"{_fixture.Dataset}@{Id(trace)[..digits]}";

    private static (int Exit, string Output, string Errors) Compare(string before, string after, OutputFormat format = OutputFormat.Json, FindingsSettings? settings = null)
    {
        var file = Path.Combine(_fixture.Root, $"compare-{Guid.NewGuid():N}.out");
        var errors = new StringWriter();
        int exit = CompareCommand.Run(before, after, format, file, settings ?? FindingsSettings.Default, errors);
        var output = File.Exists(file) ? File.ReadAllText(file) : "";
        File.Delete(file);
        return (exit, output, errors.ToString());
    }

    /// <summary>The JSON comparison without the two names (a file's path, or DATASET@TRACEID).</summary>
    private static string Findings(string json)
    {
        using var doc = JsonDocument.Parse(json);
        return string.Join("\n", doc.RootElement.EnumerateObject().Where(p => p.Name is not ("before" or "after")).Select(p => p.ToString()));
    }

    [TestMethod]
    public void Dataset_sides_compare_exactly_as_the_trace_files_do_for_every_pair()
    {
        foreach (var (name, (before, after)) in Pairs)
        {
            var files = Compare(before, after);
            Assert.AreEqual(0, files.Exit, $"{name}: {files.Errors}");
            Assert.AreEqual("better", JsonDocument.Parse(files.Output).RootElement.GetProperty("verdict").GetString(), $"{name}: the fix helped");
            var expected = Findings(files.Output);
            foreach (var (b, a) in new[] { (InDataset(before), InDataset(after)), (InDataset(before, 64), after), (before, InDataset(after, 8)) })
            {
                var stored = Compare(b, a);
                Assert.AreEqual(0, stored.Exit, $"{name} {b} {a}: {stored.Errors}");
                Assert.AreEqual("", stored.Errors);
                Assert.AreEqual(expected, Findings(stored.Output), $"{name}: {b} -> {a}");
            }
            // Text and CSV alike, but for the names.
            Assert.AreEqual(Compare(before, after, OutputFormat.Csv).Output.Replace(before, "B").Replace(after, "A"),
                Compare(InDataset(before), InDataset(after), OutputFormat.Csv).Output.Replace($"{_fixture.Dataset}@{Id(before)}", "B").Replace($"{_fixture.Dataset}@{Id(after)}", "A"), name);
        }
    }

    [TestMethod]
    public void A_fixed_notify_buffer_shows_its_figures_after_the_fix_from_the_stored_rows()
    {
        // Below-threshold findings are not Findings rows: their figures come from the stored problem tables.
        var (before, after) = Pairs["notify"];
        var (exit, output, errors) = Compare(InDataset(before), InDataset(after));
        Assert.AreEqual(0, exit, errors);
        using var doc = JsonDocument.Parse(output);
        Assert.AreEqual($"{_fixture.Dataset}@{Id(before)}", doc.RootElement.GetProperty("before").GetString(), "the full id names the trace compared");
        var sync = doc.RootElement.GetProperty("findings").EnumerateArray().Single();
        Assert.AreEqual(("gone", "high", "none"), (sync.GetProperty("change").GetString(), sync.GetProperty("severityBefore").GetString(), sync.GetProperty("severityAfter").GetString()));
        var zeroed = sync.GetProperty("figures").EnumerateArray().Single(f => f.GetProperty("name").GetString() == "Bytes Zeroed");
        Assert.AreEqual((838_860_800.0, 26_214_400.0), (zeroed.GetProperty("before").GetDouble(), zeroed.GetProperty("after").GetDouble()), "400 × 2 MiB → 400 × 64 KiB");
        var cost = sync.GetProperty("figures").EnumerateArray().Single(f => f.GetProperty("name").GetString() == "Cost");
        Assert.AreEqual((78.125, 2.44140625), (cost.GetProperty("before").GetDouble(), cost.GetProperty("after").GetDouble()));
    }

    [TestMethod]
    public void Fail_on_exits_5_when_the_after_side_in_the_dataset_is_worse()
    {
        foreach (var (name, (before, after)) in Pairs)
        {
            var undone = Compare(InDataset(after), InDataset(before), OutputFormat.Text, new FindingsSettings(null, Severity.Low));
            Assert.AreEqual(5, undone.Exit, $"{name}, the fix undone: {undone.Errors}");
            StringAssert.Contains(undone.Output, "Verdict: worse:", name);
            Assert.AreEqual(5, Compare(after, InDataset(before), OutputFormat.Text, new FindingsSettings(null, Severity.Low)).Exit, $"{name}: trace then dataset");
            Assert.AreEqual(0, Compare(InDataset(before), InDataset(after), OutputFormat.Text, new FindingsSettings(null, Severity.Low)).Exit, $"{name}: the fix");
        }
    }

    [TestMethod]
    public void A_thresholds_file_judges_the_stored_rows_as_it_judges_a_trace()
    {
        var (before, after) = Pairs["spin"];
        var strict = ThresholdsFile.Parse("""{ "spinWait": { "low": 0, "medium": 0, "high": 0 } }""", "strict.json");
        var files = Compare(before, after, settings: new FindingsSettings(strict, null));
        var stored = Compare(InDataset(before), InDataset(after), settings: new FindingsSettings(strict, null));
        Assert.AreEqual(Findings(files.Output), Findings(stored.Output));
        Assert.AreNotEqual(Findings(Compare(before, after).Output), Findings(files.Output), "the thresholds change the comparison (else this test shows nothing)");
    }

    [TestMethod]
    public void Unknown_malformed_and_ambiguous_ids_and_folders_that_are_not_datasets_exit_2_with_the_reason()
    {
        var (before, _) = Pairs["notify"];
        var ds = _fixture.Dataset;
        foreach (var (side, message) in new[]
        {
            ($"{ds}@00000000", $"error: {ds}@00000000: no trace in the dataset has an id starting 00000000"),
            ($"{ds}@{Id(before)[..7]}", $"error: {ds}@{Id(before)[..7]}: '{Id(before)[..7]}' is not a trace id: give 8 to 64 hex digits of the trace_id the dataset's traces table shows"),
            ($"{ds}@notanid!", $"error: {ds}@notanid!: 'notanid!' is not a trace id: give 8 to 64 hex digits of the trace_id the dataset's traces table shows"),
            ($"{_fixture.Inputs}@{Id(before)[..8]}", $"error: {_fixture.Inputs} is not a HiddenCost dataset (no _hiddencost_dataset.json); `hiddencost extract … --to {_fixture.Inputs}` makes one"),
        })
        {
            var (exit, output, errors) = Compare(before, side);
            Assert.AreEqual(2, exit, side);
            Assert.AreEqual(message, errors.Trim());
            Assert.AreEqual("", output, "no output file");
        }
        var ambiguous = Compare($"{ds}@{_twins.Prefix}", before);
        Assert.AreEqual(2, ambiguous.Exit);
        Assert.AreEqual($"error: {ds}@{_twins.Prefix}: 2 traces have ids starting {_twins.Prefix}; give more digits: " +
            string.Join(", ", new[] { _twins.First, _twins.Second }.Select(f => (Id(f), f)).Order().Select(p => $"{p.Item1} ({p.f})")), ambiguous.Errors.Trim());
    }

    [TestMethod]
    public void A_trace_the_dataset_records_as_refused_exits_1_as_an_unreadable_trace_does()
    {
        var (before, _) = Pairs["notify"];
        var (exit, output, errors) = Compare(before, $"{_fixture.Dataset}@{Id(_twins.First)}");
        Assert.AreEqual(1, exit, errors);
        StringAssert.StartsWith(errors, $"error: {_fixture.Dataset}@{Id(_twins.First)} ({_twins.First}): the dataset records it as refused: ");
        Assert.AreEqual("", output);
    }

    [TestMethod]
    public void A_trace_the_dataset_records_as_damaged_warns_and_exits_4_and_compares_as_the_cut_file_does()
    {
        var (_, after) = Pairs["notify"];
        var file = Compare(_cut, after);
        Assert.AreEqual(4, file.Exit, file.Errors);
        var stored = Compare(InDataset(_cut), InDataset(after));
        Assert.AreEqual(4, stored.Exit, stored.Errors);
        StringAssert.StartsWith(stored.Errors, $"warning: {_fixture.Dataset}@{Id(_cut)} ({_cut}): the dataset records it as read in part: ");
        Assert.AreEqual(Findings(file.Output), Findings(stored.Output));
        Assert.AreEqual(5, Compare(InDataset(after), InDataset(_cut), settings: new FindingsSettings(null, Severity.High)).Exit, "5 wins over 4");
    }

    /// <summary>
    /// Writes two 16-byte files whose SHA-256 share the first 8 hex digits (32 bits): found by trying counters, which the
    /// birthday bound makes take some 10^5 hashes.
    /// </summary>
    private static (string First, string Second, string Prefix) WriteTwins(string folder)
    {
        var seen = new Dictionary<uint, long>();
        Span<byte> content = stackalloc byte[16], hash = stackalloc byte[32];
        for (long i = 0; ; i++)
        {
            BitConverter.TryWriteBytes(content, i);
            SHA256.HashData(content, hash);
            uint prefix = System.Buffers.Binary.BinaryPrimitives.ReadUInt32BigEndian(hash);
            if (seen.TryGetValue(prefix, out long other))
            {
                string Write(long n, string name)
                {
                    var bytes = new byte[16];
                    BitConverter.TryWriteBytes(bytes, n);
                    var path = Path.Combine(folder, name);
                    File.WriteAllBytes(path, bytes);
                    return path;
                }
                return (Write(other, "junk-1.etl"), Write(i, "junk-2.etl"), prefix.ToString("x8"));
            }
            seen[prefix] = i;
        }
    }
}
