using HiddenCost.Synthetic.Model;

namespace HiddenCost.Analysis.Tests.Support;

/// <summary>Runs the analyzer over a synthetic trace the way a user would: written to a file, then read back.</summary>
internal static class SyntheticTraces
{
    public static AnalysisResult Analyze(BuiltTrace trace, string name)
    {
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-{name}-{Guid.NewGuid():N}.etl");
        trace.Save(path);
        try
        {
            var result = TraceAnalyzer.Analyze(path);
            Assert.IsNull(result.Error, result.Error);
            return result;
        }
        finally
        {
            File.Delete(path);
        }
    }
}
