namespace HiddenCost.Wpa.Tests.Host;

[TestClass]
public sealed class PercentProgressTests
{
    [TestMethod]
    public void Whole_percents_are_reported_once_each_and_never_backwards()
    {
        var host = new Recorder();
        var progress = new PercentProgress(host);
        foreach (var value in new[] { 0.0, 0.004, 0.05, 0.031, 0.05, 0.071, double.NaN, 1.5 }) progress.Report(value);
        CollectionAssert.AreEqual(new[] { 0, 5, 7, 100 }, host.Values);
    }

    private sealed class Recorder : IProgress<int>
    {
        public List<int> Values { get; } = new();
        public void Report(int value) => Values.Add(value);
    }
}
