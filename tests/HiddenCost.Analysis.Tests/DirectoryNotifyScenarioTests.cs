using HiddenCost.Analysis.Tests.Support;
using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.DirectoryNotify;
using System.Text;
using HiddenCost.Synthetic.Etl;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// Directory Notify tables end to end on synthetic notify-buffer-storm traces (written by the project's
/// synthetic writer with documented layouts) against the scenario's ground truth.
/// </summary>
[TestClass]
public sealed class DirectoryNotifyScenarioTests
{
    private static (AnalysisResult Result, NotifyBufferStormTruth Truth) Run(NotifyBufferStormOptions options, TraceBuilderSettings settings)
    {
        var scenario = NotifyBufferStorm.Generate(options, settings);
        return (SyntheticTraces.Analyze(scenario.Trace, "notify"), scenario.Truth);
    }

    public static IEnumerable<object[]> Variants() =>
    [
        ["default, 64-bit, compressed", new NotifyBufferStormOptions(), new TraceBuilderSettings { Compress = true }],
        ["fewer batches, 1 MiB buffer, 32-bit", new NotifyBufferStormOptions { Batches = 150, LargeBufferBytes = 1024 * 1024, BurstBatches = [40] }, new TraceBuilderSettings { PointerSize = 4 }],
    ];

    [TestMethod]
    public void A_directory_named_only_as_its_file_object_goes_keeps_that_name_when_the_key_is_reused()
    {
        // Memory mode: the watched directory's FileCreate is gone; the kernel names its key by FileDelete when the
        // directory is closed, and the end rundown names the reused key as another file. The watch is of Inbox.
        var scenario = NotifyBufferStorm.Generate(new NotifyBufferStormOptions(), new TraceBuilderSettings());
        var key = scenario.Truth.DirectoryFileKey;
        bool NamesKey(KernelRecord k) => k.Group == 0x04 && k.Type == 36 && BitConverter.ToUInt64(k.Payload, 0) == key;
        var rundown = scenario.Trace.Records.OfType<KernelRecord>().Single(NamesKey);
        var reused = Encoding.Unicode.GetBytes(@"\Device\HarddiskVolume3\Temp\x.tmp" + "\0");
        var records = scenario.Trace.Records.SelectMany<TraceRecord, TraceRecord>(r => r is KernelRecord k && NamesKey(k)
            ? [new KernelRecord { Cpu = k.Cpu, Timestamp = k.Timestamp, PointerSize = k.PointerSize, HeaderKind = k.HeaderKind, Group = k.Group, Type = 35, Version = k.Version, Payload = k.Payload },
               new KernelRecord { Cpu = k.Cpu, Timestamp = k.Timestamp + 1, PointerSize = k.PointerSize, HeaderKind = k.HeaderKind, Group = k.Group, Type = 36, Version = k.Version,
                   Payload = [.. k.Payload.AsSpan(0, 8), .. reused] }]
            : [r]).ToList();
        Assert.AreEqual(scenario.Trace.Records.Count + 1, records.Count);
        var result = SyntheticTraces.Analyze(scenario.Trace.Settings, records, "notify-filedelete");
        var buffers = result.Table(DirectoryNotifyTables.Buffers);
        Assert.AreEqual(scenario.Truth.Watchers.Count, buffers.Rows.Count);
        for (int row = 0; row < buffers.Rows.Count; row++) Assert.AreEqual(scenario.Truth.Directory, buffers.Rows[row].Directory);
        Assert.AreEqual(scenario.Truth.Victims.Count, result.Table(DirectoryNotifyTables.Victims).Rows.Count);
    }

