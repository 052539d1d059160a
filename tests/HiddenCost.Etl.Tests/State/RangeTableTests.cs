using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.State;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.State;

[TestClass]
public sealed class RangeTableTests
{
    private static EtwEvent Method(ushort id, ulong start, uint size, string name, long t) =>
        SyntheticEvent.Manifest(id == 143 && t < 0 ? ClrProviders.Rundown : ClrProviders.Runtime, id, 1,
            new PayloadBuilder().U64(start).U64(1).U64(start).U32(size).U32(0).U32(8).Utf16z("N").Utf16z(name).Utf16z("()").U16(1).ToArray(),
            processId: 3, timestamp: Math.Max(t, 0));

    [TestMethod]
    public void Thousands_of_methods_added_in_random_order_all_resolve_synthetic()
    {
        var state = new TraceState();
        var random = new Random(5);
        var order = Enumerable.Range(0, 5_000).OrderBy(_ => random.Next()).ToArray();
        foreach (int i in order)
        {
            state.Observe(Method(143, 0x10_0000 + (ulong)i * 0x100, 0x80, "M" + i, 10));
            if (i % 997 == 0) Assert.AreEqual("N.M" + i, state.ResolveFrame(3, 0x10_0000 + (ulong)i * 0x100 + 5, 20).Name, "lookups between additions");
        }
        for (int i = 0; i < 5_000; i++)
        {
            Assert.AreEqual("N.M" + i, state.ResolveFrame(3, 0x10_0000 + (ulong)i * 0x100 + 0x7F, 20).Name);
            Assert.IsFalse(state.ResolveFrame(3, 0x10_0000 + (ulong)i * 0x100 + 0x80, 20).IsManaged, "gap between methods");
        }
        var starts = state.MethodsOf(3).Select(m => m.Start).ToArray();
        CollectionAssert.AreEqual(starts.Order().ToArray(), starts);
    }

    [TestMethod]
    public void A_reused_code_address_resolves_by_time_synthetic()
    {
        var state = new TraceState();
        state.Observe(Method(143, 0x5000, 0x40, "Old", 10));
        state.Observe(Method(144, 0x5000, 0x40, "Old", 20));
        state.Observe(Method(143, 0x5000, 0x40, "New", 30));
        Assert.AreEqual("N.Old", state.ResolveFrame(3, 0x5010, 15).Name);
        Assert.AreEqual("N.New", state.ResolveFrame(3, 0x5010, 35).Name);
        Assert.AreEqual("N.Old", state.ResolveFrame(3, 0x5010, 25).Name, "between the two, the latest earlier range");
    }

    private sealed class Range(string name, ulong start, ulong length, long load) : IAddressRange
    {
        public string Name { get; } = name;
        public ulong RangeStart { get; } = start;
        public ulong RangeLength { get; } = length;
        public long RangeLoad { get; } = load;
        public long RangeUnload { get; set; } = Lifetime.AfterTrace;
        public override string ToString() => Name;
    }

    [TestMethod]
    public void A_base_loaded_and_unloaded_again_and_again_has_its_newest_load_live_until_unloaded()
    {
        var table = new RangeTable<Range>();
        Range? last = null;
        for (int i = 0; i < 3_000; i++)
        {
            Assert.IsNull(table.FindLiveAt(0x1000), "every earlier load was unloaded");
            last = new Range("load " + i, 0x1000, 0x100, 10 * i);
            table.Add(last);
            Assert.AreSame(last, table.FindLiveAt(0x1000));
            last.RangeUnload = 10 * i + 5;
        }
        Assert.IsNull(table.FindLiveAt(0x1000));
        Assert.AreSame(last, table.FindAt(0x1000), "live or not, the newest");
        Assert.AreEqual("load 1234", table.Find(0x1080, 12_341)!.Name, "an address resolves to the load alive at the time");
        Assert.AreEqual("load 1234", table.Find(0x1080, 12_347)!.Name, "between loads, the latest earlier one");
    }

    [TestMethod]
    public void Ranges_added_at_one_start_while_an_older_one_is_live_answer_the_newest_live_one()
    {
        var table = new RangeTable<Range>();
        var a = new Range("a", 0x2000, 0x40, 10);
        var b = new Range("b", 0x2000, 0x40, 20);
        var c = new Range("c", 0x2000, 0x40, 30);
        table.Add(a);
        table.Add(b); // a rundown naming another method at a live JIT address: a stays live too
        Assert.AreSame(b, table.FindLiveAt(0x2000));
        b.RangeUnload = 25;
        Assert.AreSame(a, table.FindLiveAt(0x2000), "b unloaded: a is the newest live one");
        table.Add(c);
        c.RangeUnload = 35;
        Assert.AreSame(a, table.FindLiveAt(0x2000), "c unloaded: a again");
        a.RangeUnload = 40;
        Assert.IsNull(table.FindLiveAt(0x2000));
        for (int i = 0; i < 2_000; i++) table.Add(new Range("filler " + i, 0x10_0000 + (ulong)i * 0x100, 0x80, 50)); // merged into the main list
        var d = new Range("d", 0x2000, 0x40, 60);
        table.Add(d);
        Assert.AreSame(d, table.FindLiveAt(0x2000));
        Assert.AreSame(d, table.FindAt(0x2000));
        Assert.IsNull(table.FindLiveAt(0x2040), "no range starts there");
    }

