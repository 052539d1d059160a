using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Decoding.KernelTraceControl;
using HiddenCost.Etl.Records;
using HiddenCost.Etl.State;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.State;

/// <summary>Lifetime rules of the state on synthetic events built from the documented layouts.</summary>
[TestClass]
public sealed class TraceStateSyntheticTests
{
    private static byte[] Process(int pid, string image, string commandLine, int exit = 259, ulong key = 0) =>
        new PayloadBuilder().Ptr(key != 0 ? key : 0xFFFF_8000_0000_0000 + (ulong)pid).I32(pid).I32(4).I32(1).I32(exit).Ptr(0).U32(0).U32(0)
            .Ansiz(image).Utf16z(commandLine).Utf16z("").Utf16z("").ToArray();

    private static byte[] Image(int pid, ulong imageBase, ulong size, string path) =>
        new PayloadBuilder().Ptr(imageBase).Ptr(size).I32(pid).U32(0).U32(0).U8(0).U8(0).U16(0).Ptr(imageBase).U32(0).U32(0).U32(0).U32(0)
            .Utf16z(path).ToArray();

    private static byte[] Thread(int pid, int tid) => new PayloadBuilder().I32(pid).I32(tid).Bytes(new byte[7 * 8 + 8]).ToArray();

    private static EtwEvent K(byte group, byte opcode, byte version, byte[] payload, long t) =>
        SyntheticEvent.Kernel(group, opcode, version, payload, kind: RecordHeaderKind.System, timestamp: t);

    [TestMethod]
    public void A_reused_process_id_gives_two_processes_told_apart_by_time_synthetic()
    {
        var s = new TraceState();
        s.Observe(K(KernelGroups.Process, ProcessEvent.Start, 4, Process(100, "a.exe", "a.exe -x"), 10));
        s.Observe(K(KernelGroups.Process, ProcessEvent.End, 4, Process(100, "a.exe", "a.exe -x", exit: 3), 20));
        s.Observe(K(KernelGroups.Process, ProcessEvent.Start, 4, Process(100, "b.exe", "b.exe"), 30));
        Assert.AreEqual(2, s.Processes.Count);
        Assert.AreEqual("a.exe", s.GetProcess(100, 15)!.ImageName);
        Assert.AreEqual(3, s.GetProcess(100, 15)!.ExitStatus);
        Assert.AreEqual("b.exe", s.GetProcess(100, 35)!.ImageName);
        Assert.AreEqual("a.exe", s.GetProcess(100, 25)!.ImageName, "between the two, the latest earlier instance");
        Assert.AreEqual(30L, s.GetProcess(100, 35)!.StartTimeNs);
    }

    [TestMethod]
    public void A_start_without_an_end_closes_the_previous_instance_synthetic()
    {
        var s = new TraceState();
        s.Observe(K(KernelGroups.Process, ProcessEvent.DCStart, 4, Process(100, "a.exe", ""), 5));
        s.Observe(K(KernelGroups.Process, ProcessEvent.Start, 4, Process(100, "b.exe", ""), 50));
        Assert.IsTrue(s.Processes[0].StartedBeforeTrace);
        Assert.AreEqual(50L, s.Processes[0].EndTimeNs);
        Assert.AreEqual("a.exe", s.GetProcess(100, 1)!.ImageName);
    }

    [TestMethod]
    public void Rundown_duplicates_do_not_create_new_instances_synthetic()
    {
        var s = new TraceState();
        s.Observe(K(KernelGroups.Process, ProcessEvent.DCStart, 4, Process(7, "x.exe", ""), 1));
        s.Observe(K(KernelGroups.Process, ProcessEvent.DCEnd, 4, Process(7, "x.exe", ""), 99));
        s.Observe(K(KernelGroups.Thread, ThreadEvent.DCStart, 3, Thread(7, 70), 1));
        s.Observe(K(KernelGroups.Thread, ThreadEvent.DCEnd, 3, Thread(7, 70), 99));
        Assert.AreEqual(1, s.Processes.Count);
        Assert.AreEqual(1, s.Threads.Count);
    }

