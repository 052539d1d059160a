using HiddenCost.Synthetic.Samples;
using HiddenCost.Synthetic.Tests.Support;
using HiddenCost.TestSupport;

namespace HiddenCost.Synthetic.Tests;

/// <summary>The committed synthetic samples are exactly what the generator writes, and read cleanly.</summary>
[TestClass]
public sealed class SampleFilesTests
{
    private static readonly Lazy<IReadOnlyList<GeneratedSample>> Generated = new(() => SampleCatalog.All.Select(d => d.Generate()).ToList());

    private static string SamplesFolder => Path.Combine(SharedFolder.RepositoryRoot, "samples");

    [TestMethod]
    public void Committed_samples_are_byte_for_byte_what_the_generator_writes()
    {
        foreach (var sample in Generated.Value)
        {
            var path = Path.Combine(SamplesFolder, sample.Definition.FileName);
            Assert.IsTrue(File.Exists(path), $"{path} missing; run: {SampleReadme.RegenerateCommand}");
            CollectionAssert.AreEqual(sample.Bytes, File.ReadAllBytes(path), $"{sample.Definition.FileName} differs from a fresh generation; run: {SampleReadme.RegenerateCommand}");
        }
    }

    [TestMethod]
    public void Committed_readme_documents_the_generated_samples()
    {
        var path = Path.Combine(SamplesFolder, SampleReadme.FileName);
        Assert.AreEqual(SampleReadme.Render(Generated.Value), File.ReadAllText(path).Replace("\r\n", "\n"), $"run: {SampleReadme.RegenerateCommand}");
    }

    [TestMethod]
    public void Committed_samples_read_cleanly_and_say_they_are_synthetic()
    {
        long total = 0;
        foreach (var definition in SampleCatalog.All)
        {
            var path = Path.Combine(SamplesFolder, definition.FileName);
            var (header, events, health) = ReadBack.File(path);
            Assert.IsTrue(health.IsClean, $"{definition.FileName}: {string.Join("; ", health.Warnings)}");
            Assert.AreEqual("HiddenCost Synthetic Trace", header.LoggerName);
            Assert.AreEqual(definition.FileName, header.LogFileName);
            Assert.IsTrue(events.Count > 5_000, definition.FileName);
            total += new FileInfo(path).Length;
        }
        Assert.IsTrue(total < 5 * 1024 * 1024, $"samples stay small: {total:N0} bytes");
    }
}
