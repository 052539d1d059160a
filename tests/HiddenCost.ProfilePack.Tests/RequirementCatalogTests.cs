using HiddenCost.Analysis.Catalogs;
using HiddenCost.Etl;

namespace HiddenCost.ProfilePack.Tests;

[TestClass]
public sealed class RequirementCatalogTests
{
    [TestMethod]
    public void Four_problem_tables_each_name_their_profile_and_wpr_line()
    {
        var p = RequirementCatalog.Problems;
        CollectionAssert.AreEqual(
            new[] { "Syscall Hook Overhead", "Spin-Wait Cost per Lock", "Directory Notify Buffers", "Event Log Render Cost" },
            p.Select(x => x.TableName).ToArray());
        CollectionAssert.AreEqual(new[] { "SysCall", "SpinWait", "DirNotify", "EventLog" }, p.Select(x => x.ProfileName).ToArray());
        Assert.AreEqual("wpr -start MultiProfile.wprp!SysCall", p[0].WprStartCommand);
        Assert.AreEqual("wpr -start MultiProfile.wprp!EventLog -filemode", p[3].WprStartCommandFileMode);
        Assert.AreEqual("MultiProfile.wprp!DirNotify", p[2].ProfileReference);
        CollectionAssert.AreEqual(new[] { "SpinWait.Verbose.File", "SpinWait.Verbose.Memory" }, p[1].ProfileIds.ToArray());
    }

    [TestMethod]
    public void Companion_tables_share_their_problem_profile()
    {
        Assert.AreEqual("SysCall", RequirementCatalog.ForTable("Profiling Gaps").ProfileName);
        Assert.AreEqual("SpinWait", RequirementCatalog.ForTable("Spin-Wait by Process").ProfileName);
        Assert.AreEqual("DirNotify", RequirementCatalog.ForTable("Directory Notify Victims").ProfileName);
        Assert.AreEqual("EventLog", RequirementCatalog.ForTable("Event Log Render Cost").ProfileName);
        Assert.IsFalse(RequirementCatalog.TryGetForTable("Trace Info", out _));
        Assert.ThrowsExactly<ArgumentException>(() => RequirementCatalog.ForTable("Syscalls"));
        Assert.AreSame(RequirementCatalog.SpinWaitCostPerLock, RequirementCatalog.ForProfile("spinwait"));
    }

    [TestMethod]
    public void Kernel_requirements_are_keyed_by_group_and_opcode_as_the_reader_sees_them()
    {
        var sys = RequirementCatalog.SyscallHookOverhead;
        var syscl = sys.Events.Single(e => e.Name == "SysClEnter/SysClExit").Events;
        Assert.IsTrue(syscl.Matches(KernelGroups.PerfInfo, 51));
        Assert.IsTrue(syscl.Matches(0x0F, 52));
        Assert.IsFalse(syscl.Matches(0x0F, 46));
        Assert.AreEqual("PerfInfo (0x0F) opcode 51/52", syscl.ToString());
        var cswitch = sys.Events.Single(e => e.Name == "CSwitch").Events;
        Assert.IsTrue(cswitch.Matches(0x05, 36));
        Assert.IsFalse(cswitch.Matches(0x05, 50));
        Assert.IsFalse(cswitch.Matches(RequirementCatalog.DotNetRuntime, 36));

        var dir = RequirementCatalog.DirectoryNotifyBuffers;
        Assert.IsTrue(dir.Events.Single(e => e.Name == "FileIo DirNotify").Events.Matches(0x04, 77));
        Assert.IsTrue(dir.Events.Single(e => e.Name == "FileIo OperationEnd").Events.Matches(0x04, 76));
        CollectionAssert.AreEqual(new[] { 0, 32, 35, 36 }, dir.Events.Single(e => e.Name == "FileIo name events").Events.Ids.ToArray());
        Assert.IsTrue(dir.Events.Single(e => e.Name == "PageFault DemandZero").Events.Matches(0x02, 11));
        CollectionAssert.AreEqual(new[] { 32, 37, 38 }, sys.Events.Single(e => e.Name == "StackWalk").Events.Ids.ToArray());
    }

    [TestMethod]
    public void Every_stack_value_the_catalogue_wants_names_the_kernel_event_it_stacks()
    {
        var values = RequirementCatalog.Problems.SelectMany(p => p.WantedStacks).Distinct().ToList();
        foreach (var value in values) Assert.IsNotNull(WprStackEvents.Of(value), value);
        Assert.AreEqual(((byte)0x0F, (byte)46), WprStackEvents.Of("SampledProfile"));
        Assert.AreEqual(((byte)0x0F, (byte)51), WprStackEvents.Of("SystemCallEnter"));
        Assert.AreEqual(((byte)0x09, (byte)13), WprStackEvents.Of("RegistryQueryKey"));
        Assert.IsNull(WprStackEvents.Of("HeapCreate"));
        // Each stacked event is one a requirement of the same table selects (the stack goes on an event it reads).
        foreach (var p in RequirementCatalog.Problems)
            foreach (var value in p.WantedStacks)
            {
                var (group, opcode) = WprStackEvents.Of(value)!.Value;
                Assert.IsTrue(p.Events.Any(e => e.Events.Matches(group, opcode)), $"{p.TableName}: {value}");
            }
    }