    [TestMethod]
    public void Threads_have_lifetimes_and_names_synthetic()
    {
        var s = new TraceState();
        s.Observe(K(KernelGroups.Thread, ThreadEvent.Start, 3, Thread(7, 70), 10));
        s.Observe(SyntheticEvent.Kernel(KernelGroups.Thread, ThreadSetName.Opcode, 2, new PayloadBuilder().I32(7).I32(70).Utf16z("worker").ToArray(), timestamp: 12));
        s.Observe(K(KernelGroups.Thread, ThreadEvent.End, 3, Thread(7, 70), 20));
        s.Observe(K(KernelGroups.Thread, ThreadEvent.Start, 3, Thread(8, 70), 30));
        Assert.AreEqual("worker", s.GetThread(70, 15)!.Name);
        Assert.AreEqual(7, s.GetThread(70, 15)!.ProcessId);
        Assert.AreEqual(8, s.GetThread(70, 31)!.ProcessId);
        Assert.AreEqual("", s.GetThread(70, 31)!.Name);
    }

    [TestMethod]
    public void A_thread_name_for_a_reused_id_whose_start_was_lost_names_a_new_instance_not_the_ended_one_synthetic()
    {
        static EtwEvent SetName(int pid, int tid, string name, long t) =>
            SyntheticEvent.Kernel(KernelGroups.Thread, ThreadSetName.Opcode, 2, new PayloadBuilder().I32(pid).I32(tid).Utf16z(name).ToArray(), timestamp: t);
        var s = new TraceState();
        s.Observe(K(KernelGroups.Thread, ThreadEvent.Start, 3, Thread(7, 70), 10));
        s.Observe(SetName(7, 70, "worker", 12));
        s.Observe(K(KernelGroups.Thread, ThreadEvent.End, 3, Thread(7, 70), 20));
        s.Observe(SetName(8, 70, "timer", 40)); // thread 70 again, in process 8; its Start was lost
        Assert.AreEqual("worker", s.GetThread(70, 15)!.Name, "the ended thread keeps its name");
        Assert.AreEqual(8, s.GetThread(70, 45)!.ProcessId);
        Assert.AreEqual("timer", s.GetThread(70, 45)!.Name);

        // A live instance of another process (its End and the new Start both lost) ends where the new name appears.
        s.Observe(SetName(9, 70, "poller", 60));
        Assert.AreEqual("timer", s.GetThread(70, 50)!.Name);
        Assert.AreEqual((9, "poller"), (s.GetThread(70, 65)!.ProcessId, s.GetThread(70, 65)!.Name));
    }

    [TestMethod]
    public void Address_lookup_follows_image_load_and_unload_over_time_synthetic()
    {
        var s = new TraceState();
        s.Observe(K(KernelGroups.Image, ImageEvent.Load, 3, Image(9, 0x10000, 0x1000, @"\Device\HarddiskVolume1\a.dll"), 10));
        s.Observe(K(KernelGroups.Image, ImageEvent.Unload, 3, Image(9, 0x10000, 0x1000, @"\Device\HarddiskVolume1\a.dll"), 20));
        s.Observe(K(KernelGroups.Image, ImageEvent.Load, 3, Image(9, 0x10000, 0x2000, @"\Device\HarddiskVolume1\b.dll"), 30));
        s.Observe(K(KernelGroups.Image, ImageEvent.DCStart, 3, Image(0, 0xFFFFF800_00000000, 0x100000, @"\SystemRoot\system32\ntoskrnl.exe"), 1));
        Assert.AreEqual("a.dll+0x10", s.ResolveFrame(9, 0x10010, 15).Name);
        Assert.AreEqual("b.dll+0x1800", s.ResolveFrame(9, 0x11800, 35).Name);
        Assert.AreEqual("b.dll+0x10", s.ResolveFrame(9, 0x10010, 35).Name);
        Assert.AreEqual("0x20000", s.ResolveFrame(9, 0x20000, 35).Name);
        Assert.AreEqual("ntoskrnl.exe+0x1234", s.ResolveFrame(9, 0xFFFFF800_00001234, 35).Name, "kernel modules are shared by all processes");
        Assert.IsTrue(s.FindImage(9, 0xFFFFF800_00001234, 35)!.IsKernel);
    }

