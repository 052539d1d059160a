using HiddenCost.Etl;
using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Decoding.KernelTraceControl;
using HiddenCost.Etl.Decoding.Rpc;
using HiddenCost.Etl.Decoding.Wmi;
using HiddenCost.Synthetic.Etl;
using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Tests.Support;

namespace HiddenCost.Synthetic.Tests;

/// <summary>Writer → reader → the project's typed decoders: every emitter's fields decode to the values written.</summary>
[TestClass]
public sealed class DecodedFieldTests
{
    [TestMethod]
    [DataRow(8)]
    [DataRow(4)]
    public void Typed_decoders_read_back_what_every_emitter_wrote(int pointerSize)
    {
        var s = new EtlTraceSettings { PointerSize = pointerSize, NumberOfProcessors = 3, Compress = true };
        var fixtures = EmitterFixtures.All(s);
        var byTime = fixtures.ToDictionary(x => (x.Record.Timestamp, x.Record.Cpu), x => x.Name);
        var writer = new EtlFileWriter(s);
        writer.AddRange(fixtures.Select(x => x.Record));
        var path = Path.Combine(Path.GetTempPath(), $"hiddencost-decoded-{Environment.ProcessId}-{Guid.NewGuid():N}.etl");
        File.WriteAllBytes(path, writer.ToArray());
        var decoded = new HashSet<string>();
        var kernelBase = pointerSize == 8 ? 0xFFFF_F806_1200_0000UL : 0x8200_0000UL;
        try
        {
            using var reader = EtlReader.Open(path);
            foreach (var e in reader.ReadEvents())
            {
                if (!byTime.TryGetValue((e.RawTimestamp, e.Cpu), out var name)) continue;
                if (Check(name, e, kernelBase)) decoded.Add(name);
            }
        }
        finally
        {
            File.Delete(path);
        }
        var missing = fixtures.Select(x => x.Name).Where(n => !decoded.Contains(n) && !n.StartsWith("CSwitch setup", StringComparison.Ordinal)).ToList();
        Assert.AreEqual(0, missing.Count, "not decoded: " + string.Join(", ", missing));
    }

