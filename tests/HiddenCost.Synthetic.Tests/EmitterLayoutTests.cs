using HiddenCost.Synthetic.Etl;
using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Tests.Support;

namespace HiddenCost.Synthetic.Tests;

/// <summary>
/// Each emitter's payload, decoded here field by field from the documented layouts (event-payloads.md,
/// etl-format-and-traceprocessing.md §2.5), gives back the values it was given and nothing more.
/// </summary>
[TestClass]
public sealed class EmitterLayoutTests
{
    [TestMethod]
    [DataRow(8)]
    [DataRow(4)]
    public void Every_emitter_writes_its_documented_layout(int pointerSize)
    {
        var s = new EtlTraceSettings { PointerSize = pointerSize, NumberOfProcessors = 3 };
        var checkedNames = 0;
        foreach (var (name, record) in EmitterFixtures.All(s))
        {
            var c = new PayloadCursor(record.Payload, record.PointerSize);
            var p = record.PointerSize;
            var kernelBase = pointerSize == 8 ? 0xFFFF_F806_1200_0000UL : 0x8200_0000UL;
            switch (name)
            {
                case var n when n.StartsWith("CSwitch setup", StringComparison.Ordinal):
                    Assert.AreEqual(EmitterFixtures.Tid, c.U32());
                    c.Skip(20);
                    break;
                case var n when n.StartsWith("Thread ", StringComparison.Ordinal):
                    Assert.AreEqual(EmitterFixtures.Pid, c.U32());
                    Assert.AreEqual(EmitterFixtures.Tid, c.U32());
                    Assert.AreEqual(0xF000UL, c.Pointer(), "StackBase");
                    Assert.AreEqual(0xA000UL, c.Pointer(), "StackLimit");
                    Assert.AreEqual(0x7000UL, c.Pointer(), "UserStackBase");
                    Assert.AreEqual(0x6000UL, c.Pointer(), "UserStackLimit");
                    c.Pointer();
                    Assert.AreEqual(0x40_1A40UL, c.Pointer(), "Win32StartAddr");
                    Assert.AreEqual(0x3000UL, c.Pointer(), "TebBase");
                    Assert.AreEqual(0u, c.U32(), "SubProcessTag");
                    Assert.AreEqual((byte)8, c.U8(), "BasePriority");
                    c.Skip(3);
                    Assert.AreEqual("worker", c.WString());
                    Assert.AreEqual(72 - 7 * (8 - p) + 14, record.Payload.Length);
                    break;
                case "CSwitch":
                    Assert.AreEqual(EmitterFixtures.Tid, c.U32(), "NewThreadId");
                    Assert.AreEqual(0u, c.U32(), "OldThreadId");
                    Assert.AreEqual((byte)9, c.U8());
                    Assert.AreEqual((byte)8, c.U8());
                    c.Skip(2);
                    Assert.AreEqual(WaitReason.UserRequest, c.U8(), "OldThreadWaitReason at 12");
                    Assert.AreEqual((byte)1, c.U8(), "OldThreadWaitMode");
                    Assert.AreEqual(KThreadState.Waiting, c.U8(), "OldThreadState at 14");
                    Assert.AreEqual((byte)2, c.U8());
                    Assert.AreEqual(15u, c.U32(), "NewThreadWaitTime at 16");
                    Assert.AreEqual(-3, c.I32());
                    break;
                case "ReadyThread":
                    Assert.AreEqual(2000u, c.U32());
                    Assert.AreEqual((byte)2, c.U8());
                    Assert.AreEqual((byte)0xFF, c.U8());
                    Assert.AreEqual((byte)8, c.U8());
                    c.U8();
                    break;
                case var n when n.StartsWith("Process", StringComparison.Ordinal):
                    Assert.AreEqual(0x8800UL, c.Pointer(), "UniqueProcessKey");
                    Assert.AreEqual(EmitterFixtures.Pid, c.U32());
                    Assert.AreEqual(4u, c.U32(), "ParentId");
                    c.U32();
                    c.I32();
                    Assert.AreEqual(0x1000UL, c.Pointer(), "DirectoryTableBase");
                    c.U32();
                    if (n == "Process without SID")
                    {
                        Assert.AreEqual(0u, c.U32(), "no SID: a u32 0");
                    }
                    else
                    {
                        Assert.AreNotEqual(0UL, c.Pointer(), "TOKEN_USER.Sid");
                        c.Skip(p); // Attributes, padded to a pointer pair
                        var sid = new[] { c.U8(), c.U8() };
                        Assert.AreEqual((byte)1, sid[0], "SID revision");
                        c.Skip(6 + 4 * sid[1]);
                    }
                    Assert.AreEqual("app.exe", c.AString());
                    Assert.AreEqual(@"""C:\App\app.exe"" -x", c.WString());
                    Assert.AreEqual("pkg", c.WString());
                    Assert.AreEqual("app", c.WString());
                    break;
                case var n when n.StartsWith("Image ", StringComparison.Ordinal):
                    var kernel = n.Contains("kernel", StringComparison.Ordinal);
                    Assert.AreEqual(kernel ? kernelBase : 0x40_0000UL, c.Pointer(), "ImageBase");
                    Assert.AreEqual(kernel ? 0x104_6000UL : 0x2_0000UL, c.Pointer(), "ImageSize");
                    Assert.AreEqual(kernel ? 0u : EmitterFixtures.Pid, c.U32(), "ProcessId");
                    Assert.AreEqual(kernel ? 0u : 0x1234u, c.U32(), "Checksum");
                    Assert.AreEqual(kernel ? 0u : 0x5000_0000u, c.U32(), "TimeDateStamp");
                    c.Skip(4);
                    c.Pointer();
                    c.Skip(16);
                    Assert.AreEqual(kernel ? @"\SystemRoot\system32\ntoskrnl.exe" : @"\Device\HarddiskVolume3\App\app.exe", c.WString());
                    break;
                case "SampledProfile":
                    Assert.AreEqual(0x40_1000UL, c.Pointer());
                    Assert.AreEqual(EmitterFixtures.Tid, c.U32());
                    Assert.AreEqual((ushort)1, c.U16(), "Count");
                    Assert.AreEqual((byte)((9 << 3) | 1), c.U8(), "priority in bits 3-7, DPC bit");
                    c.U8();
                    break;
                case "SysClEnter":
                    Assert.AreEqual(kernelBase + 0x5E_3B20, c.Pointer());
                    break;
                case "SysClExit":
                    Assert.AreEqual(0x4000_0024u, c.U32());
                    break;
                case var n when n.StartsWith("ProfileInterval", StringComparison.Ordinal):
                    Assert.AreEqual(0u, c.U32(), "Source");
                    Assert.AreEqual(10_000u, c.U32(), "NewInterval");
                    Assert.AreEqual(10_000u, c.U32(), "OldInterval");
                    Assert.AreEqual("Timer", c.WString());
                    break;
                case "Stack":
                    c.I64();
                    Assert.AreEqual(EmitterFixtures.Pid, c.U32());
                    Assert.AreEqual(EmitterFixtures.Tid, c.U32());
                    Assert.AreEqual(kernelBase + 0x100, c.Pointer());
                    c.Skip(3 * p);
                    break;
                case "StackKeyKernel" or "StackKeyUser":
                    c.I64();
                    Assert.AreEqual(EmitterFixtures.Pid, c.U32());
                    Assert.AreEqual(EmitterFixtures.Tid, c.U32());
                    Assert.AreEqual(name == "StackKeyKernel" ? 0x8A00_0100UL : 0x8A00_0200UL, c.Pointer());
                    break;
                case "KeyRundown" or "KeyDelete":
                    Assert.AreEqual(name == "KeyRundown" ? 0x8A00_0100UL : 0x8A00_0200UL, c.Pointer());
                    c.Skip(2 * p);
                    break;
                case var n when n.StartsWith("FileIo name", StringComparison.Ordinal):
                    Assert.AreEqual(0x9100UL, c.Pointer());
                    Assert.AreEqual(@"\Device\HarddiskVolume3\Data\Inbox", c.WString());
                    break;
                case "FileIo Create":
                    Assert.AreEqual(0x9200UL, c.Pointer(), "Irp");
                    Assert.AreEqual(0x9300UL, c.Pointer(), "FileObject");
                    Assert.AreEqual(EmitterFixtures.Tid, c.U32(), "TTID at 2p");
                    Assert.AreEqual(0x0200_0060u, c.U32(), "CreateOptions: disposition in the high byte");
                    Assert.AreEqual(0x80u, c.U32());
                    Assert.AreEqual(7u, c.U32());
                    Assert.AreEqual(@"\Device\HarddiskVolume3\Data\Inbox\a.tmp", c.WString());
                    break;
                case var n when n.StartsWith("FileIo simple", StringComparison.Ordinal):
                    Assert.AreEqual(0x9200UL, c.Pointer());
                    Assert.AreEqual(0x9300UL, c.Pointer());
                    Assert.AreEqual(0x9400UL, c.Pointer(), "FileKey");
                    Assert.AreEqual(EmitterFixtures.Tid, c.U32());
                    break;
                case var n when n.StartsWith("FileIo rw", StringComparison.Ordinal):
                    Assert.AreEqual(0x1_0000_0000UL, c.U64(), "Offset");
                    Assert.AreEqual(0x9200UL, c.Pointer());
                    Assert.AreEqual(0x9300UL, c.Pointer());
                    Assert.AreEqual(0x9400UL, c.Pointer());
                    Assert.AreEqual(EmitterFixtures.Tid, c.U32());
                    Assert.AreEqual(4096u, c.U32(), "IoSize");
                    Assert.AreEqual(1u, c.U32(), "IoFlags");
                    c.U32();
                    break;
                case var n when n.StartsWith("FileIo info", StringComparison.Ordinal):
                    Assert.AreEqual(0x9200UL, c.Pointer());
                    Assert.AreEqual(0x9300UL, c.Pointer());
                    Assert.AreEqual(0x9400UL, c.Pointer());
                    Assert.AreEqual(1UL, c.Pointer(), "ExtraInfo");
                    Assert.AreEqual(EmitterFixtures.Tid, c.U32());
                    Assert.AreEqual(FileIoValues.FileDispositionInformation, c.U32(), "InfoClass");
                    break;
                case "FileIo DirEnum" or "FileIo DirNotify":
                    Assert.AreEqual(0x9500UL, c.Pointer(), "Irp");
                    Assert.AreEqual(0x9600UL, c.Pointer(), "FileObject");
                    Assert.AreEqual(0x9100UL, c.Pointer(), "FileKey");
                    Assert.AreEqual(EmitterFixtures.Tid, c.U32(), "TTID at 3p");
                    Assert.AreEqual(name == "FileIo DirNotify" ? 2u * 1024 * 1024 : 4096u, c.U32(), "Length at 3p+4");
                    Assert.AreEqual(name == "FileIo DirNotify" ? 0x1Bu : 37u, c.U32(), "InfoClass");
                    Assert.AreEqual(0u, c.U32());
                    Assert.AreEqual(name == "FileIo DirNotify" ? "" : "*.tmp", c.WString());
                    break;
                case "FileIo OperationEnd":
                    Assert.AreEqual(0x9500UL, c.Pointer());
                    Assert.AreEqual(264UL, c.Pointer(), "ExtraInfo");
                    Assert.AreEqual(0x10Cu, c.U32(), "NtStatus");
                    break;
                case var n when n.StartsWith("PageFault", StringComparison.Ordinal):
                    Assert.AreEqual(0x7000UL, c.Pointer());
                    Assert.AreEqual(0x40_1000UL, c.Pointer());
                    break;
                case var n when n.StartsWith("Registry", StringComparison.Ordinal):
                    Assert.AreEqual(record.Timestamp - 30, c.I64(), "InitialTime");
                    Assert.AreEqual(0xC000_0034u, c.U32(), "Status");
                    Assert.AreEqual(2u, c.U32(), "Index");
                    Assert.AreEqual(0x9700UL, c.Pointer(), "KCB");
                    Assert.AreEqual(@"\REGISTRY\MACHINE\SOFTWARE\Contoso", c.WString());
                    break;
                case "ImageId":
                    Assert.AreEqual(0x40_0000UL, c.Pointer());
                    Assert.AreEqual(0x2_0000UL, c.Pointer());
                    Assert.AreEqual(EmitterFixtures.Pid, c.U32());
                    Assert.AreEqual(0x5000_0000u, c.U32());
                    Assert.AreEqual("app.exe", c.WString());
                    break;
                case "VolumeMapping":
                    Assert.AreEqual(@"\Device\HarddiskVolume3\", c.WString());
                    Assert.AreEqual(@"C:\", c.WString());
                    break;
                case "DbgIdRsds":
                    Assert.AreEqual(0x40_0000UL, c.Pointer());
                    Assert.AreEqual(EmitterFixtures.Pid, c.U32());
                    Assert.AreEqual(new Guid("53594e54-4845-5449-0000-000000000001"), c.Guid());
                    Assert.AreEqual(1u, c.U32(), "Age");
                    Assert.AreEqual("app.pdb", c.AString());
                    break;
                case var n when n.StartsWith("Method", StringComparison.Ordinal):
                    Assert.AreEqual(0x7FF8_4B00_3A00UL, c.U64(), "MethodID");
                    Assert.AreEqual(0x7FF8_4AF0_2000UL, c.U64(), "ModuleID");
                    Assert.AreEqual(n.EndsWith("p8", StringComparison.Ordinal) ? 0x7FF8_4C10_0000UL : 0x0A10_0000UL, c.U64(), "MethodStartAddress: 8 bytes at any pointer size");
                    Assert.AreEqual(0x120u, c.U32());
                    Assert.AreEqual(0x0600_0012u, c.U32());
                    c.U32();
                    Assert.AreEqual("Contoso.Inventory.Worker", c.WString());
                    Assert.AreEqual("Run", c.WString());
                    Assert.AreEqual("void  ()", c.WString());
                    Assert.AreEqual(ClrEvents.ClrInstanceId, c.U16());
                    if (n.Contains("v1", StringComparison.Ordinal)) break;
                    Assert.AreEqual(0UL, c.U64(), "ReJITID (v2)");
                    break;
                case var n when n.StartsWith("ContentionStart", StringComparison.Ordinal):
                    Assert.AreEqual((byte)0, c.U8(), "ContentionFlags: managed");
                    Assert.AreEqual(ClrEvents.ClrInstanceId, c.U16());
                    if (n.Contains("v1", StringComparison.Ordinal)) break;
                    Assert.AreEqual(p == 8 ? 0x1C4_8F2A_3D40UL : 0x0523_3D40UL, c.Pointer(), "LockID: pointer-sized");
                    Assert.AreEqual(p == 8 ? 0x1C4_9000_1E28UL : 0x0261_1E28UL, c.Pointer(), "AssociatedObjectID");
                    Assert.AreEqual(1512UL, c.U64(), "LockOwnerThreadID");
                    Assert.AreEqual(3 + 2 * p + 8, record.Payload.Length);
                    break;
                case var n when n.StartsWith("ContentionStop", StringComparison.Ordinal):
                    c.U8();
                    Assert.AreEqual(ClrEvents.ClrInstanceId, c.U16());
                    if (n.Contains("v0", StringComparison.Ordinal)) break;
                    Assert.AreEqual(2_500_000.5, c.F64(), "DurationNs");
                    break;
                case "RPC client start" or "RPC server start":
                    Assert.AreEqual(new Guid("f6beaff7-1e19-4fbb-9f8f-b89e2018337c"), c.Guid());
                    Assert.AreEqual(9u, c.U32(), "ProcNum");
                    Assert.AreEqual(3u, c.U32(), "LRPC");
                    Assert.AreEqual("", c.WString());
                    Assert.AreEqual("eventlog", c.WString());
                    Assert.AreEqual("", c.WString());
                    Assert.AreEqual(6u, c.U32());
                    Assert.AreEqual(10u, c.U32());
                    Assert.AreEqual(3u, c.U32());
                    break;
                case "RPC server stop" or "RPC client stop":
                    Assert.AreEqual(name == "RPC server stop" ? 0u : 1726u, c.U32());
                    break;
                case "WMI-Activity 11":
                    Assert.AreEqual("{00000000-0000-0000-0000-000000000000}", c.WString());
                    Assert.AreEqual(48_212u, c.U32());
                    Assert.AreEqual(48_213u, c.U32());
                    Assert.AreEqual(@"Start IWbemServices::ExecQuery - root\cimv2 : SELECT * FROM Win32_NTLogEvent", c.WString());
                    Assert.AreEqual("WS", c.WString());
                    Assert.AreEqual("WS.contoso.test", c.WString());
                    Assert.AreEqual(@"CONTOSO\svc", c.WString());
                    Assert.AreEqual(2040u, c.U32(), "ClientProcessId");
                    Assert.AreEqual(0x01DC_0000_0000_0000UL, c.U64());
                    Assert.AreEqual(@"\\.\root\cimv2", c.WString());
                    Assert.AreEqual(1u, c.U32(), "IsLocal: a 4-byte win:Boolean");
                    break;
                default:
                    Assert.Fail("no layout check for " + name);
                    break;
            }
            Assert.AreEqual(0, c.Remaining, $"{name}: {c.Remaining} bytes left after the documented fields");
            checkedNames++;
        }
        Assert.AreEqual(EmitterFixtures.All(s).Count, checkedNames);
    }
}