    [TestMethod]
    public void Jit_methods_resolve_by_range_in_their_process_synthetic()
    {
        var s = new TraceState();
        var payload = new PayloadBuilder().U64(1).U64(2).U64(0x5000).U32(0x40).U32(0x06000001).U32(8)
            .Utf16z("Contoso.Widgets.Spinner").Utf16z("Spin").Utf16z("void ()").U16(9).ToArray();
        s.Observe(SyntheticEvent.Manifest(ClrProviders.Runtime, ClrProviders.MethodLoadVerboseId, 1, payload, processId: 42, timestamp: 10));
        Assert.AreEqual("Contoso.Widgets.Spinner.Spin", s.ResolveFrame(42, 0x5010, 20).Name);
        Assert.IsTrue(s.ResolveFrame(42, 0x5010, 20).IsManaged);
        Assert.AreEqual("0x5040", s.ResolveFrame(42, 0x5040, 20).Name, "one past the end is outside");
        Assert.AreEqual("0x5010", s.ResolveFrame(43, 0x5010, 20).Name, "other process");
        s.Observe(SyntheticEvent.Manifest(ClrProviders.Runtime, ClrProviders.MethodUnloadVerboseId, 1, payload, processId: 42, timestamp: 30));
        Assert.AreEqual(30L, s.MethodsOf(42).Single().UnloadTimeNs);
    }

    [TestMethod]
    public void Pdb_identity_attaches_even_when_it_precedes_the_image_synthetic()
    {
        var s = new TraceState();
        var rsds = new PayloadBuilder().Ptr(0x10000).I32(9).Guid(new Guid("11111111-2222-3333-4444-555555555555")).U32(3).Ansiz("a.pdb").ToArray();
        s.Observe(SyntheticEvent.Classic(KernelTraceControlIds.ImageIdTask, KernelTraceControlIds.DbgIdRsds, 2, rsds));
        s.Observe(K(KernelGroups.Image, ImageEvent.DCStart, 3, Image(9, 0x10000, 0x1000, "a.dll"), 1));
        Assert.AreEqual(new PdbIdentity("a.pdb", new Guid("11111111-2222-3333-4444-555555555555"), 3), s.Images.Single().Pdb);
    }

    private static byte[] Rsds(int pid, ulong imageBase, string pdb) =>
        new PayloadBuilder().Ptr(imageBase).I32(pid).Guid(new Guid("11111111-2222-3333-4444-555555555555")).U32(1).Ansiz(pdb).ToArray();

    [TestMethod]
    public void A_pdb_identity_before_an_image_loaded_again_at_a_base_goes_to_the_new_image_not_the_unloaded_one_synthetic()
    {
        var s = new TraceState();
        static EtwEvent R(int pid, ulong b, string pdb, long t) =>
            SyntheticEvent.Classic(KernelTraceControlIds.ImageIdTask, KernelTraceControlIds.DbgIdRsds, 2, Rsds(pid, b, pdb), timestamp: t);
        // As merged traces order them: DbgID_RSDS, then the image event with the same timestamp.
        s.Observe(R(9, 0x10000, "a.pdb", 10));
        s.Observe(K(KernelGroups.Image, ImageEvent.Load, 3, Image(9, 0x10000, 0x1000, "a.dll"), 10));
        s.Observe(K(KernelGroups.Image, ImageEvent.Unload, 3, Image(9, 0x10000, 0x1000, "a.dll"), 20));
        s.Observe(R(9, 0x10000, "b.pdb", 30));
        s.Observe(K(KernelGroups.Image, ImageEvent.Load, 3, Image(9, 0x10000, 0x1000, "b.dll"), 30));
        Assert.AreEqual("a.pdb", s.Images[0].Pdb?.PdbName, "a.dll keeps its PDB");
        Assert.AreEqual("b.pdb", s.Images[1].Pdb?.PdbName, "b.dll gets its own");
    }

    [TestMethod]
    public void A_defunct_rundown_of_a_process_that_ended_in_the_trace_adds_no_second_instance_synthetic()
    {
        var s = new TraceState();
        s.Observe(K(KernelGroups.Process, ProcessEvent.Start, 4, Process(100, "a.exe", ""), 10));
        s.Observe(K(KernelGroups.Process, ProcessEvent.End, 4, Process(100, "a.exe", "", exit: 0), 20));
        s.Observe(K(KernelGroups.Process, ProcessEvent.Defunct, 4, Process(100, "a.exe", "", exit: 0), 100)); // end rundown
        Assert.AreEqual(1, s.Processes.Count);
        Assert.AreEqual(10L, s.GetProcess(100, 15)!.StartTimeNs, "the instance that ran at t=15 started at 10");
        Assert.IsFalse(s.GetProcess(100, 50)!.IsAlive(50), "a.exe ended at 20");

        // A process that exited before the trace began (a zombie the rundown names) was never alive in it.
        s.Observe(K(KernelGroups.Process, ProcessEvent.Defunct, 4, Process(200, "z.exe", "", exit: 1), 100));
        var zombie = s.GetProcess(200, 50)!;
        Assert.AreEqual("z.exe", zombie.ImageName);
        Assert.IsFalse(zombie.IsAlive(50));
    }