    private static bool Check(string name, in EtwEvent e, ulong kernelBase)
    {
        const int Pid = (int)EmitterFixtures.Pid, Tid = (int)EmitterFixtures.Tid;
        switch (name)
        {
            case var n when n.StartsWith("Thread ", StringComparison.Ordinal):
                Assert.IsTrue(ThreadEvent.TryDecode(e, out var th), name);
                Assert.AreEqual((Pid, Tid, 0xF000UL, 0xA000UL, 0x40_1A40UL, 0x3000UL, (byte)8), (th.ProcessId, th.ThreadId, th.StackBase, th.StackLimit, th.Win32StartAddress, th.TebBase, th.BasePriority), name);
                return true;
            case "CSwitch":
                Assert.IsTrue(ContextSwitch.TryDecode(e, out var cs));
                Assert.AreEqual(new ContextSwitch(Tid, 0, 9, 8, 0, 0, WaitReason.UserRequest, 1, KThreadState.Waiting, 2, 15, -3), cs);
                return true;
            case "ReadyThread":
                Assert.IsTrue(ReadyThread.TryDecode(e, out var rt));
                Assert.AreEqual(new ReadyThread(2000, 2, -1, 8), rt);
                return true;
            case var n when n.StartsWith("Process", StringComparison.Ordinal):
                Assert.IsTrue(ProcessEvent.TryDecode(e, out var pr), name);
                Assert.AreEqual((0x8800UL, Pid, 4, 0x1000UL, "app.exe", @"""C:\App\app.exe"" -x", "pkg", "app"),
                    (pr.UniqueProcessKey, pr.ProcessId, pr.ParentId, pr.DirectoryTableBase, pr.ImageFileName, pr.CommandLine, pr.PackageFullName, pr.ApplicationId), name);
                return true;
            case var n when n.StartsWith("Image ", StringComparison.Ordinal):
                Assert.IsTrue(ImageEvent.TryDecode(e, out var im), name);
                if (n.Contains("kernel", StringComparison.Ordinal))
                    Assert.AreEqual((kernelBase, 0x104_6000UL, 0, @"\SystemRoot\system32\ntoskrnl.exe"), (im.ImageBase, im.ImageSize, im.ProcessId, im.FileName));
                else
                    Assert.AreEqual((0x40_0000UL, 0x2_0000UL, Pid, 0x1234u, 0x5000_0000u, 0x40_0000UL, @"\Device\HarddiskVolume3\App\app.exe"),
                        (im.ImageBase, im.ImageSize, im.ProcessId, im.ImageChecksum, im.TimeDateStamp, im.DefaultBase, im.FileName), name);
                return true;
            case "SampledProfile":
                Assert.IsTrue(SampledProfile.TryDecode(e, out var sp));
                Assert.AreEqual(new SampledProfile(0x40_1000, Tid, 1, (byte)((9 << 3) | 1), 0), sp);
                return true;
            case "SysClEnter":
                Assert.IsTrue(SystemCallEnter.TryDecode(e, out var enter));
                Assert.AreEqual(kernelBase + 0x5E_3B20, enter.SysCallAddress);
                return true;
            case "SysClExit":
                Assert.IsTrue(SystemCallExit.TryDecode(e, out var exit));
                Assert.AreEqual(0x4000_0024u, exit.NtStatus);
                return true;
            case var n when n.StartsWith("ProfileInterval", StringComparison.Ordinal):
                Assert.IsTrue(ProfileInterval.TryDecode(e, out var pi));
                Assert.AreEqual((0u, 10_000u, 10_000u, "Timer"), (pi.Source, pi.NewInterval, pi.OldInterval, pi.SourceName));
                return true;
            case "Stack":
                Assert.IsTrue(StackWalkStack.TryDecode(e, out var st));
                Assert.AreEqual((Pid, Tid, 4), (st.ProcessId, st.ThreadId, st.FrameCount));
                return true;
            case "StackKeyKernel" or "StackKeyUser":
                Assert.IsTrue(StackKeyReference.TryDecode(e, out var sk));
                Assert.AreEqual((name == "StackKeyUser", Pid, Tid, name == "StackKeyUser" ? 0x8A00_0200UL : 0x8A00_0100UL), (sk.IsUser, sk.ProcessId, sk.ThreadId, sk.Key));
                return true;
            case "KeyRundown" or "KeyDelete":
                Assert.IsTrue(StackKeyDefinition.TryDecode(e, out var kd));
                Assert.AreEqual((name == "KeyRundown" ? 0x8A00_0100UL : 0x8A00_0200UL, 2), (kd.Key, kd.FrameCount));
                return true;
            case var n when n.StartsWith("FileIo name", StringComparison.Ordinal):
                Assert.IsTrue(FileIoName.TryDecode(e, out var fn));
                Assert.AreEqual((0x9100UL, @"\Device\HarddiskVolume3\Data\Inbox"), (fn.FileKey, fn.FileName));
                return true;
            case "FileIo Create":
                Assert.IsTrue(FileIoCreate.TryDecode(e, out var fc));
                Assert.AreEqual(new FileIoCreate(0x9200, 0x9300, Tid, 0x0200_0060, 0x80, 7, @"\Device\HarddiskVolume3\Data\Inbox\a.tmp"), fc);
                return true;
            case var n when n.StartsWith("FileIo simple", StringComparison.Ordinal):
                Assert.IsTrue(FileIoSimpleOp.TryDecode(e, out var so));
                Assert.AreEqual((0x9200UL, 0x9300UL, 0x9400UL, Tid), (so.Irp, so.FileObject, so.FileKey, so.IssuingThreadId));
                return true;
            case var n when n.StartsWith("FileIo rw", StringComparison.Ordinal):
                Assert.IsTrue(FileIoReadWrite.TryDecode(e, out var rw));
                Assert.AreEqual((0x1_0000_0000UL, 0x9200UL, 0x9300UL, 0x9400UL, Tid, 4096u, 1u), (rw.Offset, rw.Irp, rw.FileObject, rw.FileKey, rw.IssuingThreadId, rw.IoSize, rw.IoFlags));
                return true;
            case var n when n.StartsWith("FileIo info", StringComparison.Ordinal):
                Assert.IsTrue(FileIoInfo.TryDecode(e, out var fi));
                Assert.AreEqual((0x9200UL, 0x9300UL, 0x9400UL, 1UL, Tid, FileIoValues.FileDispositionInformation), (fi.Irp, fi.FileObject, fi.FileKey, fi.ExtraInfo, fi.IssuingThreadId, fi.InfoClass));
                return true;
            case "FileIo DirEnum" or "FileIo DirNotify":
                Assert.IsTrue(FileIoDirEnum.TryDecode(e, out var de));
                var notify = name == "FileIo DirNotify";
                Assert.AreEqual((0x9500UL, 0x9600UL, 0x9100UL, Tid, notify ? 2u * 1024 * 1024 : 4096u, notify ? 0x1Bu : 37u, notify ? "" : "*.tmp"),
                    (de.Irp, de.FileObject, de.FileKey, de.IssuingThreadId, de.Length, de.InfoClass, de.FileName));
                return true;
            case "FileIo OperationEnd":
                Assert.IsTrue(FileIoOperationEnd.TryDecode(e, out var oe));
                Assert.AreEqual(new FileIoOperationEnd(0x9500, 264, 0x10C), oe);
                return true;
            case var n when n.StartsWith("PageFault", StringComparison.Ordinal):
                Assert.IsTrue(PageFault.TryDecode(e, out var pf));
                Assert.AreEqual((0x7000UL, 0x40_1000UL), (pf.VirtualAddress, pf.ProgramCounter));
                return true;
            case var n when n.StartsWith("Registry", StringComparison.Ordinal):
                Assert.IsTrue(RegistryEvent.TryDecode(e, out var rg));
                Assert.AreEqual((e.RawTimestamp - 30, 0xC000_0034u, 2u, 0x9700UL, @"\REGISTRY\MACHINE\SOFTWARE\Contoso"), (rg.InitialTime, rg.Status, rg.Index, rg.KeyHandle, rg.KeyName));
                return true;
            case "ImageId":
                Assert.IsTrue(ImageIdEvent.TryDecode(e, out var ii));
                Assert.AreEqual(new ImageIdEvent(0x40_0000, 0x2_0000, Pid, 0x5000_0000, "app.exe"), ii);
                return true;
            case "DbgIdRsds":
                Assert.IsTrue(DbgIdRsds.TryDecode(e, out var rs));
                Assert.AreEqual(new DbgIdRsds(0x40_0000, Pid, new Guid("53594e54-4845-5449-0000-000000000001"), 1, "app.pdb"), rs);
                return true;
            case "VolumeMapping":
                Assert.IsTrue(VolumeMapping.TryDecode(e, out var vm));
                Assert.AreEqual(new VolumeMapping(@"\Device\HarddiskVolume3\", @"C:\"), vm);
                return true;
            case var n when n.StartsWith("Method", StringComparison.Ordinal):
                Assert.IsTrue(HiddenCost.Etl.Decoding.Clr.ClrMethod.TryDecode(e, out var m), name);
                Assert.AreEqual((0x7FF8_4B00_3A00UL, n.EndsWith("p8", StringComparison.Ordinal) ? 0x7FF8_4C10_0000UL : 0x0A10_0000UL, 0x120u, "Contoso.Inventory.Worker", "Run", "void  ()", ClrEvents.ClrInstanceId),
                    (m.MethodId, m.MethodStartAddress, m.MethodSize, m.MethodNamespace, m.MethodName, m.MethodSignature, m.ClrInstanceId), name);
                return true;
            case var n when n.StartsWith("ContentionStart", StringComparison.Ordinal):
                Assert.IsTrue(ClrContentionStart.TryDecode(e, out var cst), name);
                var v2 = n.Contains("v2", StringComparison.Ordinal);
                var p8 = n.EndsWith("p8", StringComparison.Ordinal);
                Assert.AreEqual(((byte)(v2 ? 2 : 1), ClrEvents.ClrInstanceId, v2 ? (p8 ? 0x1C4_8F2A_3D40UL : 0x0523_3D40UL) : 0UL, v2 ? 1512UL : 0UL),
                    (cst.Version, cst.ClrInstanceId, cst.LockId, cst.LockOwnerThreadId), name);
                return true;
            case var n when n.StartsWith("ContentionStop", StringComparison.Ordinal):
                Assert.IsTrue(ClrContentionStop.TryDecode(e, out var csp), name);
                Assert.AreEqual(n.Contains("v1", StringComparison.Ordinal) ? 2_500_000.5 : null, csp.DurationNs, name);
                return true;
            case "RPC client start" or "RPC server start":
                Assert.IsTrue(RpcCallStart.TryDecode(e, out var rcs));
                Assert.AreEqual((name == "RPC server start", new Guid("f6beaff7-1e19-4fbb-9f8f-b89e2018337c"), 9u, 3u, "eventlog"), (rcs.IsServer, rcs.InterfaceUuid, rcs.ProcNum, rcs.Protocol, rcs.Endpoint));
                return true;
            case "RPC server stop" or "RPC client stop":
                Assert.IsTrue(RpcCallStop.TryDecode(e, out var rst));
                Assert.AreEqual(new RpcCallStop(name == "RPC server stop", name == "RPC server stop" ? 0u : 1726u), rst);
                return true;
            case "WMI-Activity 11":
                Assert.IsTrue(WmiOperationStart.TryDecode(e, out var w));
                Assert.AreEqual((48_213u, 2040, @"\\.\root\cimv2", @"CONTOSO\svc"), (w.OperationId, w.ClientProcessId, w.NamespaceName, w.User));
                StringAssert.EndsWith(w.Operation, "Win32_NTLogEvent");
                return true;
            default:
                return false;
        }
    }
}
