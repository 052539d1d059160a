using System.Xml.Linq;
using HiddenCost.Analysis.Catalogs;
using HiddenCost.PackTool;
using HiddenCost.PackTool.Common;
using HiddenCost.PackTool.StackTags;

namespace HiddenCost.ProfilePack.Tests;

[TestClass]
public sealed class StackTagsTests
{
    private static XDocument Real()
    {
        var doc = SafeXml.TryLoad(Pack.Layout.StackTags, "stacktags/HiddenCost.stacktags", out var issue);
        Assert.IsNull(issue, issue?.ToString());
        return doc!;
    }

    private static IReadOnlyList<PackIssue> Validate(string text)
    {
        var doc = SafeXml.TryParse(text, "bad.stacktags", out var issue);
        return doc is null ? [issue!] : StackTagsValidator.Validate(doc, "bad.stacktags");
    }

    private static StackTagEntrypoint Find(string module, string method) =>
        StackTagsValidator.Entrypoints(Real()).Single(e => e.Module == module && e.Method == method);

    [TestMethod]
    public void Stack_tags_parse_and_follow_every_rule()
    {
        Pack.AssertNoIssues(StackTagsValidator.Validate(Real(), "stacktags/HiddenCost.stacktags"));
    }

    [TestMethod]
    public void Driver_section_is_in_sync_with_the_catalogue()
    {
        var text = Pack.Read(Pack.Layout.StackTags);
        Assert.AreEqual(DriverTagsGenerator.Generate(SecurityDriverCatalog.Default), DriverTagsGenerator.Extract(text),
            "run: dotnet run --project tests/HiddenCost.PackTool -- stacktags");
        Pack.AssertNoIssues(PackChecks.StackTags(Pack.Layout, SecurityDriverCatalog.Default));
    }

    [TestMethod]
    public void Every_catalogue_driver_has_its_own_tag()
    {
        var drivers = StackTagsValidator.Entrypoints(Real())
            .Where(e => e.TagPath.StartsWith(DriverTagsGenerator.RootTagName + "\\", StringComparison.Ordinal)).ToList();
        var tagged = DriverTagsGenerator.Tagged(SecurityDriverCatalog.Default).ToList();
        Assert.AreEqual(tagged.Count, drivers.Count);
        foreach (var entry in tagged)
            Assert.IsTrue(drivers.Any(d => d.Module == entry.Module && d.Method == "*"), entry.Module);
        // Windows' own filters from the altitude list are not blamed as security drivers.
        foreach (var inbox in new[] { "wof.sys", "cldflt.sys", "luafv.sys", "bindflt.sys" })
            Assert.IsFalse(drivers.Any(d => string.Equals(d.Module, inbox, StringComparison.OrdinalIgnoreCase)), inbox);
        var tedr = Find("tedrdrv.sys", "*");
        Assert.AreEqual(@"Security and Filter Drivers\EDR\Palo Alto Networks\tedrdrv.sys (Cortex XDR)", tedr.TagPath);
        Assert.AreEqual(200, tedr.Priority);
        Assert.AreEqual(@"Security and Filter Drivers\anti-virus\Ashampoo GmbH & Co. KG\AshAvScan.sys", Find("AshAvScan.sys", "*").TagPath);
    }

    [TestMethod]
    public void Problem_code_paths_are_tagged_with_the_documented_priorities()
    {
        (string Module, string Method, string Tag, int Priority)[] expected =
        [
            ("ntoskrnl.exe", "PerfInfoLogSysCallEntry*", @"Syscall ETW Logging\PerfInfoLogSysCall (kernel syscall tracing is on)", 200),
            ("ntoskrnl.exe", "EtwpLogKernelEvent*", @"ETW Overhead\Kernel event logging", 100),
            ("coreclr.dll", "AwareLock::Contention*", @"Spin Wait\.NET Monitor contention (AwareLock)", 150),
            ("System.Private.CoreLib*", "System.Threading.SpinWait.Spin*", @"Spin Wait\.NET SpinWait / Thread.SpinWait", 150),
            ("System.Private.CoreLib*", "System.Threading.Lock.TryEnterSlow*", @"Spin Wait\.NET Lock (System.Threading.Lock slow path)", 150),
            ("kernelbase.dll", "SwitchToThread*", @"Spin Wait\Yield (SwitchToThread / NtYieldExecution)", 150),
            ("ntdll.dll", "NtYieldExecution*", @"Spin Wait\Yield (SwitchToThread / NtYieldExecution)", 150),
            ("ntdll.dll", "NtDelayExecution*", @"Spin Wait\Sleep / SleepEx (Sleep(0) when hot)", 150),
            ("ntdll.dll", "RtlpEnterCriticalSectionContended*", @"Spin Wait\Critical section (contended)", 150),
            ("libiomp5md.dll", "__kmp_wait*", @"Spin Wait\Intel OpenMP wait (KMP_BLOCKTIME spin)", 150),
            ("vcomp*.dll", "_vcomp::PartialBarrierN::Block*", @"Spin Wait\Microsoft OpenMP barrier wait", 150),
            ("libiomp5md.dll", "*", @"Runtime Modules\Intel OpenMP runtime (libiomp5md.dll, other)", 40),
            ("ntoskrnl.exe", "FsRtlNotify*", @"Directory Notify Buffer Zeroing\FsRtlNotify (fill and zero notify buffers)", 300),
            ("ntoskrnl.exe", "MiResolveDemandZeroFault*", @"Memory\Demand-zero page fault", 50),
            ("ntoskrnl.exe", "MmZeroPageThread*", @"Memory\Zero page thread", 50),
            ("wevtsvc.dll", "EvtRpcMessageRender*", @"Event Log Rendering\EvtRpcMessageRender (message rendering)", 200),
            ("kernelbase.dll", "FormatMessage*", @"Event Log Rendering\FormatMessage", 200),
            ("ntoskrnl.exe", "NtQueryValueKey*", @"Registry\Registry (kernel)", 60),
        ];
        foreach (var x in expected)
        {
            var e = Find(x.Module, x.Method);
            Assert.AreEqual(x.Tag, e.TagPath, $"{x.Module}!{x.Method}");
            Assert.AreEqual(x.Priority, e.Priority, $"{x.Module}!{x.Method}");
        }
    }

