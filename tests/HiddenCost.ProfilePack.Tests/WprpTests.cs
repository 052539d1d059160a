using HiddenCost.Analysis.Catalogs;
using HiddenCost.PackTool;
using HiddenCost.PackTool.Common;
using HiddenCost.PackTool.Wprp;

namespace HiddenCost.ProfilePack.Tests;

[TestClass]
public sealed class WprpTests
{
    private static WprpDocument Real()
    {
        var doc = WprpDocument.Load(Pack.Layout.Wprp, "wprp/MultiProfile.wprp", out var issue);
        Assert.IsNull(issue, issue?.ToString());
        return doc!;
    }

    private static IReadOnlyList<PackIssue> Validate(string text)
    {
        var doc = WprpDocument.Parse(text, "bad.wprp", out var issue);
        return doc is null ? [issue!] : WprpValidator.Validate(doc, Pack.Keywords, Pack.Stacks);
    }

    /// <summary>A small valid file: line numbers in the bad-input tests refer to it.</summary>
    private const string Small = """
        <?xml version="1.0" encoding="utf-8"?>
        <WindowsPerformanceRecorder Version="1.0">
          <Profiles>
            <SystemCollector Id="SystemCollector_T" />
            <SystemProvider Id="SystemProvider_Base">
              <Keywords><Keyword Value="ProcessThread" /></Keywords>
              <Stacks><Stack Value="SampledProfile" /></Stacks>
            </SystemProvider>
            <SystemProvider Id="SystemProvider_X" Base="SystemProvider_Base">
              <Keywords Operation="Add"><Keyword Value="SystemCall" /></Keywords>
              <Stacks><Stack Value="SystemCallEnter" /></Stacks>
            </SystemProvider>
            <Profile Id="X.Verbose.File" Name="X" Description="x" LoggingMode="File" DetailLevel="Verbose">
              <Collectors>
                <SystemCollectorId Value="SystemCollector_T"><SystemProviderId Value="SystemProvider_X" /></SystemCollectorId>
              </Collectors>
            </Profile>
            <Profile Id="X.Verbose.Memory" Name="X" Description="x" Base="X.Verbose.File" LoggingMode="Memory" DetailLevel="Verbose" />
          </Profiles>
        </WindowsPerformanceRecorder>
        """;

    [TestMethod]
    public void A_profile_without_description_and_a_derived_provider_without_name_are_reported()
    {
        var issues = Validate(Small
            .Replace(" Description=\"x\" Base=\"X.Verbose.File\"", " Base=\"X.Verbose.File\"")
            .Replace("</Profiles>", "  <EventProvider Id=\"EventProvider_A\" Name=\"Microsoft-Windows-RPC\" />\n    <EventProvider Id=\"EventProvider_B\" Base=\"EventProvider_A\" />\n  </Profiles>"));
        CollectionAssert.AreEquivalent(new[] { "profile-description", "provider-name" }, issues.Select(i => i.Rule).ToArray(),
            string.Join("\n", issues));
    }

    [TestMethod]
    public void MultiProfile_is_well_formed_and_follows_every_rule()
    {
        Pack.AssertNoIssues(WprpValidator.Validate(Real(), Pack.Keywords, Pack.Stacks));
    }

    [TestMethod]
    public void Every_problem_profile_records_what_its_table_requires_in_both_modes()
    {
        var doc = Real();
        int checkedProfiles = 0;
        foreach (var problem in RequirementCatalog.Problems)
            foreach (var id in problem.ProfileIds)
            {
                Pack.AssertNoIssues(RequirementCheck.Check(WprpResolver.Resolve(doc, id), problem, doc.FileName));
                checkedProfiles++;
            }
        Assert.AreEqual(8, checkedProfiles);
        Pack.AssertNoIssues(PackChecks.Wprp(Pack.Layout));
    }

