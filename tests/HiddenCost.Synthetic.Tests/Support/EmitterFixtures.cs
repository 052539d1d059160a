using HiddenCost.Synthetic.Etl;
using HiddenCost.Synthetic.Events;

namespace HiddenCost.Synthetic.Tests.Support;

/// <summary>One event from every emitter, on CPU 0..2, after a context switch on each CPU.</summary>
internal static class EmitterFixtures
{
    public const uint Pid = 1204;
    public const uint Tid = 1508;

    /// <summary>Named records: the name says which emitter (and variant) produced it.</summary>
    public static List<(string Name, TraceRecord Record)> All(EtlTraceSettings s)
    {
        var p = s.PointerSize;
        var list = new List<(string, TraceRecord)>();
        var t = s.StartQpc + 100;
        var cpu = 0;
        EventContext C(int pointerSize = 0)
        {
            t += 10;
            cpu = (cpu + 1) % s.NumberOfProcessors;
            return new EventContext(cpu, t, pointerSize == 0 ? p : pointerSize, Tid, Pid);
        }
        void Add(string name, TraceRecord r) => list.Add((name, r));

        for (var i = 0; i < s.NumberOfProcessors; i++)
            Add($"CSwitch setup {i}", ThreadEvents.CSwitch(new EventContext(i, s.StartQpc + 50 + i, p), new CSwitchInfo(Tid, 0)));
        var thread = new ThreadInfo(Pid, Tid) { StackBase = 0xF000, StackLimit = 0xA000, UserStackBase = 0x7000, UserStackLimit = 0x6000, Win32StartAddress = 0x40_1A40, TebBase = 0x3000, ThreadName = "worker" };
        foreach (var type in new[] { ThreadEvents.DCStartType, ThreadEvents.StartType, ThreadEvents.EndType, ThreadEvents.DCEndType })
            Add($"Thread {type}", ThreadEvents.Lifetime(C(), type, thread));
        Add("CSwitch", ThreadEvents.CSwitch(C(), new CSwitchInfo(Tid, 0) { NewThreadPriority = 9, OldThreadPriority = 8, OldThreadWaitReason = WaitReason.UserRequest, OldThreadWaitMode = 1, OldThreadState = KThreadState.Waiting, OldThreadWaitIdealProcessor = 2, NewThreadWaitTime = 15, Reserved = -3 }));
        Add("ReadyThread", ThreadEvents.ReadyThread(C(), 2000, 2, -1, 0x8));

        var process = new ProcessInfo(Pid, 4, "app.exe", @"""C:\App\app.exe"" -x") { UniqueProcessKey = 0x8800, DirectoryTableBase = 0x1000, UserSid = ProcessInfo.LocalSystemSid, PackageFullName = "pkg", ApplicationId = "app" };
        foreach (var type in new[] { ProcessEvents.DCStartType, ProcessEvents.StartType, ProcessEvents.EndType, ProcessEvents.DCEndType })
            Add($"Process {type}", ProcessEvents.Lifetime(C(), type, process));
        Add("Process without SID", ProcessEvents.Lifetime(C(), ProcessEvents.DCStartType, process with { UserSid = null }));

        var user = new ImageInfo(0x40_0000, 0x2_0000, Pid, @"\Device\HarddiskVolume3\App\app.exe") { ImageChecksum = 0x1234, TimeDateStamp = 0x5000_0000, DefaultBase = 0x40_0000 };
        var kernel = new ImageInfo(p == 8 ? 0xFFFF_F806_1200_0000 : 0x8200_0000, 0x104_6000, 0, @"\SystemRoot\system32\ntoskrnl.exe");
        foreach (var type in new[] { ImageEvents.DCStartType, ImageEvents.LoadType, ImageEvents.UnloadType, ImageEvents.DCEndType })
            Add($"Image {type}", ImageEvents.Image(C(), type, user));
        Add("Image kernel DCStart", ImageEvents.Image(C(), ImageEvents.DCStartType, kernel));

        ulong[] frames = [kernel.ImageBase + 0x100, kernel.ImageBase + 0x200, 0x40_1000, 0x40_2000];
        Add("SampledProfile", PerfInfoEvents.SampledProfile(C(), 0x40_1000, Tid, 9, 1));
        Add("SysClEnter", PerfInfoEvents.SysClEnter(C(), kernel.ImageBase + 0x5E_3B20));
        Add("SysClExit", PerfInfoEvents.SysClExit(C(), 0x4000_0024));
        Add("ProfileInterval start", PerfInfoEvents.ProfileInterval(C(), true, 10_000));
        Add("ProfileInterval end", PerfInfoEvents.ProfileInterval(C(), false, 10_000));
        Add("Stack", StackWalkEvents.Stack(C(), t - 5, Pid, Tid, frames));
        Add("StackKeyKernel", StackWalkEvents.StackKey(C(), true, t - 5, Pid, Tid, 0x8A00_0100));
        Add("StackKeyUser", StackWalkEvents.StackKey(C(), false, t - 5, Pid, Tid, 0x8A00_0200));
        Add("KeyRundown", StackWalkEvents.KeyDefinition(C(), true, 0x8A00_0100, frames[..2]));
        Add("KeyDelete", StackWalkEvents.KeyDefinition(C(), false, 0x8A00_0200, frames[2..]));

        foreach (var type in new[] { FileIoEvents.NameType, FileIoEvents.FileCreateType, FileIoEvents.FileDeleteType, FileIoEvents.FileRundownType })
            Add($"FileIo name {type}", FileIoEvents.Name(C(), type, 0x9100, @"\Device\HarddiskVolume3\Data\Inbox"));
        Add("FileIo Create", FileIoEvents.Create(C(), 0x9200, 0x9300, Tid, FileIoValues.CreateOptions(FileIoValues.DispositionCreate, 0x60), 0x80, 7, @"\Device\HarddiskVolume3\Data\Inbox\a.tmp"));
        foreach (var type in new[] { FileIoEvents.CleanupType, FileIoEvents.CloseType, FileIoEvents.FlushType })
            Add($"FileIo simple {type}", FileIoEvents.SimpleOp(C(), type, 0x9200, 0x9300, 0x9400, Tid));
        foreach (var type in new[] { FileIoEvents.ReadType, FileIoEvents.WriteType })
            Add($"FileIo rw {type}", FileIoEvents.ReadWrite(C(), type, 0x1_0000_0000, 0x9200, 0x9300, 0x9400, Tid, 4096, 1));
        foreach (var type in new[] { FileIoEvents.SetInfoType, FileIoEvents.DeleteType, FileIoEvents.RenameType, FileIoEvents.QueryInfoType })
            Add($"FileIo info {type}", FileIoEvents.Info(C(), type, 0x9200, 0x9300, 0x9400, 1, Tid, FileIoValues.FileDispositionInformation));
        Add("FileIo DirEnum", FileIoEvents.Directory(C(), FileIoEvents.DirEnumType, 0x9500, 0x9600, 0x9100, Tid, 4096, 37, 0, "*.tmp"));
        Add("FileIo DirNotify", FileIoEvents.Directory(C(), FileIoEvents.DirNotifyType, 0x9500, 0x9600, 0x9100, Tid, 2 * 1024 * 1024, 0x1B, 0, ""));
        Add("FileIo OperationEnd", FileIoEvents.OperationEnd(C(), 0x9500, 264, FileIoValues.StatusNotifyEnumDir));

        foreach (var type in new[] { PageFaultEvents.TransitionFaultType, PageFaultEvents.DemandZeroFaultType, PageFaultEvents.CopyOnWriteType })
            Add($"PageFault {type}", PageFaultEvents.SoftFault(C(), type, 0x7000, 0x40_1000));
        foreach (var type in new[] { RegistryEvents.OpenType, RegistryEvents.QueryValueType, RegistryEvents.CloseType, RegistryEvents.KcbCreateType, RegistryEvents.KcbRundownBeginType, RegistryEvents.KcbRundownEndType })
            Add($"Registry {type}", RegistryEvents.Event(C(), type, t - 30, 0xC000_0034, 2, 0x9700, @"\REGISTRY\MACHINE\SOFTWARE\Contoso"));

        Add("ImageId", KernelTraceControlEvents.ImageId(C(), user.ImageBase, user.ImageSize, Pid, user.TimeDateStamp, "app.exe"));
        Add("VolumeMapping", KernelTraceControlEvents.VolumeMapping(C(), @"\Device\HarddiskVolume3\", @"C:\"));
        Add("DbgIdRsds", KernelTraceControlEvents.DbgIdRsds(C(), user.ImageBase, Pid, new Guid("53594e54-4845-5449-0000-000000000001"), 1, "app.pdb"));

        var method = new ClrMethod(0x7FF8_4B00_3A00, 0x7FF8_4AF0_2000, 0x7FF8_4C10_0000, 0x120, 0x0600_0012, "Contoso.Inventory.Worker", "Run", "void  ()");
        foreach (var processPointer in p == 8 ? new[] { 8, 4 } : new[] { 4 })
        {
            var m = processPointer == 8 ? method : method with { StartAddress = 0x0A10_0000 };
            Add($"MethodLoadVerbose v1 p{processPointer}", ClrEvents.MethodLoadVerbose(C(processPointer), m, 1));
            Add($"MethodLoadVerbose v2 p{processPointer}", ClrEvents.MethodLoadVerbose(C(processPointer), m, 2));
            Add($"MethodDCStartVerbose p{processPointer}", ClrEvents.MethodDCStartVerbose(C(processPointer), m));
            Add($"MethodDCEndVerbose v1 p{processPointer}", ClrEvents.MethodDCEndVerbose(C(processPointer), m, 1));
            Add($"ContentionStart v1 p{processPointer}", ClrEvents.ContentionStart(C(processPointer), 1));
            Add($"ContentionStart v2 p{processPointer}", ClrEvents.ContentionStart(C(processPointer), 2, processPointer == 8 ? 0x1C4_8F2A_3D40UL : 0x0523_3D40, processPointer == 8 ? 0x1C4_9000_1E28UL : 0x0261_1E28, 1512));
            Add($"ContentionStop v0 p{processPointer}", ClrEvents.ContentionStop(C(processPointer), 0));
            Add($"ContentionStop v1 p{processPointer}", ClrEvents.ContentionStop(C(processPointer), 1, 2_500_000.5));
        }

        var call = new RpcCallInfo(new Guid("f6beaff7-1e19-4fbb-9f8f-b89e2018337c"), 9);
        var activity = new Guid("53594e54-4845-5449-4352-504300000001");
        Add("RPC client start", RpcEvents.CallStart(C(), false, call, activity));
        Add("RPC server start", RpcEvents.CallStart(C(), true, call, activity));
        Add("RPC server stop", RpcEvents.CallStop(C(), true, 0, activity));
        Add("RPC client stop", RpcEvents.CallStop(C(), false, 1726, activity));
        Add("WMI-Activity 11", WmiActivityEvents.OperationStart(C(), new WmiOperationInfo(48_213, @"Start IWbemServices::ExecQuery - root\cimv2 : SELECT * FROM Win32_NTLogEvent", 2040)
        {
            CorrelationId = "{00000000-0000-0000-0000-000000000000}", GroupOperationId = 48_212, ClientMachine = "WS", ClientMachineFqdn = "WS.contoso.test",
            User = @"CONTOSO\svc", ClientProcessCreationTime = 0x01DC_0000_0000_0000,
        }));
        return list;
    }
}
