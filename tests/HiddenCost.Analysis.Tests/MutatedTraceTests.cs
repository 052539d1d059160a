using System.Buffers.Binary;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.TraceInfo;
using HiddenCost.Analysis.Tables.TraceReadiness;
using HiddenCost.Analysis.Tables.EventCounts;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// The whole analysis (reader, decoders, shared state and stacks, every table) on damaged copies of the synthetic
/// scenario traces, seeded and reproducible: it may reject a file or read it with warnings, but no exception
/// leaves <see cref="TraceAnalyzer.Analyze"/>, nothing hangs, and damage the reader stepped over is shown. The
/// traces are written uncompressed so that flipped bits land in event payloads (where the decoders and the
/// trackers see hostile values) instead of breaking an XPRESS stream, which only drops the buffer.
/// <c>HIDDENCOST_MUTATION_SCALE</c> multiplies the case count and <c>HIDDENCOST_MUTATION_SEED</c> changes the
/// seed, as for the reader's mutation tests.
/// </summary>
[TestClass]
public sealed class MutatedTraceTests
{
    private const int CasesPerScenario = 40;
    private const int BufferHeaderSize = FileBuffers.HeaderSize;
    private static readonly TimeSpan CaseTimeout = TimeSpan.FromSeconds(30);

    private static int Scale => int.TryParse(Environment.GetEnvironmentVariable("HIDDENCOST_MUTATION_SCALE"), out var s) && s > 0 ? s : 1;

    private static int Seed => int.TryParse(Environment.GetEnvironmentVariable("HIDDENCOST_MUTATION_SEED"), out var s) ? s : 0x0505_2025;

    public static IEnumerable<object[]> Scenarios => new[] { "syscall", "spin", "notify", "eventlog" }.Select(s => new object[] { s });

    [TestMethod]
    [DynamicData(nameof(Scenarios))]
    public void Damaged_scenario_traces_are_rejected_or_analysed_with_visible_warnings_synthetic(string scenario)
    {
        var original = Generate(scenario);
        var buffers = FileBuffers.Walk(original);
        Assert.IsTrue(buffers.Count > 4, $"{scenario}: {buffers.Count} buffers");
        int rejected = 0, warned = 0, damaged = 0;
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-mutated-{scenario}-{Guid.NewGuid():N}.etl");
        try
        {
            for (int i = 0; i < CasesPerScenario * Scale; i++)
            {
                // Not HashCode.Combine: its seed changes with every process, and a failing case must come back.
                var random = new Random(unchecked(Seed * 7919 + ScenarioNumber(scenario) * 100_003 + i));
                var bytes = Mutate(original, buffers, random, out var what);
                File.WriteAllBytes(path, bytes);
                var description = $"{scenario} case {i} ({what}, seed {Seed})";
                var task = Task.Run(() => TraceAnalyzer.Analyze(path));
                try
                {
                    Assert.IsTrue(task.Wait(CaseTimeout), $"{description}: no result after {CaseTimeout.TotalSeconds} s (hang)");
                }
                catch (AggregateException e)
                {
                    Assert.Fail($"{description}: {e.InnerException}");
                }
                var result = task.Result;
                CollectionAssert.AreEqual(TableCatalog.All.Select(t => t.Name).ToArray(), result.Tables.Select(t => t.Spec.Name).ToArray(), description);
                if (result.Error is not null)
                {
                    rejected++;
                    Assert.IsTrue(result.Tables.All(t => t.Notes.Texts().Contains(result.Error)), $"{description}: the error is not on every table");
                    continue;
                }
                if (result.Warning is not null)
                {
                    damaged++;
                    Assert.IsTrue(result.Tables.All(t => t.Notes.Texts().Contains(result.Warning)), $"{description}: the damage is not on every table");
                }
                else if (what.StartsWith("cut", StringComparison.Ordinal))
                {
                    Assert.Fail($"{description}: a cut file read as whole");
                }
                var info = result.Table(TraceInfoAnalysis.Definition);
                Assert.AreEqual(1, info.Rows.Count, description);
                if (info.Rows[0].ReaderWarnings > 0)
                {
                    warned++;
                    Assert.IsTrue(info.Notes.Texts().Any(n => n.StartsWith("reader: ", StringComparison.Ordinal)), $"{description}: reader warnings not shown");
                }
            }
        }
        finally
        {
            File.Delete(path);
        }
        // The mutations must reach the paths they are for: some files read with warnings, most not rejected.
        Assert.IsTrue(warned > 0, $"{scenario}: no case produced a reader warning");
        Assert.IsTrue(damaged > 0, $"{scenario}: no case was read as damaged");
        Assert.IsTrue(rejected < CasesPerScenario * Scale / 2, $"{scenario}: {rejected} of {CasesPerScenario * Scale} cases rejected outright");
    }