    [TestMethod]
    public void Profiles_are_the_base_and_four_problems_in_file_and_memory_variants()
    {
        CollectionAssert.AreEqual(new[]
        {
            "Base.Verbose.File", "Base.Verbose.Memory", "SysCall.Verbose.File", "SysCall.Verbose.Memory",
            "SpinWait.Verbose.File", "SpinWait.Verbose.Memory", "DirNotify.Verbose.File", "DirNotify.Verbose.Memory",
            "EventLog.Verbose.File", "EventLog.Verbose.Memory",
        }, Real().Profiles.Select(p => p.Attribute("Id")!.Value).ToArray());
    }

    [TestMethod]
    public void SysCall_resolves_to_syscall_and_cswitch_keywords_with_entry_and_sample_stacks()
    {
        var p = WprpResolver.Resolve(Real(), "SysCall.Verbose.Memory");
        CollectionAssert.AreEquivalent(new[] { "ProcessThread", "Loader", "CpuConfig", "SampledProfile", "SystemCall", "CSwitch" }, p.SystemKeywords.ToArray());
        CollectionAssert.AreEquivalent(new[] { "SampledProfile", "SystemCallEnter" }, p.Stacks.ToArray());
        Assert.AreEqual(0, p.EventProviders.Count);
    }

    [TestMethod]
    public void SpinWait_enables_clr_contention_and_rundown_at_save()
    {
        var p = WprpResolver.Resolve(Real(), "SpinWait.Verbose.File");
        var runtime = p.EventProviders.Single(e => e.Name == "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
        Assert.AreEqual(0x4018UL, runtime.Keywords);
        Assert.AreEqual(5, runtime.Level);
        var rundown = p.EventProviders.Single(e => e.Name == "a669021c-c450-4609-a035-5af59af4df18");
        Assert.IsTrue(rundown.CaptureStateOnly);
        Assert.AreEqual(0x138UL, rundown.CaptureStateOnSaveKeywords);
    }

    [TestMethod]
    public void Each_problem_profile_adds_only_kernel_keywords_its_table_reads()
    {
        // "Each records exactly the events its table needs": a keyword beyond the base and the table's requirements
        // makes every trace bigger. The one exception is for a WPA table the preset shows beside ours.
        var doc = Real();
        var baseKeywords = new HashSet<string> { "ProcessThread", "Loader", "CpuConfig", "SampledProfile" };
        var forWpaTables = new Dictionary<string, string[]>
        {
            ["EventLog"] = ["FileIO"], // completions: durations of the .evtx reads in WPA's File I/O table
        };
        foreach (var problem in RequirementCatalog.Problems)
        {
            var wanted = problem.Events.SelectMany(e => e.RecordedBy.SystemKeywords).Concat(baseKeywords)
                .Concat(forWpaTables.GetValueOrDefault(problem.ProfileName, [])).ToHashSet();
            foreach (var mode in new[] { "File", "Memory" })
            {
                var keywords = WprpResolver.Resolve(doc, $"{problem.ProfileName}.Verbose.{mode}").SystemKeywords;
                CollectionAssert.AreEqual(Array.Empty<string>(), keywords.Where(k => !wanted.Contains(k)).ToArray(), $"{problem.ProfileName}.{mode}");
            }
        }
    }

    [TestMethod]
    public void Buffers_are_sized_for_syscall_rate_volumes()
    {
        var doc = Real();
        foreach (var problem in RequirementCatalog.Problems)
        {
            var file = WprpResolver.Resolve(doc, problem.ProfileName + ".Verbose.File").Collectors["SystemCollector_HiddenCost"];
            Assert.AreEqual(1024, file.BufferSizeKb, problem.ProfileName);
            Assert.AreEqual(new BuffersSetting(512, false, null), file.Buffers, problem.ProfileName);
            var memory = WprpResolver.Resolve(doc, problem.ProfileName + ".Verbose.Memory").Collectors["SystemCollector_HiddenCost"];
            Assert.AreEqual(1024, memory.BufferSizeKb, problem.ProfileName);
            Assert.AreEqual(new BuffersSetting(20, true, 4096), memory.Buffers, problem.ProfileName);
        }
    }

    [TestMethod]
    public void Profiles_combine_because_they_share_collectors_with_equal_settings()
    {
        var doc = Real();
        foreach (var mode in new[] { "File", "Memory" })
        {
            var users = RequirementCatalog.Problems.Select(p => WprpResolver.Resolve(doc, $"{p.ProfileName}.Verbose.{mode}"))
                .SelectMany(p => p.Collectors.Values).GroupBy(c => c.Id).ToList();
            CollectionAssert.AreEquivalent(new[] { "SystemCollector_HiddenCost", "EventCollector_HiddenCost" }, users.Select(g => g.Key).ToArray());
            foreach (var g in users)
                Assert.AreEqual(1, g.Select(c => (c.BufferSizeKb, c.Buffers)).Distinct().Count(), $"{mode}: {g.Key} settings differ");
        }
    }

    [TestMethod]
    public void File_comments_show_the_wpr_line_of_every_problem_and_batch_escaping()
    {
        var text = Pack.Read(Pack.Layout.Wprp);
        foreach (var p in RequirementCatalog.Problems) StringAssert.Contains(text, p.WprStartCommand);
        StringAssert.Contains(text, "-filemode");
        StringAssert.Contains(text, "MultiProfile.wprp^^!SysCall");
        StringAssert.Contains(text, "\"MultiProfile.wprp^!SysCall\"");
    }

    [TestMethod]
    public void Small_valid_file_passes_and_stacks_without_operation_replace_the_base_list()
    {
        Pack.AssertNoIssues(Validate(Small));
        var doc = WprpDocument.Parse(Small, "small.wprp", out _)!;
        var p = WprpResolver.Resolve(doc, "X.Verbose.Memory");
        CollectionAssert.AreEquivalent(new[] { "ProcessThread", "SystemCall" }, p.SystemKeywords.ToArray());
        CollectionAssert.AreEquivalent(new[] { "SystemCallEnter" }, p.Stacks.ToArray(), "WPR's default operation is Set");
    }

    [TestMethod]
    public void Malformed_xml_is_reported_with_its_line()
    {
        var issue = Pack.AssertSingle(Validate(Small.Replace("</SystemProvider>\n    <Profile", "\n    <Profile")), "xml-well-formed", 19);
        StringAssert.StartsWith(issue.ToString(), "bad.wprp(19): xml-well-formed: ");
    }

    [TestMethod]
    public void A_dtd_is_refused_before_anything_is_expanded()
    {
        var text = Small.Replace("<WindowsPerformanceRecorder", "<!DOCTYPE x [<!ENTITY e \"boom\">]>\n<WindowsPerformanceRecorder");
        Pack.AssertSingle(Validate(text), "dtd-prohibited", 2);
    }

    [TestMethod]
    public void Unknown_keyword_and_stack_name_file_line_and_rule()
    {
        var issues = Validate(Small.Replace("\"SystemCall\"", "\"SysCall\"").Replace("\"SystemCallEnter\"", "\"SyscallEnter\""));
        var k = Pack.AssertSingle(issues, "unknown-keyword", 10);
        StringAssert.Contains(k.ToString(), "bad.wprp(10): unknown-keyword: SystemProvider keyword 'SysCall' is not in the WPR keyword enumeration");
        Pack.AssertSingle(issues, "unknown-stack", 11);
    }

    [TestMethod]
    public void Dangling_base_names_the_missing_id()
    {
        var issue = Pack.AssertSingle(Validate(Small.Replace("Base=\"X.Verbose.File\"", "Base=\"Y.Verbose.File\"")), "dangling-base", 18);
        StringAssert.Contains(issue.Message, "Profile 'X.Verbose.Memory' has Base=\"Y.Verbose.File\" but no Profile has that Id");
        var wrongKind = Pack.AssertSingle(Validate(Small.Replace("Base=\"SystemProvider_Base\"", "Base=\"SystemCollector_T\"")), "dangling-base", 9);
        StringAssert.Contains(wrongKind.Message, "(it is a SystemCollector)");
    }

    [TestMethod]
    public void Dangling_references_duplicate_ids_and_bad_names_are_reported()
    {
        Pack.AssertSingle(Validate(Small.Replace("<SystemProviderId Value=\"SystemProvider_X\"", "<SystemProviderId Value=\"SystemProvider_Z\"")), "dangling-reference", 15);
        Pack.AssertSingle(Validate(Small.Replace("<SystemProvider Id=\"SystemProvider_X\"", "<SystemProvider Id=\"SystemProvider_Base\"")
            .Replace("Base=\"SystemProvider_Base\"", "")), "duplicate-id", 9);
        Pack.AssertSingle(Validate(Small.Replace("Id=\"X.Verbose.Memory\"", "Id=\"X.Memory\"")), "profile-id", 18);
        Pack.AssertSingle(Validate(Small.Replace("SystemCollector_T", "KernelCollector")), "id-naming", 4);
        Pack.AssertSingle(Validate(Small.Replace("Operation=\"Add\"", "Operation=\"Merge\"")), "operation", 10);
    }

    [TestMethod]
    public void A_profile_without_its_memory_twin_is_reported()
    {
        var text = Small.Replace("""    <Profile Id="X.Verbose.Memory" Name="X" Description="x" Base="X.Verbose.File" LoggingMode="Memory" DetailLevel="Verbose" />""", "");
        Pack.AssertSingle(Validate(text), "profile-pair", 13);
    }

    [TestMethod]
    public void Removing_a_required_keyword_makes_the_requirement_check_fail()
    {
        var text = Pack.Read(Pack.Layout.Wprp).Replace("<Keyword Value=\"SystemCall\" />", "");
        var doc = WprpDocument.Parse(text, "edited.wprp", out _)!;
        Pack.AssertNoIssues(WprpValidator.Validate(doc, Pack.Keywords, Pack.Stacks));
        var issues = RequirementCheck.Check(WprpResolver.Resolve(doc, "SysCall.Verbose.File"), RequirementCatalog.SyscallHookOverhead, doc.FileName);
        var issue = issues.Single();
        Assert.AreEqual("missing-keyword", issue.Rule);
        Assert.AreEqual(SafeXml.LineOf(doc.Find("Profile", "SysCall.Verbose.File")!), issue.Line);
        StringAssert.Contains(issue.Message, "profile 'SysCall.Verbose.File' does not record SysClEnter/SysClExit (required by 'Syscall Hook Overhead'): SystemProvider keyword SystemCall is off");
    }

    [TestMethod]
    public void A_provider_without_the_contention_keyword_fails_the_spin_wait_check()
    {
        var text = Pack.Read(Pack.Layout.Wprp).Replace("<Keyword Value=\"0x4018\" />", "<Keyword Value=\"0x18\" />");
        var doc = WprpDocument.Parse(text, "edited.wprp", out _)!;
        var issues = RequirementCheck.Check(WprpResolver.Resolve(doc, "SpinWait.Verbose.Memory"), RequirementCatalog.SpinWaitCostPerLock, doc.FileName);
        var issue = issues.Single();
        Assert.AreEqual("provider-keywords", issue.Rule);
        StringAssert.Contains(issue.Message, "keywords 0x18 lack 0x4000");
    }

    [TestMethod]
    public void A_missing_rundown_provider_fails_the_spin_wait_check()
    {
        var text = Pack.Read(Pack.Layout.Wprp).Replace("<EventProviderId Value=\"EventProvider_DotNetRuntimeRundown\" />", "");
        var doc = WprpDocument.Parse(text, "edited.wprp", out _)!;
        var issue = RequirementCheck.Check(WprpResolver.Resolve(doc, "SpinWait.Verbose.File"), RequirementCatalog.SpinWaitCostPerLock, doc.FileName).Single();
        Assert.AreEqual("missing-provider", issue.Rule);
        StringAssert.Contains(issue.Message, "CLR method rundown");
    }
}
