using System.Xml.Linq;
using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables;
using HiddenCost.PackTool;
using HiddenCost.PackTool.Common;
using HiddenCost.PackTool.WpaProfiles;

namespace HiddenCost.ProfilePack.Tests;

[TestClass]
public sealed class WpaProfileTests
{
    private static readonly XNamespace Ns = PresetWriter.Ns;

    private static (TableList Ours, TableList Wpa) Lists()
    {
        var issues = new List<PackIssue>();
        var ours = TableList.Load(Pack.Layout.HiddenCostTables, "hiddencost-tables.txt", false, issues);
        var wpa = TableList.Load(Pack.Layout.WpaBuiltInTables, "wpa-builtin-tables.txt", true, issues);
        Pack.AssertNoIssues(issues);
        return (ours, wpa);
    }

    private static XDocument Load(string file)
    {
        var doc = SafeXml.TryLoad(Path.Combine(Pack.Layout.WpaProfiles, file), file, out var issue);
        Assert.IsNull(issue, issue?.ToString());
        return doc!;
    }

    private static Guid[] GraphIds(string file) =>
        Load(file).Descendants(Ns + "Graph").Select(g => Guid.Parse(g.Attribute("Guid")!.Value)).ToArray();

    [TestMethod]
    public void Presets_follow_every_rule_and_match_their_generation()
    {
        Pack.AssertNoIssues(PackChecks.Presets(Pack.Layout));
        CollectionAssert.AreEquivalent(
            new[] { "DirNotify.wpaProfile", "EventLog.wpaProfile", "HiddenCost.wpaProfile", "SpinWait.wpaProfile", "SysCall.wpaProfile" },
            Directory.GetFiles(Pack.Layout.WpaProfiles, "*.wpaProfile").Select(Path.GetFileName).ToArray());
    }

    [TestMethod]
    public void Our_tables_are_graphed_only_where_they_have_a_figure_and_a_start_time()
    {
        // WPA graphs over time: a table with no start time (Trace Readiness, Event Counts, the by-process and victims
        // tables) or no figure (Trace Info) opens as its table alone, not under an empty graph of its last column.
        var ours = Lists().Ours.Entries.Select(e => e.Id).ToHashSet();
        var layouts = new Dictionary<Guid, string>();
        foreach (var file in Directory.GetFiles(Pack.Layout.WpaProfiles, "*.wpaProfile").Select(Path.GetFileName))
            foreach (var graph in Load(file!).Descendants(Ns + "Graph").Where(g => ours.Contains(Guid.Parse(g.Attribute("Guid")!.Value))))
            {
                var spec = TableCatalog.All.Single(t => t.Id == Guid.Parse(graph.Attribute("Guid")!.Value));
                bool graphable = spec.DefaultView.GraphColumn is not null && spec.Columns.Any(c => c.Role == ColumnRole.StartTime);
                Assert.AreEqual(graphable ? "All" : "DataTable", (string?)graph.Attribute("LayoutStyle"), $"{file}: {spec.Name}");
                layouts[spec.Id] = (string)graph.Attribute("LayoutStyle")!;
            }
        Assert.AreEqual("DataTable", layouts[TableIds.TraceReadiness]);
        Assert.AreEqual("DataTable", layouts[TableIds.EventCounts]);
        Assert.AreEqual("DataTable", layouts[TableIds.TraceInfo]);
        Assert.AreEqual("All", layouts[TableIds.SyscallHookOverhead]);
    }

    [TestMethod]
    public void Problem_presets_group_only_by_stacks_their_profile_records()
    {
        // A stack column with no stacks behind it is one empty group: the CSwitch stack column needs CSwitch stacks,
        // File I/O's stack column file stacks, in the wprp profile of the same name (or the base all share).
        var wprp = SafeXml.TryLoad(Pack.Layout.Wprp, "MultiProfile.wprp", out var issue)!;
        Assert.IsNull(issue, issue?.ToString());
        string[] Stacks(string provider) => wprp.Descendants().Where(e => e.Name.LocalName == "SystemProvider" && (string?)e.Attribute("Id") == provider)
            .Descendants().Where(e => e.Name.LocalName == "Stack").Select(e => (string)e.Attribute("Value")!).ToArray();
        const string CSwitchStack = "68482a06-b6a3-4eb9-922f-9fa43537148b", FileIoStack = "ecf6e842-d5da-4d95-84c7-63ab3b6cf318";
        foreach (var profile in new[] { "SysCall", "SpinWait", "DirNotify", "EventLog" })
        {
            var stacks = Stacks("SystemProvider_" + profile).Concat(Stacks("SystemProvider_Base")).ToHashSet();
            var shown = Load(profile + ".wpaProfile").Descendants(Ns + "Column")
                .Where(c => (string?)c.Attribute("IsVisible") == "true").Select(c => (string)c.Attribute("Guid")!).ToHashSet();
            if (shown.Contains(CSwitchStack)) Assert.IsTrue(stacks.Contains("CSwitch"), $"{profile}: groups by CSwitch stacks it does not record");
            if (shown.Contains(FileIoStack)) Assert.IsTrue(stacks.Any(v => v.StartsWith("File", StringComparison.Ordinal)), $"{profile}: groups by file stacks it does not record");
        }
    }

