using HiddenCost.Analysis;
using HiddenCost.TestSupport;

namespace HiddenCost.Analysis.Tests;

/// <summary>
/// Cancelling an analysis stops it wherever it is — a trace smaller than one progress step included — and its
/// progress only moves forward although events come out of buffers written out of time order.
/// </summary>
[TestClass]
public sealed class AnalysisCancellationTests
{
    [TestMethod]
    public void A_cancelled_analysis_of_a_small_trace_stops_instead_of_finishing()
    {
        using var cancel = new CancellationTokenSource();
        cancel.Cancel();
        var path = SharedFolder.EtlSample("etl-parser/ShutdownPerfDiagLogger.etl"); // 17,078 events: fewer than one progress step
        Assert.Throws<OperationCanceledException>(() => TraceAnalyzer.Analyze(path, null, cancel.Token));
    }

    [TestMethod]
    public void Progress_starts_at_zero_ends_at_one_and_never_goes_back()
    {
        var reported = new List<double>();
        var result = TraceAnalyzer.Analyze(SharedFolder.EtlSample("etwanalyzer/TraceLoggingTester.etl.zip"), new Recorder(reported));
        Assert.IsNull(result.Error);
        Assert.AreEqual(0.0, reported[0]);
        Assert.AreEqual(1.0, reported[^1]);
        Assert.IsTrue(reported.Count >= 4, string.Join(", ", reported));
        for (int i = 1; i < reported.Count; i++)
            Assert.IsTrue(reported[i] >= reported[i - 1], string.Join(", ", reported));
        Assert.IsTrue(reported[1] < 0.75, "a third of the way through the events: " + string.Join(", ", reported));
    }

    /// <summary>Records synchronously (Progress&lt;T&gt; posts to the thread pool, out of order).</summary>
    private sealed class Recorder(List<double> values) : IProgress<double>
    {
        public void Report(double value) => values.Add(value);
    }
}
