using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Analysis.Tables.SpinWait;
using HiddenCost.Etl;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// The Spin-Wait event log keeps only its newest chunks in memory and writes older ones to a temporary file: with
/// chunks made tiny (almost everything written, stacks arriving for samples already written), every table is the same
/// as with the log in memory; when the file cannot be created, the log stays in memory and a note says so.
/// </summary>
[TestClass]
public sealed class SpinWaitLogSpillTests
{
    /// <summary>8 samples, 4 other events and 4 unplaced spin runs a chunk, one chunk of each in memory.</summary>
    private static readonly SpinLogOptions Tiny = new(3, 2, 1, 1, RunChunkShift: 2);

    private sealed class Recorder : ISpinEventVisitor
    {
        public readonly List<string> Seen = new();
        public void Sample(in LoggedSample s) => Seen.Add($"S{s.TimeNs}:{s.ThreadId}:{s.Process}:{s.InstructionPointer:X}:{s.Stack}");
        public void Event(in LoggedEvent e) => Seen.Add($"E{e.Kind}:{e.TimeNs}:{e.A:X}:{e.B:X}:{e.ThreadId}:{e.Process}:{e.WaitReason}:{e.State}");
    }

    private static List<string> Fill(SpinEventLog log)
    {
        var random = new Random(37);
        long t = 0;
        var indexes = new List<long>();
        for (int i = 0; i < 1000; i++)
        {
            // Mostly near times, some far ones (a time difference that does not fit 32 bits) and some going back.
            t += i % 97 == 0 ? 10_000_000_000L : i % 89 == 0 ? -5 : random.Next(1, 2_000_000);
            indexes.Add(log.AddSample(t, 100 + i % 7, i % 3, (ulong)(0x1000 + i), stack: i % 5 == 0 ? 0 : i));
            if (i % 4 == 0) log.AddContentionStart(t, 100 + i % 7, i % 3, (ulong)i, (ulong)(2 * i));
            if (i % 6 == 0) log.AddContentionStop(t + 1, 100 + i % 7, i % 3, i % 12 == 0 ? null : i * 1.5);
            if (i % 9 == 0) log.AddSwitchOut(t + 2, 100 + i % 7, i % 3, KernelWait.UserRequest, KernelWait.StateWaiting);
            // Stacks arrive late: for a sample 40 back (written to the file by then with tiny chunks) and for this one.
            if (i >= 40 && i % 5 == 0) log.SetStack(indexes[i - 40], 5000 + i);
            if (i % 10 == 3) log.SetStack(indexes[i], 9000 + i);
        }
        var r = new Recorder();
        log.Replay(r);
        return r.Seen;
    }

    [TestMethod]
    public void A_log_written_almost_all_to_its_file_replays_exactly_what_the_log_in_memory_replays()
    {
        using var inMemory = new SpinEventLog();
        using var spilled = new SpinEventLog(Tiny);
        var expected = Fill(inMemory);
        var actual = Fill(spilled);
        CollectionAssert.AreEqual(expected, actual);
        Assert.AreEqual(0L, inMemory.SpilledBytes, "the default keeps 65,536 samples a chunk in memory");
        // 1000 samples of 20 B in chunks of 8, one in memory: 124 chunks written; 529 events of 44 B in chunks of 4: 132.
        Assert.AreEqual(124L * 8 * 20 + 132L * 4 * 44, spilled.SpilledBytes);
        Assert.AreEqual(192, spilled.LateStacks, "stacks set for samples already written are kept aside");
        Assert.IsNull(spilled.SpillFailure);
    }