    [TestMethod]
    public void Traces_joined_into_one_file_say_on_every_table_that_figures_may_count_events_twice_synthetic()
    {
        var original = Generate("notify");
        int buffers = FileBuffers.Walk(original).Count;
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-joined-{Guid.NewGuid():N}.etl");
        try
        {
            File.WriteAllBytes(path, [.. original, .. original]);
            var result = TraceAnalyzer.Analyze(path);
            Assert.IsNull(result.Error);
            var expected = $"{path} holds {buffers:N0} more buffers than its trace header says were written ({buffers:N0}): traces joined together, " +
                           "or a recording whose header was not updated when it stopped. Every buffer was read, so figures may count another " +
                           "trace's events, or the same events twice.";
            Assert.AreEqual(expected, result.Warning);
            foreach (var table in result.Tables) CollectionAssert.Contains(table.Notes.Texts().ToList(), expected, table.Spec.Name);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [TestMethod]
    public void A_cut_trace_says_on_every_table_that_only_part_of_it_was_read_and_a_whole_one_does_not_synthetic()
    {
        var original = Generate("notify");
        var buffers = FileBuffers.Walk(original);
        var (offset, size) = buffers[buffers.Count / 2];
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-cut-{Guid.NewGuid():N}.etl");
        try
        {
            File.WriteAllBytes(path, original);
            Assert.IsNull(TraceAnalyzer.Analyze(path).Warning, "the whole trace is not damaged");
            File.WriteAllBytes(path, original[..(offset + size / 2)]);
            var result = TraceAnalyzer.Analyze(path);
            Assert.IsNull(result.Error);
            Assert.AreEqual($"{path} is damaged (offset 0x{offset:X}: file ends inside a {size}-byte buffer ({size / 2} bytes present); the file ends early): " +
                            "only what could be read was analysed, so a figure may be low, and a table that is empty or says the trace lacks events " +
                            "may show the damage, not the recording (Trace Info lists every warning).", result.Warning);
            Assert.IsTrue(result.Tables.All(t => t.Notes.Texts().Contains(result.Warning)));
        }
        finally
        {
            File.Delete(path);
        }
    }

    private static int ScenarioNumber(string scenario) => Scenarios.Select(s => (string)s[0]).ToList().IndexOf(scenario);

    private static byte[] Generate(string scenario)
    {
        var settings = new TraceBuilderSettings { Compress = false, Stacks = StackEncoding.Keyed };
        return scenario switch
        {
            "syscall" => SyscallHookStorm.Generate(null, settings).Bytes,
            "spin" => SpinContention.Generate(null, settings).Bytes,
            "notify" => NotifyBufferStorm.Generate(null, settings).Bytes,
            _ => EventLogRender.Generate(null, settings).Bytes,
        };
    }

    private static byte[] Mutate(byte[] original, List<(int Offset, int Size)> buffers, Random random, out string what)
    {
        var bytes = (byte[])original.Clone();
        switch (random.Next(4))
        {
            case 0 or 1:
            {
                // Bit flips in buffer data (records: mostly payload bytes), where decoders and trackers read values.
                int flips = random.Next(1, 17);
                for (int f = 0; f < flips; f++)
                {
                    var (buffer, size) = buffers[random.Next(buffers.Count)];
                    bytes[buffer + BufferHeaderSize + random.Next(size - BufferHeaderSize)] ^= (byte)(1 << random.Next(8));
                }
                what = $"{flips} bit flips in buffer data";
                break;
            }
            case 2:
            {
                // Extreme 8-byte values anywhere: sizes, counts, timestamps, addresses and ids at their limits.
                int writes = random.Next(1, 5);
                for (int w = 0; w < writes; w++)
                {
                    long value = random.Next(4) switch { 0 => -1, 1 => long.MaxValue, 2 => long.MinValue, _ => random.NextInt64() };
                    BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(random.Next(bytes.Length - 8)), value);
                }
                what = $"{writes} extreme 8-byte values";
                break;
            }
            default:
            {
                int cut = BufferHeaderSize + random.Next(bytes.Length - BufferHeaderSize);
                what = $"cut at 0x{cut:X}";
                return bytes[..cut];
            }
        }
        return bytes;
    }
}