    [TestMethod]
    public void A_thread_known_only_from_a_rundown_after_its_id_ended_does_not_take_over_the_earlier_instance_synthetic()
    {
        var s = new TraceState();
        s.Observe(K(KernelGroups.Thread, ThreadEvent.DCStart, 3, Thread(7, 70), 1));
        s.Observe(K(KernelGroups.Thread, ThreadEvent.End, 3, Thread(7, 70), 20));
        s.Observe(K(KernelGroups.Thread, ThreadEvent.DCEnd, 3, Thread(8, 70), 100)); // id reused; its Start was lost
        Assert.AreEqual(7, s.GetThread(70, 10)!.ProcessId, "at t=10 thread 70 was in process 7");
        Assert.AreEqual(8, s.GetThread(70, 50)!.ProcessId);
        Assert.AreEqual(20L, s.GetThread(70, 50)!.StartTimeNs, "the later instance began no earlier than the first one ended");

        s.Observe(K(KernelGroups.Process, ProcessEvent.Start, 4, Process(5, "a.exe", ""), 10));
        s.Observe(K(KernelGroups.Process, ProcessEvent.End, 4, Process(5, "a.exe", ""), 20));
        s.Observe(K(KernelGroups.Process, ProcessEvent.DCEnd, 4, Process(5, "b.exe", "", key: 0xFFFF_8000_0000_1000), 100));
        Assert.AreEqual("a.exe", s.GetProcess(5, 15)!.ImageName);
        Assert.AreEqual("b.exe", s.GetProcess(5, 50)!.ImageName);
    }

    [TestMethod]
    public void A_rundown_of_another_process_object_under_a_live_id_starts_a_new_instance_synthetic()
    {
        var s = new TraceState();
        s.Observe(K(KernelGroups.Process, ProcessEvent.DCStart, 4, Process(5, "a.exe", ""), 1));
        s.Observe(K(KernelGroups.Process, ProcessEvent.DCEnd, 4, Process(5, "a.exe", ""), 90)); // the same process: no new instance
        Assert.AreEqual(1, s.Processes.Count);
        s.Observe(K(KernelGroups.Process, ProcessEvent.DCEnd, 4, Process(5, "b.exe", "", key: 0xFFFF_8000_0000_1000), 100)); // End and Start lost
        Assert.AreEqual(2, s.Processes.Count);
        Assert.AreEqual("a.exe", s.GetProcess(5, 50)!.ImageName);
        Assert.AreEqual("b.exe", s.GetProcess(5, 100)!.ImageName);
    }

    [TestMethod]
    public void Jit_methods_of_an_exited_process_do_not_name_frames_of_a_process_that_reuses_its_id_synthetic()
    {
        var s = new TraceState();
        s.Observe(K(KernelGroups.Process, ProcessEvent.Start, 4, Process(100, "managed.exe", ""), 10));
        var method = new PayloadBuilder().U64(1).U64(2).U64(0x5000).U32(0x40).U32(0x06000001).U32(8)
            .Utf16z("Contoso.Widgets.Spinner").Utf16z("Spin").Utf16z("void ()").U16(9).ToArray();
        s.Observe(SyntheticEvent.Manifest(ClrProviders.Runtime, ClrProviders.MethodLoadVerboseId, 1, method, processId: 100, timestamp: 11));
        Assert.AreEqual("Contoso.Widgets.Spinner.Spin", s.ResolveFrame(100, 0x5010, 15).Name);
        s.Observe(K(KernelGroups.Process, ProcessEvent.End, 4, Process(100, "managed.exe", "", exit: 0), 20)); // .NET logs no MethodUnload at exit
        s.Observe(K(KernelGroups.Process, ProcessEvent.Start, 4, Process(100, "native.exe", "", key: 0xFFFF_8000_0000_1000), 30));
        s.Observe(K(KernelGroups.Image, ImageEvent.Load, 3, Image(100, 0x5000, 0x1000, @"\Device\HarddiskVolume1\b.dll"), 31));
        Assert.AreEqual("b.dll+0x10", s.ResolveFrame(100, 0x5010, 35).Name);
        Assert.AreEqual("Contoso.Widgets.Spinner.Spin", s.ResolveFrame(100, 0x5010, 15).Name, "the first process's frames still resolve");
    }