    [TestMethod]
    public void Unplaced_runs_written_to_their_file_come_back_in_order_with_their_threads_sites_and_paths()
    {
        var process = new ProcessRef(4200, 0, "Shop.exe");
        var tally = new ProcessTally(process);
        var threads = new[] { new ThreadSpinState(process, 7, tally), new ThreadSpinState(process, 8, tally) };
        var runs = new UnplacedRuns(Tiny);
        var added = new List<(ThreadSpinState, SpinRun)>();
        for (int i = 0; i < 103; i++)
        {
            var paths = default(RuntimePaths).With((ulong)(i % 3));
            if (i % 10 == 0) paths = paths.With(0x9000).With(0x9100 + (ulong)i);  // several paths: kept aside
            var run = new SpinRun(i * 100, i * 100 + 50, 10 + i, i % 4 == 0 ? null : "Site" + i % 5, i % 2 == 0, i % 3 == 0, paths);
            runs.Add(threads[i % 2], run);
            added.Add((threads[i % 2], run));
        }
        Assert.AreEqual(25L * 4 * 48, runs.SpilledBytes, "103 runs, 4 a chunk, the newest chunk in memory: 25 chunks of 48-byte runs written");
        var placed = new List<(ThreadSpinState, SpinRun)>();
        runs.PlaceAll((th, run) => placed.Add((th, run)));
        Assert.AreEqual(added.Count, placed.Count);
        for (int i = 0; i < added.Count; i++)
        {
            var (th, run) = placed[i];
            var (th0, run0) = added[i];
            Assert.AreSame(th0, th);
            Assert.AreEqual((run0.StartNs, run0.EndNs, run0.CpuNs, run0.Site, run0.Named, run0.Wasted), (run.StartNs, run.EndNs, run.CpuNs, run.Site, run.Named, run.Wasted));
            foreach (ulong path in new ulong[] { 0, 1, 2, 0x9000, 0x9100 + (ulong)i }) Assert.AreEqual(run0.Paths.Contains(path), run.Paths.Contains(path), $"run {i} path {path:X}");
        }
        Assert.AreEqual(0L, runs.Count, "placed runs are not kept");
        runs.PlaceAll((_, _) => Assert.Fail("placed twice"));
    }

    [TestMethod]
    public void A_log_whose_temporary_folder_does_not_exist_keeps_its_chunks_in_memory_and_says_why()
    {
        string missing = Path.Combine(Path.GetTempPath(), "hiddencost-no-such-folder-" + Guid.NewGuid().ToString("N"), "deeper");
        using var inMemory = new SpinEventLog();
        using var failed = new SpinEventLog(Tiny with { Directory = missing });
        CollectionAssert.AreEqual(Fill(inMemory), Fill(failed));
        Assert.AreEqual(0L, failed.SpilledBytes);
        Assert.AreEqual(0, failed.LateStacks);
        StringAssert.StartsWith(failed.SpillFailure, $"the temporary file could not be created in {missing} (");
    }

