using HiddenCost.Cli.Output;
using HiddenCost.TestSupport;

namespace HiddenCost.Cli.Tests.Golden;

/// <summary>
/// Every figure, note and error of every table, as `hiddencost --format json` writes them for every shared real trace
/// and every synthetic sample, compared with the golden files committed beside this test (one per trace,
/// <c>*.golden.jsonl</c>). Tables and columns the golden files lack (added later) are not compared; everything they hold
/// must stay exactly as it is. After a deliberate change of figures, regenerate with <c>HIDDENCOST_UPDATE_GOLDEN=1</c>
/// and review the golden files' diff; a failing run writes the output it got beside the build output to diff against.
/// </summary>
[TestClass]
public sealed class GoldenOutputTests
{
    private static string GoldenFolder => Path.Combine(SharedFolder.RepositoryRoot, "tests", "HiddenCost.Cli.Tests", "Golden");

    [TestMethod]
    [DataRow("etl-parser/AMSITrace.etl")]
    [DataRow("etl-parser/ShutdownPerfDiagLogger.etl")]
    [DataRow("etl-parser/lxcore_kernel.etl")]
    [DataRow("etwanalyzer/EmptyETL.etl")]
    [DataRow("etwanalyzer/TraceLoggingTester.etl.zip")]
    [DataRow("krabsetw/powershell.etl")]
    [DataRow("perfview/SelfDescribingSingleEvent.etl")]
    [DataRow("perfview/gcevents.etl.zip")]
    [DataRow("perfview/gcrundownevents.etl.zip")]
    [DataRow("perfview/net.4.5.2.x64.etl.zip")]
    [DataRow("perfview/net.4.5.2.x86.etl.zip")]
    [DataRow("perfview/primitive-types.etl.zip")]
    public void Json_output_of_a_shared_trace_matches_its_golden_file(string sample) =>
        Compare(SharedFolder.EtlSample(sample), sample.Replace('/', '_'));

    [TestMethod]
    [DataRow("event-log-render.etl")]
    [DataRow("hiddencost-sample.etl")]
    [DataRow("notify-buffer-storm.etl")]
    [DataRow("spin-contention.etl")]
    [DataRow("syscall-hook-storm.etl")]
    public void Json_output_of_a_synthetic_sample_matches_its_golden_file(string sample) =>
        Compare(Path.Combine(SharedFolder.RepositoryRoot, "samples", sample), "samples_" + sample);

    [TestMethod]
    public void Every_shared_trace_has_a_golden_file()
    {
        var root = Path.Combine(SharedFolder.Require(), "etl-samples");
        foreach (var file in Directory.GetFiles(root, "*.etl*", SearchOption.AllDirectories))
        {
            var name = Path.GetRelativePath(root, file).Replace(Path.DirectorySeparatorChar, '_');
            Assert.IsTrue(File.Exists(Path.Combine(GoldenFolder, name + ".golden.jsonl")), $"no golden file for {file}");
        }
    }

    private static void Compare(string tracePath, string goldenName)
    {
        var output = new StringWriter();
        new CliRunner(output, new StringWriter(), interactive: false).Run(new[] { tracePath }, Array.Empty<string>(), OutputFormat.Json);
        var actual = GoldenOutput.FromCliJson(output.ToString(), tracePath);
        var goldenPath = Path.Combine(GoldenFolder, goldenName + ".golden.jsonl");
        if (Environment.GetEnvironmentVariable("HIDDENCOST_UPDATE_GOLDEN") == "1")
        {
            File.WriteAllText(goldenPath, actual.ToText());
            return;
        }
        Assert.IsTrue(File.Exists(goldenPath), $"no golden file {goldenPath}: write it with HIDDENCOST_UPDATE_GOLDEN=1");
        var difference = GoldenOutput.Parse(File.ReadAllText(goldenPath)).FirstDifference(actual);
        if (difference is null) return;
        var got = Path.Combine(AppContext.BaseDirectory, goldenName + ".actual.jsonl");
        File.WriteAllText(got, actual.ToText());
        Assert.Fail($"{goldenName}: {difference} (output written to {got}; diff it against {goldenPath})");
    }
}