    private static EtwEvent MethodLoad(int pid, long t) =>
        SyntheticEvent.Manifest(ClrProviders.Runtime, ClrProviders.MethodLoadVerboseId, 1,
            new PayloadBuilder().U64(1).U64(2).U64(0x5000).U32(0x40).U32(0x06000001).U32(8)
                .Utf16z("Contoso.Widgets.Spinner").Utf16z("Spin").Utf16z("void ()").U16(9).ToArray(), processId: pid, timestamp: t);

    [TestMethod]
    public void Jit_methods_end_when_a_start_reuses_a_live_id_whose_end_was_lost_synthetic()
    {
        var s = new TraceState();
        s.Observe(K(KernelGroups.Process, ProcessEvent.Start, 4, Process(100, "managed.exe", ""), 10));
        s.Observe(MethodLoad(100, 11));
        s.Observe(K(KernelGroups.Process, ProcessEvent.Start, 4, Process(100, "native.exe", "", key: 0xFFFF_8000_0000_1000), 30)); // End lost
        s.Observe(K(KernelGroups.Image, ImageEvent.Load, 3, Image(100, 0x5000, 0x1000, @"\Device\HarddiskVolume1\b.dll"), 31));
        Assert.AreEqual("b.dll+0x10", s.ResolveFrame(100, 0x5010, 35).Name);
        Assert.AreEqual("Contoso.Widgets.Spinner.Spin", s.ResolveFrame(100, 0x5010, 20).Name);
    }

    [TestMethod]
    public void Jit_methods_end_when_a_rundown_of_another_process_object_ends_the_live_instance_synthetic()
    {
        var s = new TraceState();
        s.Observe(K(KernelGroups.Process, ProcessEvent.DCStart, 4, Process(100, "managed.exe", ""), 1));
        s.Observe(MethodLoad(100, 11));
        // End and Start both lost: the end rundown names another process object under pid 100, then its image.
        s.Observe(K(KernelGroups.Process, ProcessEvent.DCEnd, 4, Process(100, "native.exe", "", key: 0xFFFF_8000_0000_1000), 100));
        s.Observe(K(KernelGroups.Image, ImageEvent.DCEnd, 3, Image(100, 0x5000, 0x1000, @"\Device\HarddiskVolume1\b.dll"), 101));
        Assert.AreEqual("native.exe", s.GetProcess(100, 150)!.ImageName);
        Assert.AreEqual("b.dll+0x10", s.ResolveFrame(100, 0x5010, 150).Name);
        Assert.AreEqual("Contoso.Widgets.Spinner.Spin", s.ResolveFrame(100, 0x5010, 50).Name);
    }

