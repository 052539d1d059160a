using HiddenCost.Analysis.Tables.SyscallHook;

namespace HiddenCost.Analysis.Tests;

/// <summary>Kernel modules by address over time: the lookups behind Syscall Hook Overhead's culprits and syscall names.</summary>
[TestClass]
public sealed class KernelModuleMapTests
{
    private const ulong Base = 0xFFFFF800_1000_0000UL;

    [TestMethod]
    public void Rundown_of_a_live_module_is_the_same_module_and_a_load_after_its_unload_is_a_new_one()
    {
        var map = new KernelModuleMap();
        var first = map.Loaded(10, Base, 0x1000, @"\SystemRoot\system32\drivers\tedrdrv.sys");
        Assert.AreSame(first, map.Loaded(20, Base, 0x1000, @"\SystemRoot\System32\Drivers\TEDRDRV.SYS"), "a rundown repeats the live module");
        var other = map.Loaded(25, Base, 0x1000, @"\SystemRoot\system32\drivers\other.sys");
        Assert.AreNotSame(first, other, "another file at the same base is another module");
        map.Unloaded(30, Base, 0x1000, "tedrdrv.sys");
        Assert.AreEqual(30L, first.UnloadNs);
        Assert.AreEqual(30L, other.UnloadNs, "an unload ends every module live at its base");
        var second = map.Loaded(40, Base, 0x1000, @"\SystemRoot\system32\drivers\tedrdrv.sys");
        Assert.AreNotSame(first, second);
        Assert.AreEqual(3, map.Modules.Count);
        Assert.AreSame(first, map.Find(Base + 0x10, 15));
        Assert.AreSame(second, map.Find(Base + 0x10, 45));
        Assert.AreEqual("tedrdrv.sys+0x10", map.Describe(Base + 0x10, 45));
        Assert.AreEqual($"<no module>+0x{Base + 0x1000:X}", map.Describe(Base + 0x1000, 45), "one past the end");
    }

    [TestMethod]
    public void Every_load_of_a_file_name_shares_one_name_however_spelt_and_wherever_loaded()
    {
        var map = new KernelModuleMap();
        var first = map.Loaded(10, Base, 0x1000, @"\SystemRoot\system32\drivers\tedrdrv.sys");
        map.Unloaded(20, Base, 0x1000, "tedrdrv.sys");
        var again = map.Loaded(30, Base + 0x10_0000, 0x1000, @"\SystemRoot\System32\Drivers\TEDRDRV.SYS");
        var other = map.Loaded(30, Base, 0x1000, @"\SystemRoot\system32\drivers\other.sys");
        Assert.AreNotSame(first, again);
        Assert.AreSame(first.Name, again.Name);
        Assert.AreEqual("tedrdrv.sys", again.Name.FileName, "the name as first spelt");
        Assert.AreEqual("TEDRDRV.SYS", again.FileName, "each load keeps its own spelling");
        Assert.AreNotSame(first.Name, other.Name);
        CollectionAssert.AreEqual(new[] { "tedrdrv.sys", "other.sys" }, map.Names.Select(n => n.FileName).ToArray());
        CollectionAssert.AreEqual(new[] { 0, 1 }, map.Names.Select(n => n.Index).ToArray());
    }

    [TestMethod]
    public void Thousands_of_modules_live_at_one_base_stay_distinct_and_their_rundowns_find_them()
    {
        // A hostile trace: modules of 5,000 names loaded at one base and never unloaded, then a rundown of each.
        var map = new KernelModuleMap();
        var loaded = Enumerable.Range(0, 5_000).Select(i => map.Loaded(i, Base, 0x1000, $@"\SystemRoot\drivers\d{i}.sys")).ToList();
        for (int i = 0; i < loaded.Count; i++) Assert.AreSame(loaded[i], map.Loaded(10_000 + i, Base, 0x1000, $@"\SystemRoot\drivers\D{i}.SYS"));
        Assert.AreEqual(5_000, map.Modules.Count);
        map.Unloaded(20_000, Base, 0x1000, "d0.sys");
        Assert.IsTrue(loaded.All(m => m.UnloadNs == 20_000));
        Assert.AreNotSame(loaded[7], map.Loaded(20_001, Base, 0x1000, @"\SystemRoot\drivers\d7.sys"), "after the unload, a new load");
    }

