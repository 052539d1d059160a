using System.Diagnostics;
using HiddenCost.Cli.Commands;
using HiddenCost.Cli.Output;
using HiddenCost.TestSupport;

namespace HiddenCost.Cli.Tests;

/// <summary>Ctrl-C during `compare` ends it as an interrupted run (exit 130), as the main command does.</summary>
[TestClass]
public sealed class CompareInterruptTests
{
    [TestMethod]
    public void Compare_stopped_while_assessing_exits_130_says_interrupted_and_leaves_an_earlier_output_file()
    {
        var sample = SampleLocator.Find();
        Assert.IsNotNull(sample, "the committed sample is found");
        var dir = Directory.CreateTempSubdirectory("hiddencost-compare-stop-");
        try
        {
            var output = Path.Combine(dir.FullName, "out.json");
            File.WriteAllText(output, "earlier");
            var err = new StringWriter();
            int exit = CompareCommand.Run(sample, sample, OutputFormat.Json, output, FindingsSettings.Default, err, new CancellationToken(canceled: true));
            Assert.AreEqual(130, exit, err.ToString());
            Assert.AreEqual("interrupted", err.ToString().Trim());
            Assert.AreEqual("earlier", File.ReadAllText(output));
            Assert.AreEqual(1, Directory.GetFileSystemEntries(dir.FullName).Length, "no temporary file left");
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [TestMethod]
    public void Ctrl_C_at_any_moment_of_a_compare_ends_it_with_130_or_lets_it_finish()
    {
        if (OperatingSystem.IsWindows()) Assert.Inconclusive("sends SIGINT");
        var trace = SharedFolder.EtlSample("etwanalyzer/TraceLoggingTester.etl.zip"); // 43 MB: analysed twice, about half a second
        var dir = Directory.CreateTempSubdirectory("hiddencost-compare-interrupt-");
        try
        {
            var output = Path.Combine(dir.FullName, "out.csv");
            int interrupted = 0;
            foreach (int delay in new[] { 50, 250, 400, 600, 900 })
            {
                File.WriteAllText(output, "earlier");
                var start = new ProcessStartInfo("dotnet") { UseShellExecute = false, RedirectStandardError = true, RedirectStandardOutput = true };
                foreach (var a in new[] { Path.Combine(AppContext.BaseDirectory, "hiddencost.dll"), "compare", trace, trace, "-f", "csv", "-o", output })
                    start.ArgumentList.Add(a);
                using var child = Process.Start(start)!;
                var errors = child.StandardError.ReadToEndAsync();
                Thread.Sleep(delay);
                using (var kill = Process.Start("kill", $"-INT {child.Id}")!) kill.WaitForExit();
                bool ended = child.WaitForExit(30_000);
                if (!ended) child.Kill();
                Assert.IsTrue(ended, $"Ctrl-C after {delay} ms ended the compare");
                errors.Wait();
                Assert.IsFalse(errors.Result.Contains("   at ", StringComparison.Ordinal), errors.Result);
                if (child.ExitCode == 0) StringAssert.StartsWith(File.ReadAllText(output), "Before Trace,", "a compare that ended first wrote its comparison");
                else
                {
                    Assert.AreEqual(130, child.ExitCode, $"after {delay} ms: {errors.Result}");
                    Assert.AreEqual("earlier", File.ReadAllText(output), $"after {delay} ms");
                }
                if (errors.Result.Contains("interrupted", StringComparison.Ordinal))
                {
                    Assert.AreEqual(130, child.ExitCode);
                    interrupted++;
                }
                CollectionAssert.AreEqual(new[] { "out.csv" }, Directory.GetFileSystemEntries(dir.FullName).Select(Path.GetFileName).ToArray(), "no temporary file left");
            }
            Assert.IsTrue(interrupted > 0, "at least one Ctrl-C came while the traces were analysed (the handler's own path)");
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }
}