    [TestMethod]
    public void Images_of_an_exited_process_do_not_name_frames_of_a_process_that_reuses_its_id_synthetic()
    {
        var s = new TraceState();
        s.Observe(K(KernelGroups.Process, ProcessEvent.Start, 4, Process(100, "first.exe", ""), 10));
        s.Observe(K(KernelGroups.Image, ImageEvent.Load, 3, Image(100, 0x10000, 0x1000, @"\Device\HarddiskVolume1\a.dll"), 11));
        s.Observe(K(KernelGroups.Image, ImageEvent.Unload, 3, Image(100, 0x10000, 0x1000, @"\Device\HarddiskVolume1\a.dll"), 19));
        s.Observe(K(KernelGroups.Process, ProcessEvent.End, 4, Process(100, "first.exe", "", exit: 0), 20));
        s.Observe(K(KernelGroups.Process, ProcessEvent.Start, 4, Process(100, "second.exe", "", key: 0xFFFF_8000_0000_1000), 30));
        Assert.AreEqual("0x10010", s.ResolveFrame(100, 0x10010, 35).Name, "second.exe never had a.dll mapped");
        Assert.AreEqual("a.dll+0x10", s.ResolveFrame(100, 0x10010, 19).Name, "first.exe's frame just after the unload still names it");

        // An image known only from the end rundown of the second process does not cover the first one's lifetime.
        s.Observe(K(KernelGroups.Image, ImageEvent.DCEnd, 3, Image(100, 0x20000, 0x1000, @"\Device\HarddiskVolume1\c.dll"), 90));
        Assert.AreEqual("0x20010", s.ResolveFrame(100, 0x20010, 15).Name);
        Assert.AreEqual("c.dll+0x10", s.ResolveFrame(100, 0x20010, 35).Name);

        // An image whose unload was lost ends with its process all the same.
        s.Observe(K(KernelGroups.Image, ImageEvent.Load, 3, Image(100, 0x30000, 0x1000, @"\Device\HarddiskVolume1\d.dll"), 91));
        s.Observe(K(KernelGroups.Process, ProcessEvent.End, 4, Process(100, "second.exe", "", exit: 0, key: 0xFFFF_8000_0000_1000), 92));
        s.Observe(K(KernelGroups.Process, ProcessEvent.Start, 4, Process(100, "third.exe", "", key: 0xFFFF_8000_0000_2000), 93));
        Assert.AreEqual("d.dll+0x10", s.ResolveFrame(100, 0x30010, 91).Name);
        Assert.AreEqual("0x30010", s.ResolveFrame(100, 0x30010, 95).Name, "third.exe never had d.dll mapped");
    }

    [TestMethod]
    public void File_keys_get_names_until_FileDelete_synthetic()
    {
        var names = new FileNames();
        Assert.IsTrue(names.Observe(SyntheticEvent.Kernel(KernelGroups.FileIo, FileIoTypes.FileRundown, 2, new PayloadBuilder().Ptr(0xF1).Utf16z(@"\Device\X\dir").ToArray())));
        Assert.AreEqual(@"\Device\X\dir", names.NameOf(0xF1));
        names.Observe(SyntheticEvent.Kernel(KernelGroups.FileIo, FileIoTypes.FileDelete, 2, new PayloadBuilder().Ptr(0xF1).Utf16z(@"\Device\X\dir").ToArray()));
        Assert.AreEqual("FileKey 0xF1", names.NameOf(0xF1));
    }

    [TestMethod]
    public void Registry_operations_get_full_key_names_from_KCB_events_synthetic()
    {
        static EtwEvent Reg(byte op, ulong kcb, string name) => SyntheticEvent.Kernel(KernelGroups.Registry, op, 2,
            new PayloadBuilder().I64(0).U32(0).U32(0).Ptr(kcb).Utf16z(name).ToArray(), kind: RecordHeaderKind.System);
        var keys = new RegistryKeyNames();
        keys.Observe(Reg(RegistryEvent.KcbRundownBegin, 0xA0, @"\REGISTRY\MACHINE\SOFTWARE\Contoso"));
        Assert.IsTrue(RegistryEvent.TryDecode(Reg(RegistryEvent.Open, 0xA0, "Settings"), out var open));
        Assert.AreEqual(@"\REGISTRY\MACHINE\SOFTWARE\Contoso\Settings", keys.FullKeyName(open));
        Assert.IsTrue(RegistryEvent.TryDecode(Reg(RegistryEvent.QueryValue, 0xA0, "Mode"), out var query));
        Assert.AreEqual(@"\REGISTRY\MACHINE\SOFTWARE\Contoso", keys.FullKeyName(query));
        Assert.IsTrue(RegistryEvent.TryDecode(Reg(RegistryEvent.Open, 0, @"\REGISTRY\USER\S-1-5-18"), out var absolute));
        Assert.AreEqual(@"\REGISTRY\USER\S-1-5-18", keys.FullKeyName(absolute));
        Assert.AreEqual(@"HKLM\SOFTWARE\Contoso", RegistryKeyNames.ToHiveName(keys.FullKeyName(query)));
        keys.Observe(Reg(RegistryEvent.KcbDelete, 0xA0, @"\REGISTRY\MACHINE\SOFTWARE\Contoso"));
        Assert.AreEqual(@"KCB 0xA0\Settings", keys.FullKeyName(open));
    }
}