    [TestMethod]
    public void Lookups_between_thousands_of_loads_find_every_module_and_never_an_unloaded_one()
    {
        var map = new KernelModuleMap();
        for (int i = 0; i < 5_000; i++)
        {
            ulong at = Base + (ulong)(i % 100) * 0x10000;                     // 100 bases, each reloaded 50 times
            if (i >= 100) map.Unloaded(10 * i, at, 0x8000, $@"\SystemRoot\system32\drivers\d{i - 100}.sys");
            var m = map.Loaded(10 * i + 1, at, 0x8000, $@"\SystemRoot\system32\drivers\d{i}.sys");
            Assert.AreSame(m, map.Find(at + 0x7FFF, 10 * i + 2), $"load {i}, looked up at once");
            if (i >= 100) Assert.AreEqual($"d{i - 100}.sys", map.Find(at + 0x10, 10 * (i - 100) + 5)!.FileName, $"the module before load {i}, at its time");
        }
        for (int b = 0; b < 100; b++)
        {
            Assert.AreEqual($"d{4_900 + b}.sys", map.Find(Base + (ulong)b * 0x10000, 100_000)!.FileName, "the last load at each base");
            Assert.IsNull(map.Find(Base + (ulong)b * 0x10000 + 0x8000, 100_000), "the gap between modules");
        }
    }

    private static void LoadMany(KernelModuleMap map, int count, long t)
    {
        for (int i = 0; i < count; i++) map.Loaded(t, 0x1_0000_0000UL + (ulong)i * 0x1000, 0x100, $"f{i}.sys");
    }

    [TestMethod]
    public void A_lookup_weighs_the_eight_modules_nearest_below_it_however_many_were_loaded_since()
    {
        var map = new KernelModuleMap();
        map.Loaded(1, 0x1000, 0x100_0000, "big.sys");
        LoadMany(map, 63, 2);                                                   // the 64th load is kept apart from the rest
        for (int i = 0; i < 8; i++) map.Loaded(3, 0x2000 + (ulong)i * 0x1000, 0x100, $"s{i}.sys");
        Assert.IsNull(map.Find(0x5_0000, 100), "big.sys is the ninth module below the address");
        LoadMany(map, 64, 4);
        Assert.IsNull(map.Find(0x5_0000, 100), "the same answer once the recent loads are merged");
    }

    [TestMethod]
    public void Overlapping_modules_loaded_at_one_time_resolve_to_the_higher_base()
    {
        var map = new KernelModuleMap();
        var a = map.Loaded(5, 0x2000, 0x1000, "a.sys");
        LoadMany(map, 63, 5);
        map.Loaded(5, 0x1000, 0x10000, "b.sys");                                // kept apart from a.sys until the next merge
        Assert.AreSame(a, map.Find(0x2500, 10));
    }

    [TestMethod]
    public void A_module_first_seen_at_its_unload_held_its_range_until_then_and_only_since_the_last_unload_there()
    {
        var map = new KernelModuleMap();
        map.Unloaded(100, Base, 0x1000, @"\SystemRoot\system32\drivers\gone.sys");
        var gone = map.Modules.Single();
        Assert.AreEqual(("gone.sys", long.MinValue, 100L), (gone.FileName, gone.LoadNs, gone.UnloadNs));
        Assert.AreSame(gone, map.Find(Base + 0x10, 50));
        Assert.IsNull(map.Find(Base + 0x10, 100), "not after its unload");
        var later = map.Loaded(200, Base, 0x1000, "later.sys");
        Assert.AreSame(gone, map.Find(Base + 0x10, 50), "a later module at the base does not take the earlier frames");
        Assert.AreSame(later, map.Find(Base + 0x10, 250));
        map.Unloaded(300, Base, 0x1000, "later.sys");
        Assert.AreEqual(2, map.Modules.Count, "the unload of a known module adds none");
        map.Unloaded(400, Base, 0x1000, "third.sys");
        var third = map.Modules[^1];
        Assert.AreEqual(("third.sys", 300L, 400L), (third.FileName, third.LoadNs, third.UnloadNs), "loaded after the last unload there, at the latest");
    }

    [TestMethod]
    public void Unload_stamped_at_the_end_of_time_leaves_the_module_live()
    {
        var map = new KernelModuleMap();
        var first = map.Loaded(10, 0x1000, 0x1000, "a.sys");
        map.Unloaded(long.MaxValue, 0x1000, 0x1000, "a.sys");
        Assert.AreSame(first, map.Loaded(20, 0x1000, 0x1000, "a.sys"));
        Assert.AreEqual(1, map.Modules.Count);
    }
}
