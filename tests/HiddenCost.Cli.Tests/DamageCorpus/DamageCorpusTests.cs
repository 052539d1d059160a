using System.Diagnostics;
using HiddenCost.Cli.Output;
using HiddenCost.TestSupport;

namespace HiddenCost.Cli.Tests.DamageCorpus;

/// <summary>
/// The damage corpus: variants of the shared real traces made by <see cref="DamageCorpusGenerator"/> from a fixed seed,
/// each run through the command's runner in this process as `hiddencost FILE --format csv --table "Trace Info" --table
/// "Event Counts"` would. Damage the reader can see exits 4 with the warning line, or 1 with the error line when nothing
/// can be read; damage no check can see may also exit 0; no case exits 3, prints a stack trace, runs past the timeout,
/// or allocates more than twice what the undamaged trace does plus 64 MiB. <c>HIDDENCOST_DAMAGE_SEED</c> and
/// <c>HIDDENCOST_DAMAGE_SCALE</c> make other and more cases.
/// </summary>
[TestClass]
public sealed class DamageCorpusTests
{
    private static readonly TimeSpan CaseTimeout = TimeSpan.FromSeconds(60);
    private const long AllocationAllowance = 64L * 1024 * 1024;
    private static readonly string[] Tables = ["Trace Info", "Event Counts"];

    private static int Seed => int.TryParse(Environment.GetEnvironmentVariable("HIDDENCOST_DAMAGE_SEED"), out var s) ? s : 38;
    private static int Scale => int.TryParse(Environment.GetEnvironmentVariable("HIDDENCOST_DAMAGE_SCALE"), out var s) && s > 0 ? s : 1;

    /// <summary>
    /// Each sample, the one it is joined to, how many of each random kind of case (times <see cref="Scale"/>) and the most
    /// cuts at its buffer boundaries. They cover uncompressed and compressed, kernel and user-mode, circular and
    /// sequential files; the two largest (net.4.5.2.x64, 359 compressed buffers, 179,474 events; TraceLoggingTester,
    /// 43 MB) cost about a second a run, so the first has few cases and the second none.
    /// </summary>
    public static IEnumerable<object[]> Samples =>
    [
        ["krabsetw/powershell.etl", "etl-parser/lxcore_kernel.etl", 2, 100],
        ["etl-parser/AMSITrace.etl", "krabsetw/powershell.etl", 2, 100],
        ["etl-parser/lxcore_kernel.etl", "perfview/SelfDescribingSingleEvent.etl", 2, 100],
        ["etl-parser/ShutdownPerfDiagLogger.etl", "etl-parser/AMSITrace.etl", 2, 100],
        ["perfview/SelfDescribingSingleEvent.etl", "perfview/primitive-types.etl.zip", 3, 100],
        ["perfview/gcevents.etl.zip", "perfview/gcrundownevents.etl.zip", 2, 100],
        ["perfview/gcrundownevents.etl.zip", "perfview/gcevents.etl.zip", 2, 100],
        ["perfview/primitive-types.etl.zip", "krabsetw/powershell.etl", 2, 100],
        ["perfview/net.4.5.2.x64.etl.zip", "perfview/SelfDescribingSingleEvent.etl", 1, 8],
    ];

    [TestMethod]
    [DynamicData(nameof(Samples))]
    public void Every_damaged_variant_exits_4_or_1_when_the_damage_can_be_seen_and_never_crashes_hangs_or_lies(string sample, string joinedTo, int count, int boundaryCuts)
    {
        var original = File.ReadAllBytes(SharedFolder.EtlSample(sample));
        var other = File.ReadAllBytes(SharedFolder.EtlSample(joinedTo));
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-damage-{Guid.NewGuid():N}.etl");
        try
        {
            File.WriteAllBytes(path, original);
            var clean = RunCase(path);
            Assert.AreEqual(0, clean.Exit, $"{sample} undamaged: {clean.Error}");
            long allowed = 2 * clean.Allocated + AllocationAllowance;
            var watch = Stopwatch.StartNew();
            int cases = 0, exit0 = 0, exit1 = 0, exit4 = 0;
            foreach (var damage in DamageCorpusGenerator.Generate(sample, original, other, Seed, count * Scale, boundaryCuts))
            {
                File.WriteAllBytes(path, damage.Bytes);
                var run = RunCase(path);
                string what = $"{sample}: {damage} (seed {Seed}): exit {run.Exit}: {run.Error}";
                Assert.IsFalse(run.Error.Contains("   at ", StringComparison.Ordinal) || run.Error.Contains("internal error", StringComparison.Ordinal), what);
                Assert.AreNotEqual(3, run.Exit, what);
                Assert.IsTrue(run.Allocated <= allowed, $"{what}: {run.Allocated:N0} bytes allocated, at most {allowed:N0}");
                var lines = run.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries).Where(l => !l.StartsWith("note: ", StringComparison.Ordinal)).ToArray();
                switch (run.Exit)
                {
                    case 4:
                        Assert.AreEqual(1, lines.Length, what);
                        StringAssert.StartsWith(lines[0], $"warning: {path} ", what);
                        exit4++;
                        break;
                    case 1:
                        Assert.AreEqual(1, lines.Length, what);
                        StringAssert.StartsWith(lines[0], $"error: {path}: offset 0x", what);
                        exit1++;
                        break;
                    case 0:
                        Assert.AreEqual(Expectation.MaybeUnseen, damage.Expect, $"{what}: damage a reader can see passed as a clean result");
                        Assert.AreEqual(0, lines.Length, what);
                        exit0++;
                        break;
                    default:
                        Assert.Fail(what);
                        break;
                }
                cases++;
            }
            Console.WriteLine($"{sample}: {cases} damaged variants in {watch.Elapsed.TotalSeconds:F1} s: exit 4 {exit4}, exit 1 {exit1}, exit 0 {exit0} " +
                              $"(undamaged: {clean.Allocated / 1024 / 1024} MiB allocated)");
            Assert.IsTrue(cases >= 40, $"{cases} cases");
        }
        finally
        {
            File.Delete(path);
        }
    }

    /// <summary>The corpus's size across the samples: at least the 500 variants the issue asks for.</summary>
    [TestMethod]
    public void The_corpus_holds_at_least_500_variants_of_the_shared_traces()
    {
        int total = 0;
        foreach (var row in Samples)
        {
            var original = File.ReadAllBytes(SharedFolder.EtlSample((string)row[0]));
            var other = File.ReadAllBytes(SharedFolder.EtlSample((string)row[1]));
            total += DamageCorpusGenerator.Generate((string)row[0], original, other, Seed, (int)row[2] * Scale, (int)row[3]).Count();
        }
        Console.WriteLine($"{total} damaged variants");
        Assert.IsTrue(total >= 500, $"{total} variants");
    }

    private readonly record struct CaseRun(int Exit, string Error, long Allocated);

    /// <summary>One run on a thread of its own, so that what it allocates there is what the run allocates (buffers
    /// loaded ahead come from the reader's pool), and a hang fails the case instead of the test run.</summary>
    private static CaseRun RunCase(string path)
    {
        var task = Task.Factory.StartNew(() =>
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            var output = new StringWriter();
            var error = new StringWriter();
            int exit = new CliRunner(output, error, interactive: false).Run([path], Tables, OutputFormat.Csv);
            return new CaseRun(exit, error.ToString(), GC.GetAllocatedBytesForCurrentThread() - before);
        }, TaskCreationOptions.LongRunning);
        Assert.IsTrue(task.Wait(CaseTimeout), $"{path}: no result after {CaseTimeout.TotalSeconds} s (hang)");
        return task.Result;
    }
}
