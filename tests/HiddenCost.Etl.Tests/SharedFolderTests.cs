using HiddenCost.TestSupport;

namespace HiddenCost.Etl.Tests;

[TestClass]
public sealed class SharedFolderTests
{
    [TestMethod]
    public void Shared_samples_folder_holds_the_twelve_public_traces()
    {
        var root = SharedFolder.Require();
        var files = Directory.GetFiles(Path.Combine(root, "etl-samples"), "*.etl*", SearchOption.AllDirectories);
        Assert.AreEqual(12, files.Length);
    }
}