    [TestMethod]
    public void Lookups_over_thousands_of_reloads_at_few_bases_match_a_scan_of_every_range_synthetic()
    {
        // Four bases far enough apart that no two cover one address, each loaded and unloaded again and again. The
        // first two always with one size, one load after another (runs a lookup searches by time); the other two
        // sometimes with another size, loaded again while still loaded, or known from a rundown only (loaded before
        // the trace): runs searched range by range.
        var random = new Random(20261123);
        var table = new RangeTable<Range>();
        var all = new List<Range>();
        var live = new Dictionary<ulong, List<Range>>();
        long now = 0;
        int checks = 0;
        for (int op = 0; op < 6_000; op++)
        {
            now += random.Next(1, 10);
            ulong start = 0x40_0000UL + (ulong)random.Next(4) * 0x1_0000;
            var open = live.TryGetValue(start, out var list) ? list : live[start] = new List<Range>();
            bool plain = start < 0x42_0000UL;
            if (open.Count > 0 && (plain || random.Next(50) != 0))
            {
                foreach (var r in open) r.RangeUnload = now;
                open.Clear();
            }
            else
            {
                ulong length = !plain && random.Next(10) == 0 ? (ulong)random.Next(0x100, 0x8000) : 0x800;
                var added = new Range($"r{all.Count}", start, length, !plain && random.Next(20) == 0 ? Lifetime.BeforeTrace : now);
                table.Add(added);
                all.Add(added);
                open.Add(added);
            }
            if (op % 500 == 499 || op == 5_999)
                for (int q = 0; q < 400; q++)
                {
                    ulong address = 0x40_0000UL + (ulong)random.Next(4) * 0x1_0000 + (ulong)random.Next(0x9000);
                    long t = random.Next(-10, (int)now + 10);
                    Assert.AreSame(Expected(all, address, t), table.Find(address, t), $"address 0x{address:X} at {t} after {op + 1} operations");
                    checks++;
                }
        }
        Assert.AreEqual(12 * 400, checks);
        Assert.AreEqual(2, table.OrderedRuns, "the first two bases");
    }

    /// <summary>The answer by its definition, over every range (only ranges of one base can cover an address here).</summary>
    private static Range? Expected(List<Range> all, ulong address, long t)
    {
        var covering = all.Where(r => address >= r.RangeStart && address - r.RangeStart < r.RangeLength).ToList(); // in order of addition
        var alive = covering.LastOrDefault(r => Lifetime.Contains(r.RangeLoad, r.RangeUnload, t));
        if (alive is not null) return alive;
        var before = covering.Where(r => r.RangeLoad <= t).ToList();
        if (before.Count > 0) return before.Last(r => r.RangeLoad == before.Max(b => b.RangeLoad));
        var after = covering.Where(r => r.RangeLoad > t).ToList();
        return after.Count > 0 ? after.Last(r => r.RangeLoad == after.Min(b => b.RangeLoad)) : null;
    }

    private sealed class WindowRange(int id, ulong start, ulong length, long load, long unload) : IAddressRange
    {
        public int Id { get; } = id;
        public ulong RangeStart { get; } = start;
        public ulong RangeLength { get; } = length;
        public long RangeLoad { get; } = load;
        public long RangeUnload { get; set; } = unload;
        public override string ToString() => $"#{Id} [{RangeLoad},{RangeUnload})";
    }

    private static WindowRange? Oracle(List<WindowRange> all, ulong address, long t, long from, long to)
    {
        var covering = all.Where(r => address - r.RangeStart < r.RangeLength).ToList();
        var alive = covering.LastOrDefault(r => t >= r.RangeLoad && t < r.RangeUnload);
        if (alive is not null) return alive;
        var inWindow = covering.Where(r => r.RangeUnload > from && r.RangeLoad < to).ToList();
        var before = inWindow.Where(r => r.RangeLoad <= t).OrderBy(r => r.RangeLoad).ThenBy(r => r.Id).LastOrDefault();
        if (before is not null) return before;
        return inWindow.Where(r => r.RangeLoad > t).OrderBy(r => r.RangeLoad).ThenByDescending(r => r.Id).FirstOrDefault();
    }

    [TestMethod]
    [DataRow(true)]
    [DataRow(false)]
    public void Lookups_within_a_lifetime_window_answer_as_a_walk_over_every_range_does(bool windowContainsTime)
    {
        const int RUNLEN = 12; // at least 8 ranges at one start: an ordered run, searched by time
        var random = new Random(17);
        int mismatches = 0;
        string first = "";
        for (int round = 0; round < 300; round++)
        {
            var table = new RangeTable<WindowRange>();
            var all = new List<WindowRange>();
            int id = 0;
            long time = 0;
            for (int k = 0; k < RUNLEN; k++)
            {
                time += random.Next(1, 5);
                long load = time;
                time += random.Next(0, 5);
                var r = new WindowRange(id++, 0x1000, 0x100, load, time);
                all.Add(r);
                table.Add(r);
            }
            _ = table.Items; // merge: the run is indexed
            for (int q = 0; q < 200; q++)
            {
                long t = random.Next(-2, (int)time + 3);
                long from, to;
                if (windowContainsTime) { from = t - random.Next(0, 20); to = t + 1 + random.Next(0, 20); }
                else { from = random.Next(-2, (int)time + 3); to = from + random.Next(1, 15); }
                var expected = Oracle(all, 0x1010, t, from, to);
                var actual = table.Find(0x1010, t, from, to);
                if (!ReferenceEquals(expected, actual) && mismatches++ == 0)
                    first = $"t={t} window=[{from},{to}) expected {expected} got {actual}; ranges {string.Join(" ", all)}";
            }
        }
        Assert.AreEqual(0, mismatches, first);
    }
}