    [TestMethod]
    public void Notify_zeroing_outranks_drivers_which_tie_the_logging_path_and_outrank_spin_and_registry()
    {
        int notify = Find("ntoskrnl.exe", "FsRtlNotify*").Priority, driver = Find("WdFilter.sys", "*").Priority;
        int logging = Find("ntoskrnl.exe", "PerfInfoLogSysCallEntry*").Priority, spin = Find("kernelbase.dll", "SwitchToThread*").Priority;
        int render = Find("wevtsvc.dll", "EvtRpcMessageRender*").Priority, registry = Find("kernelbase.dll", "RegQueryValueEx*").Priority;
        Assert.IsTrue(notify > driver);
        Assert.AreEqual(driver, logging, "equal priority: the deeper frame (the driver under the logging path) wins");
        Assert.AreEqual(driver, render);
        Assert.IsTrue(logging > spin);
        Assert.IsTrue(render > registry);
    }

    [TestMethod]
    public void Duplicate_module_method_is_reported_with_both_tags()
    {
        var issue = Pack.AssertSingle(Validate("""
            <Tag Name="">
              <Tag Name="A"><Entrypoint Module="ntdll.dll" Method="NtYieldExecution" /></Tag>
              <Tag Name="B"><Entrypoint Module="NTDLL.DLL" Method="NtYieldExecution" /></Tag>
            </Tag>
            """), "duplicate-entrypoint", 3);
        StringAssert.Contains(issue.ToString(), "bad.stacktags(3): duplicate-entrypoint: NTDLL.DLL!NtYieldExecution is claimed by 'B' and by 'A' (line 2)");
    }

    [TestMethod]
    public void Malformed_entrypoints_and_tags_are_reported_by_rule_and_line()
    {
        var issues = Validate("""
            <Tag Name="">
              <Entrypoint Module="a.dll" Method="*" />
              <Tag Name="A"><Entrypoint Module="my module.dll" Method="*" /></Tag>
              <Tag Name="B"><Entrypoint Module="b.dll" /></Tag>
              <Tag Name="C" Priority="high"><Entrypoint Module="c.dll" Method="f" /></Tag>
              <Tag Name=""><Entrypoint Module="d.dll" Method="f" /></Tag>
              <Tag Name="E" />
              <Tag Name="F"><Frame Module="f.dll" /></Tag>
            </Tag>
            """);
        Pack.AssertSingle(issues, "entrypoint-placement", 2);
        Assert.AreEqual(2, issues.Count(i => i.Rule == "entrypoint"), string.Join("\n", issues));
        Assert.IsTrue(issues.Any(i => i.Rule == "entrypoint" && i.Line == 3 && i.Message.Contains("my module.dll")));
        Assert.IsTrue(issues.Any(i => i.Rule == "entrypoint" && i.Line == 4 && i.Message.Contains("no Method")));
        Pack.AssertSingle(issues, "priority", 5);
        Pack.AssertSingle(issues, "tag-name", 6);
        Pack.AssertSingle(issues, "empty-tag", 7);
        Pack.AssertSingle(issues, "unknown-element", 8);
    }

    [TestMethod]
    public void Malformed_xml_and_dtds_are_refused_with_the_line()
    {
        Pack.AssertSingle(Validate("<Tag Name=\"\">\n  <Tag Name=\"A\">\n</Tag>"), "xml-well-formed", 3);
        Pack.AssertSingle(Validate("<?xml version=\"1.0\"?>\n<!DOCTYPE Tag [<!ENTITY x \"y\">]>\n<Tag Name=\"&x;\" />"), "dtd-prohibited", 2);
        Pack.AssertSingle(Validate("<Tags />"), "root", 1);
    }

    [TestMethod]
    public void Generator_escapes_names_and_needs_its_markers()
    {
        var catalog = SecurityDriverCatalog.Parse(new StringReader("a.sys\tA & B <x> \\ \"q\"\tP\tEDR\t\tCASE\n"), "t.tsv");
        var section = DriverTagsGenerator.Generate(catalog);
        StringAssert.Contains(section, "<Tag Name=\"A &amp; B &lt;x&gt; / &quot;q&quot;\" Priority=\"200\">");
        var file = "<Tag Name=\"\">\n" + DriverTagsGenerator.BeginMarker + "\n" + DriverTagsGenerator.EndMarker + "\n</Tag>\n";
        var regenerated = DriverTagsGenerator.Replace(file, section);
        var doc = SafeXml.TryParse(regenerated, "t.stacktags", out var issue)!;
        Assert.IsNull(issue);
        Assert.AreEqual(@"Security and Filter Drivers\EDR\A & B <x> / ""q""\a.sys (P)", StackTagsValidator.Entrypoints(doc).Single().TagPath);
        Assert.AreEqual(section, DriverTagsGenerator.Extract(regenerated));
        Assert.ThrowsExactly<InvalidOperationException>(() => DriverTagsGenerator.Replace("<Tag Name=\"\" />", section));
    }
}
