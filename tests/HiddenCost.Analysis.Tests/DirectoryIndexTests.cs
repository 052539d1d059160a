using HiddenCost.Analysis.Tables.DirectoryNotify;

namespace HiddenCost.Analysis.Tests;

/// <summary>The look-ups behind the Directory Notify table: watched directories by name, and when they were watched.</summary>
[TestClass]
public sealed class DirectoryIndexTests
{
    private static List<string> Containing(DirectoryIndex<string> index, string path)
    {
        var found = new List<string>();
        index.Containing(path, found);
        return found;
    }

    [TestMethod]
    public void Path_finds_every_watched_ancestor_outermost_first_ignoring_case_and_trailing_backslashes()
    {
        var index = new DirectoryIndex<string>();
        index.Add(@"\Device\HarddiskVolume3\Build\", "build");
        index.Add(@"\Device\HarddiskVolume3\build\out", "out");
        index.Add(@"\Device\HarddiskVolume3\Build\out", "out, again");
        index.Add(@"\Device\HarddiskVolume3\Buil", "buil");
        Assert.AreEqual(4, index.Count);
        CollectionAssert.AreEqual(new[] { "build", "out", "out, again" }, Containing(index, @"\DEVICE\HarddiskVolume3\BUILD\Out\a.obj"));
        CollectionAssert.AreEqual(new[] { "build" }, Containing(index, @"\Device\HarddiskVolume3\Build\out"), "a directory is not inside itself");
        CollectionAssert.AreEqual(new[] { "build" }, Containing(index, @"\Device\HarddiskVolume3\Build\outer\x"));
        CollectionAssert.AreEqual(Array.Empty<string>(), Containing(index, @"\Device\HarddiskVolume3\Build\"), "nothing after the backslash");
        CollectionAssert.AreEqual(Array.Empty<string>(), Containing(index, @"\Device\HarddiskVolume3\Builder\a"));
        CollectionAssert.AreEqual(Array.Empty<string>(), Containing(index, "no backslash at all"));
    }

    [TestMethod]
    public void Removed_item_is_no_longer_found_and_others_under_the_name_stay()
    {
        var index = new DirectoryIndex<string>();
        string out1 = "out", out2 = "out, again";
        index.Add(@"\Device\HarddiskVolume3\Build\out", out1);
        index.Add(@"\Device\HarddiskVolume3\Build\out", out2);
        Assert.IsTrue(index.Remove(@"\DEVICE\HarddiskVolume3\Build\out\", out1));
        Assert.IsFalse(index.Remove(@"\Device\HarddiskVolume3\Build\out", out1), "already removed");
        Assert.IsFalse(index.Remove(@"\Device\HarddiskVolume3\Other", out2), "not filed there");
        CollectionAssert.AreEqual(new[] { out2 }, Containing(index, @"\Device\HarddiskVolume3\Build\out\a.obj"));
        Assert.IsTrue(index.Remove(@"\Device\HarddiskVolume3\Build\out", out2));
        Assert.AreEqual(0, index.Count);
        CollectionAssert.AreEqual(Array.Empty<string>(), Containing(index, @"\Device\HarddiskVolume3\Build\out\a.obj"));
    }

    [TestMethod]
    public void A_path_thousands_of_levels_deep_still_finds_its_shallow_watched_ancestor()
    {
        var index = new DirectoryIndex<string>();
        index.Add(@"\Device\HarddiskVolume3\deep", "deep");
        var path = @"\Device\HarddiskVolume3\deep" + string.Concat(Enumerable.Repeat(@"\d", 16_000)) + @"\file.txt";
        CollectionAssert.AreEqual(new[] { "deep" }, Containing(index, path));
    }

    [TestMethod]
    public void Periods_cover_a_time_when_some_watch_began_by_then_and_ended_after()
    {
        var periods = new WatchCoverage(new[] { (100L, 200L), (10L, 50L), (20L, 30L), (300L, long.MaxValue) });
        bool[] expected = { false, true, true, true, true, false, false, true, true, false, false, true, true };
        long[] times = { 9, 10, 25, 30, 49, 50, 99, 100, 199, 200, 299, 300, long.MaxValue - 1 };
        for (int i = 0; i < times.Length; i++) Assert.AreEqual(expected[i], periods.Covers(times[i]), $"t = {times[i]}");
        Assert.IsFalse(new WatchCoverage(Array.Empty<(long, long)>()).Covers(0));
    }
}