    [TestMethod]
    [DynamicData(nameof(Variants))]
    public void Buffers_table_matches_the_scenario_ground_truth(string variant, NotifyBufferStormOptions options, TraceBuilderSettings settings)
    {
        var (result, truth) = Run(options, settings);
        Assert.IsNull(result.Error, variant);
        var t = result.Table(DirectoryNotifyTables.Buffers);
        Assert.AreEqual(truth.Watchers.Count, t.Rows.Count, variant);
        foreach (var w in truth.Watchers)
        {
            int row = RowOf(t, w.Pid);
            Assert.AreEqual(w.Process, t.Rows[row].Process, variant);
            Assert.AreEqual(w.Directory, t.Rows[row].Directory, variant);
            Assert.AreEqual((long)w.BufferBytes, t.Rows[row].BufferBytes, variant);
            Assert.AreEqual((long)w.Arms, t.Rows[row].Arms, variant);
            Assert.AreEqual((long)w.Completions, t.Rows[row].Completions, variant);
            Assert.AreEqual((long)w.Overflows, t.Rows[row].Overflows, variant);
            Assert.AreEqual(w.BytesReturned, t.Rows[row].BytesReturned, variant);
            Assert.AreEqual(w.MeanBytesPerCompletion, (double)t.Rows[row].MeanBytesPerCompletion!, 1e-9, variant);
            Assert.AreEqual(w.UtilisationPercent, (double)t.Rows[row].UtilisationPercent!, 1e-9, variant);
            Assert.AreEqual(w.BytesZeroed, t.Rows[row].BytesZeroed, variant);
            CollectionAssert.AreEquivalent(w.VictimProcesses.ToArray(),
                (t.Rows[row].VictimProcesses).Split(", ").Select(v => v[..v.IndexOf(" (", StringComparison.Ordinal)]).ToArray(), variant);
            Assert.AreEqual(w.RecommendationExpected, t.Rows[row].RecommendedBufferBytes is not null, variant);
            Assert.AreEqual(w.FirstArmNs, t.Rows[row].FirstArm, variant);
            Assert.AreEqual(w.LastCompletionNs, t.Rows[row].LastCompletion, variant);
        }
    }

    [TestMethod]
    [DynamicData(nameof(Variants))]
    public void Victims_table_matches_the_scenario_ground_truth_and_readers_are_absent(string variant, NotifyBufferStormOptions options, TraceBuilderSettings settings)
    {
        var (result, truth) = Run(options, settings);
        var t = result.Table(DirectoryNotifyTables.Victims);
        Assert.AreEqual(truth.Victims.Count, t.Rows.Count, variant);
        foreach (var v in truth.Victims)
        {
            int row = RowOf(t, v.Pid);
            Assert.AreEqual(v.Process, t.Rows[row].Process, variant);
            Assert.AreEqual(v.Directory, t.Rows[row].Directory, variant);
            Assert.AreEqual((long)v.FileOperations, t.Rows[row].FileOperations, variant);
            Assert.AreEqual((long)v.Creates, t.Rows[row].Creates, variant);
            Assert.AreEqual((long)v.Deletes, t.Rows[row].Deletes, variant);
            Assert.AreEqual((long)v.Renames, t.Rows[row].Renames, variant);
            Assert.AreEqual((long)v.DemandZeroFaults, t.Rows[row].DemandZeroFaults, variant);
            Assert.AreEqual((long)v.Watchers, t.Rows[row].Watchers, variant);
            Assert.IsNull(t.Rows[row].NotifyCpuMs, variant);
        }
        Assert.IsFalse(t.Rows.Any(r => (long)r.Pid! == truth.ReadOnlyPid), $"{variant}: {truth.ReadOnlyProcess} only reads");
    }

    [TestMethod]
    public void Committed_sample_trace_shows_the_2_MiB_watcher_with_a_recommendation_and_the_16_KiB_one_without()
    {
        var sample = Path.Combine(TestSupport.SharedFolder.RepositoryRoot, "samples", "notify-buffer-storm.etl");
        var t = TraceAnalyzer.Analyze(sample).Table(DirectoryNotifyTables.Buffers);
        var big = t.Rows.Single(r => (long)r.BufferBytes! == 2 * 1024 * 1024);
        var small = t.Rows.Single(r => (long)r.BufferBytes! == 16 * 1024);
        Assert.AreEqual(65_536L, big.RecommendedBufferBytes);
        Assert.IsNull(small.RecommendedBufferBytes);
        Assert.AreEqual(838_860_800L, big.BytesZeroed);
    }

    private static int RowOf(Table t, int pid)
    {
        int pidColumn = t.Spec.Columns.ToList().FindIndex(c => c.Role == ColumnRole.ProcessId);
        for (int i = 0; i < t.RowCount; i++)
            if ((long?)t.Value(i, pidColumn) == pid) return i;
        Assert.Fail($"no row for PID {pid} in {t.Spec.Name}");
        return -1;
    }
}