    [TestMethod]
    public void Provider_requirements_are_keyed_by_guid_and_event_id()
    {
        var contention = RequirementCatalog.SpinWaitCostPerLock.Events.Single(e => e.Name == "CLR ContentionStart/Stop");
        Assert.IsTrue(contention.Events.Matches(new Guid("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"), 81));
        Assert.IsTrue(contention.Events.Matches(RequirementCatalog.DotNetRuntime, 91));
        Assert.IsFalse(contention.Events.Matches(RequirementCatalog.DotNetRuntimeRundown, 81));
        Assert.AreEqual(0x4000UL, contention.RecordedBy.Provider!.Keywords);

        var rundown = RequirementCatalog.SpinWaitCostPerLock.Events.Single(e => e.Name == "CLR method rundown");
        Assert.AreEqual(new Guid("a669021c-c450-4609-a035-5af59af4df18"), rundown.Events.ProviderId);
        Assert.IsTrue(rundown.RecordedBy.Provider!.AtCaptureState);

        var log = RequirementCatalog.EventLogRenderCost;
        var rpc = log.Events.Single(e => e.Name == "RPC call start/stop").Events;
        CollectionAssert.AreEqual(new[] { 5, 6, 7, 8 }, rpc.Ids.ToArray());
        Assert.AreEqual(new Guid("6ad52b32-d609-4be9-ae07-ce8dae937e39"), rpc.ProviderId);
        var wmi = log.Events.Single(e => e.Name == "WMI-Activity operation start");
        Assert.IsTrue(wmi.Events.Matches(new Guid("1418ef04-b0b4-4623-bf7e-d74ab47bbdaa"), 11));
        Assert.AreEqual(Necessity.Required, wmi.Necessity);
    }

    [TestMethod]
    public void Every_keyword_and_stack_the_catalogue_asks_for_exists_in_WPR()
    {
        foreach (var p in RequirementCatalog.Problems)
            foreach (var e in p.Events)
            {
                foreach (var k in e.RecordedBy.SystemKeywords) Assert.IsTrue(Pack.Keywords.Contains(k), $"{p.TableName}/{e.Name}: keyword {k}");
                foreach (var s in e.RecordedBy.Stacks) Assert.IsTrue(Pack.Stacks.Contains(s), $"{p.TableName}/{e.Name}: stack {s}");
                Assert.IsTrue(e.RecordedBy.SystemKeywords.Count > 0 || e.RecordedBy.Stacks.Count > 0 || e.RecordedBy.Provider is not null,
                    $"{p.TableName}/{e.Name} says nothing about how it is recorded");
            }
    }

    [TestMethod]
    public void Each_table_lists_its_wanted_stacks()
    {
        CollectionAssert.AreEqual(new[] { "SystemCallEnter", "SampledProfile" }, RequirementCatalog.SyscallHookOverhead.WantedStacks.ToArray());
        CollectionAssert.AreEqual(new[] { "SampledProfile", "CSwitch", "ReadyThread" }, RequirementCatalog.SpinWaitCostPerLock.WantedStacks.ToArray());
        CollectionAssert.AreEqual(new[] { "FileDirNotify", "PagefaultDemandZero", "SampledProfile" }, RequirementCatalog.DirectoryNotifyBuffers.WantedStacks.ToArray());
        CollectionAssert.AreEqual(
            new[] { "RegistryOpenKey", "RegistryQueryValue", "RegistryQueryKey", "RegistryEnumerateKey", "RegistryEnumerateValueKey", "SampledProfile" },
            RequirementCatalog.EventLogRenderCost.WantedStacks.ToArray());
    }

    [TestMethod]
    public void Required_events_per_table_are_the_ones_trace_readiness_reports()
    {
        CollectionAssert.AreEqual(
            new[] { "SysClEnter/SysClExit", "CSwitch", "SampledProfile", "StackWalk", "Image load/unload/rundown", "Process start/end/rundown", "Thread start/end/rundown" },
            RequirementCatalog.SyscallHookOverhead.Required.Select(e => e.Name).ToArray());
        CollectionAssert.AreEqual(
            new[] { "FileIo DirNotify", "FileIo OperationEnd", "FileIo name events", "FileIo changes", "PageFault DemandZero", "Process start/end/rundown", "Thread start/end/rundown" },
            RequirementCatalog.DirectoryNotifyBuffers.Required.Select(e => e.Name).ToArray());
        Assert.AreEqual(10, RequirementCatalog.EventLogRenderCost.Required.Count());
        // ReadyThread is recorded for WPA's CPU Usage (Precise) but no Spin-Wait figure reads it: optional.
        CollectionAssert.AreEqual(
            new[] { "CLR ContentionStart/Stop", "CLR method rundown", "CSwitch", "SampledProfile", "StackWalk", "Image load/unload/rundown", "Process start/end/rundown", "Thread start/end/rundown" },
            RequirementCatalog.SpinWaitCostPerLock.Required.Select(e => e.Name).ToArray());
    }

    [TestMethod]
    public void Selectors_refuse_an_empty_id_list()
    {
        Assert.ThrowsExactly<ArgumentException>(() => EventSelector.Kernel(5, "Thread"));
    }
}