    [TestMethod]
    public void Table_list_holds_the_plugins_fixed_table_guids()
    {
        var ours = Lists().Ours;
        var expected = new (string Name, Guid Id)[]
        {
            ("Trace Info", TableIds.TraceInfo), ("Event Counts", TableIds.EventCounts), ("Trace Readiness", TableIds.TraceReadiness),
            ("Directory Notify Buffers", TableIds.DirectoryNotifyBuffers), ("Directory Notify Victims", TableIds.DirectoryNotifyVictims),
            ("Syscall Hook Overhead", TableIds.SyscallHookOverhead), ("Profiling Gaps", TableIds.ProfilingGaps),
            ("Spin-Wait Cost per Lock", TableIds.SpinWaitCostPerLock), ("Spin-Wait by Process", TableIds.SpinWaitByProcess),
            ("Event Log Render Cost", TableIds.EventLogRenderCost), ("Symbols", TableIds.Symbols), ("CPU by Function", TableIds.CpuByFunction),
            ("Findings", TableIds.Findings),
        };
        CollectionAssert.AreEqual(expected.Select(e => e.Name).ToArray(), ours.Entries.Select(e => e.Name).ToArray());
        foreach (var (name, id) in expected) Assert.AreEqual(id, ours.Require(name).Id, name);
        foreach (var spec in TableCatalog.All) Assert.AreEqual(spec.Id, ours.Require(spec.Name).Id, spec.Name);
    }

    [TestMethod]
    public void Every_graph_is_one_of_our_tables_or_a_documented_wpa_table()
    {
        var (ours, wpa) = Lists();
        int graphs = 0;
        foreach (var file in Directory.GetFiles(Pack.Layout.WpaProfiles, "*.wpaProfile"))
            foreach (var id in GraphIds(Path.GetFileName(file)))
            {
                Assert.IsTrue(ours.ById(id) is not null || wpa.ById(id) is not null, $"{Path.GetFileName(file)}: {id}");
                graphs++;
            }
        Assert.AreEqual(28, graphs);
        Assert.IsTrue(wpa.Entries.All(e => e.Source.Length > 0), "every WPA table GUID names its public source");
    }

    [TestMethod]
    public void Each_problem_preset_shows_its_tables_beside_the_wpa_tables_that_confirm_them()
    {
        var wpa = Lists().Wpa;
        Guid Wpa(string name) => wpa.Require(name).Id;
        CollectionAssert.AreEqual(new[] { TableIds.SyscallHookOverhead, TableIds.ProfilingGaps, Wpa("CPU Usage (Sampled)"), Wpa("CPU Usage (Precise)") }, GraphIds("SysCall.wpaProfile"));
        CollectionAssert.AreEqual(new[] { TableIds.SpinWaitCostPerLock, TableIds.SpinWaitByProcess, Wpa("CPU Usage (Sampled)"), Wpa("CPU Usage (Precise)") }, GraphIds("SpinWait.wpaProfile"));
        CollectionAssert.AreEqual(new[] { TableIds.DirectoryNotifyBuffers, TableIds.DirectoryNotifyVictims, Wpa("File I/O"), Wpa("CPU Usage (Sampled)") }, GraphIds("DirNotify.wpaProfile"));
        CollectionAssert.AreEqual(new[] { TableIds.EventLogRenderCost, Wpa("CPU Usage (Precise)"), Wpa("Registry"), Wpa("File I/O") }, GraphIds("EventLog.wpaProfile"));
        CollectionAssert.AreEqual(new[]
        {
            TableIds.Findings, TableIds.SyscallHookOverhead, TableIds.SpinWaitCostPerLock, TableIds.DirectoryNotifyBuffers, TableIds.EventLogRenderCost,
            TableIds.TraceInfo, TableIds.TraceReadiness, TableIds.EventCounts, TableIds.Symbols, TableIds.CpuByFunction,
            Wpa("CPU Usage (Sampled)"), Wpa("CPU Usage (Precise)"),
        }, GraphIds("HiddenCost.wpaProfile"));
    }

    [TestMethod]
    public void Every_preset_references_the_stack_tags_that_exist()
    {
        foreach (var file in Directory.GetFiles(Pack.Layout.WpaProfiles, "*.wpaProfile"))
        {
            var refs = Load(Path.GetFileName(file)).Descendants(Ns + "FileReference").ToArray();
            Assert.AreEqual(1, refs.Length, file);
            Assert.AreEqual(@"..\stacktags\HiddenCost.stacktags", refs[0].Attribute("FileName")!.Value);
            Assert.AreEqual("StackFrameTag.{67F56EBD-2E82-493B-BF4F-712A1D0F018B}", refs[0].Attribute("ServiceMoniker")!.Value);
        }
        Assert.IsTrue(File.Exists(Path.Combine(Pack.Layout.WpaProfiles, "..", "stacktags", "HiddenCost.stacktags")));
    }