    [TestMethod]
    public void The_log_leaves_no_file_in_its_folder()
    {
        string folder = Directory.CreateTempSubdirectory("hiddencost-spill-").FullName;
        try
        {
            using (var log = new SpinEventLog(Tiny with { Directory = folder }))
            {
                Fill(log);
                Assert.IsTrue(log.SpilledBytes > 0);
                if (!OperatingSystem.IsWindows()) Assert.AreEqual(0, Directory.GetFiles(folder).Length, "unlinked at once on Unix");
            }
            Assert.AreEqual(0, Directory.GetFiles(folder).Length, "deleted when closed");
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [TestMethod]
    [DataRow("perfview/net.4.5.2.x64.etl.zip")]
    [DataRow("perfview/net.4.5.2.x86.etl.zip")]
    public void Real_trace_tables_are_the_same_with_the_log_written_to_its_file(string sample)
    {
        var path = SharedFolder.EtlSample(sample);
        var (expected, _) = Run(() => EtlReader.Open(path), SpinLogOptions.Default);
        var (actual, written, runsWritten) = Run3(() => EtlReader.Open(path), Tiny);
        Assert.IsTrue(written > 100_000, $"{written} bytes written");
        // Runtime code called from managed code: runs that only the end places (or sets aside), written 4 a chunk.
        Assert.IsTrue(runsWritten > 1_000, $"{runsWritten} bytes of runs written");
        AssertSame(expected, actual);
    }

    [TestMethod]
    public void Synthetic_spin_contention_tables_are_the_same_with_the_log_written_to_its_file()
    {
        var bytes = SpinContention.Generate(new SpinContentionOptions { Runtime = ClrFlavor.CoreClr }, new TraceBuilderSettings()).Trace.Bytes;
        var (expected, _) = Run(() => EtlReader.Open(bytes, "spin-contention.etl"), SpinLogOptions.Default);
        var (actual, written) = Run(() => EtlReader.Open(bytes, "spin-contention.etl"), Tiny);
        Assert.IsTrue(written > 10_000, $"{written} bytes written");
        Assert.IsTrue(expected[0].RowCount > 0, "the scenario has contended locks");
        AssertSame(expected, actual);
    }

    [TestMethod]
    public void Without_a_temporary_file_the_tables_are_the_same_and_carry_a_note_naming_the_folder()
    {
        var bytes = SpinContention.Generate(new SpinContentionOptions { Runtime = ClrFlavor.CoreClr }, new TraceBuilderSettings()).Trace.Bytes;
        string missing = Path.Combine(Path.GetTempPath(), "hiddencost-no-such-folder-" + Guid.NewGuid().ToString("N"));
        var (expected, _) = Run(() => EtlReader.Open(bytes, "spin-contention.etl"), SpinLogOptions.Default);
        var (actual, written) = Run(() => EtlReader.Open(bytes, "spin-contention.etl"), Tiny with { Directory = missing });
        Assert.AreEqual(0L, written);
        for (int t = 0; t < expected.Count; t++)
        {
            var extra = actual[t].Notes.Single(n => n.Code == "spin-wait.log-in-memory");
            StringAssert.StartsWith(extra.Text, "The CPU samples and contention events kept for the end of the pass stayed in memory, so memory grew with the trace: " +
                                                $"the temporary file could not be created in {missing} (");
            StringAssert.EndsWith(extra.Text, "). The figures are not affected.");
            Assert.AreEqual(Dump(expected[t]), Dump(actual[t], skipCode: "spin-wait.log-in-memory"));
        }
    }

    private static (IReadOnlyList<Table> Tables, long Written, long RunsWritten) Run3(Func<EtlReader> open, SpinLogOptions options)
    {
        var session = new TraceSession();
        var analysis = new SpinWaitAnalysis(session, options);
        using var reader = open();
        long first = long.MaxValue, last = long.MinValue, count = 0;
        foreach (var e in reader.ReadEvents())
        {
            count++;
            first = Math.Min(first, e.TimeNs);
            last = Math.Max(last, e.TimeNs);
            session.Observe(e);
            analysis.OnEvent(e);
        }
        session.Complete();
        var tables = analysis.Complete(new AnalysisContext(reader.FilePath, reader.FileLength, reader.Header, reader.Health, count, first, last));
        return (tables, analysis.LogSpilledBytes, analysis.RunsSpilledBytes);
    }

    private static (IReadOnlyList<Table> Tables, long Written) Run(Func<EtlReader> open, SpinLogOptions options)
    {
        var (tables, written, _) = Run3(open, options);
        return (tables, written);
    }

    private static void AssertSame(IReadOnlyList<Table> expected, IReadOnlyList<Table> actual)
    {
        Assert.AreEqual(expected.Count, actual.Count);
        for (int t = 0; t < expected.Count; t++) Assert.AreEqual(Dump(expected[t]), Dump(actual[t]));
    }

    /// <summary>Every cell and note of a table, as text.</summary>
    private static string Dump(Table table, string? skipCode = null)
    {
        var lines = new List<string> { table.Spec.Name };
        for (int r = 0; r < table.RowCount; r++)
            lines.Add(string.Join(" | ", Enumerable.Range(0, table.Columns.Count).Select(c => Convert.ToString(table.Value(r, c), System.Globalization.CultureInfo.InvariantCulture))));
        lines.AddRange(table.Notes.Where(n => n.Code != skipCode).Select(n => $"{n.Severity} {n.Code}: {n.Text}"));
        return string.Join("\n", lines);
    }
}