    [TestMethod]
    public void Our_columns_use_the_plugins_stable_ids_and_the_issues_column_names()
    {
        var doc = Load("SysCall.wpaProfile");
        var graph = doc.Descendants(Ns + "Graph").Single(g => g.Attribute("Guid")!.Value == TableIds.SyscallHookOverhead.ToString());
        var columns = graph.Descendants(Ns + "Column").Select(c => (Name: c.Attribute("Name")!.Value, Id: Guid.Parse(c.Attribute("Guid")!.Value))).ToArray();
        CollectionAssert.AreEqual(new[] { "Culprit Module", "Process", "Syscall" }, columns.Take(3).Select(c => c.Name).ToArray(), "pivot culprit → process → syscall");
        Assert.AreEqual("Hook CPU (ms)", columns[^1].Name, "the graphed figure comes last");
        Assert.AreEqual(18, columns.Length); // the 17 of issue 9, then Top Stack (issue 34)
        foreach (var c in columns) Assert.AreEqual(StableIds.Column(TableIds.SyscallHookOverhead, c.Name), c.Id, c.Name);
    }

    [TestMethod]
    public void Tables_the_plugin_already_has_are_shown_with_its_own_columns()
    {
        var seen = new HashSet<Guid>();
        foreach (var file in new[] { "HiddenCost.wpaProfile", "SysCall.wpaProfile", "SpinWait.wpaProfile", "DirNotify.wpaProfile", "EventLog.wpaProfile" })
        {
            foreach (var graph in Load(file).Descendants(Ns + "Graph"))
            {
                var spec = TableCatalog.All.SingleOrDefault(t => t.Id == Guid.Parse(graph.Attribute("Guid")!.Value));
                if (spec is null) continue;
                var names = graph.Descendants(Ns + "Column").Select(c => c.Attribute("Name")!.Value).ToArray();
                CollectionAssert.AreEquivalent(spec.Columns.Select(c => c.Name).ToArray(), names, $"{file}: {spec.Name}");
                Assert.IsTrue(PresetDefinitions.ShapeOf(spec.Name).FromPlugin, spec.Name);
                seen.Add(spec.Id);
            }
        }
        CollectionAssert.AreEquivalent(TableCatalog.All.Select(t => t.Id).ToArray(), seen.ToArray(), "every plugin table appears in a preset");
    }

    private static IReadOnlyList<PackIssue> Validate(string text)
    {
        var (ours, wpa) = Lists();
        var doc = SafeXml.TryParse(text, "bad.wpaProfile", out var issue);
        return doc is null ? [issue!] : WpaProfileValidator.Validate(doc, "bad.wpaProfile", Pack.Layout.WpaProfiles, ours, wpa);
    }

    [TestMethod]
    public void Unknown_tables_wrong_column_ids_and_missing_files_are_reported_by_line()
    {
        var text = Pack.Read(Path.Combine(Pack.Layout.WpaProfiles, "SysCall.wpaProfile"));
        var lines = text.Split('\n');
        int graphLine = Array.FindIndex(lines, l => l.Contains("<Graph Guid=\"6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0021\"")) + 1;
        Pack.AssertSingle(Validate(text.Replace("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0021", "6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0099")), "unknown-table", graphLine);

        int culpritLine = Array.FindIndex(lines, l => l.Contains("Name=\"Culprit Module\"")) + 1;
        Pack.AssertSingle(Validate(text.Replace("Name=\"Culprit Module\"", "Name=\"Culprit Driver\"")), "unknown-column", culpritLine);
        var wrongId = StableIds.Column(TableIds.SyscallHookOverhead, "Culprit Module").ToString();
        Pack.AssertSingle(Validate(text.Replace(wrongId, Guid.Empty.ToString())), "column-guid", culpritLine);

        int refLine = Array.FindIndex(lines, l => l.Contains("<FileReference ")) + 1;
        Pack.AssertSingle(Validate(text.Replace("HiddenCost.stacktags", "Missing.stacktags")), "missing-file", refLine);
        Pack.AssertSingle(Validate(text.Replace("<Graphs>", "<Graphs><Oops>")), "xml-well-formed", Array.FindIndex(lines, l => l.Contains("</Graphs>")) + 1);
        Pack.AssertSingle(Validate("<WpaProfileContainer Version=\"1\" />"), "profile-format", 1);
    }

    [TestMethod]
    public void Table_lists_reject_bad_lines()
    {
        var issues = new List<PackIssue>();
        TableList.Parse(["# c", "A\tnot-a-guid", "B\t6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0001", "C\t6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0001", "D"], "t.txt", false, issues);
        CollectionAssert.AreEqual(new[] { "t.txt(2): table-guid: 'not-a-guid' is not a GUID", "t.txt(4): duplicate-table: 'C' 6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0001 repeats line 3", "t.txt(5): field-count: expected: name<TAB>GUID" },
            issues.Select(i => i.ToString()).ToArray());
        issues.Clear();
        TableList.Parse(["CPU\tb855361e-7be0-4bc8-a754-3e8507715ca5"], "w.txt", true, issues);
        Assert.AreEqual("w.txt(1): field-count: expected: name<TAB>GUID<TAB>source", issues.Single().ToString());
    }
}
