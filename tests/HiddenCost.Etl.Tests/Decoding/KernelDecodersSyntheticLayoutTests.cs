using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Records;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.Decoding;

/// <summary>
/// Decoders for kernel events the public samples do not contain, checked against synthetic payloads built
/// here from the documented structs (ntwmi.h / the MOF class docs). Each test says "synthetic" in its name.
/// </summary>
[TestClass]
public sealed class KernelDecodersSyntheticLayoutTests
{
    [TestMethod]
    public void CSwitch_decodes_the_24_byte_WMI_CONTEXTSWAP_layout_synthetic()
    {
        var payload = new PayloadBuilder().U32(1234).U32(5678).U8(10).U8(unchecked((byte)-2)).U8(3).U8(1)
            .U8(33).U8(1).U8(ContextSwitch.StateWaiting).U8(7).U32(250).I32(-5).ToArray();
        var e = SyntheticEvent.Kernel(KernelGroups.Thread, ContextSwitch.Opcode, 4, payload);
        Assert.IsTrue(ContextSwitch.TryDecode(e, out var c));
        Assert.AreEqual(new ContextSwitch(1234, 5678, 10, -2, 3, 1, 33, 1, 5, 7, 250, -5), c);
    }

    [TestMethod]
    public void CSwitch_missing_trailing_bytes_reads_them_as_zero_synthetic()
    {
        var payload = new PayloadBuilder().U32(1).U32(2).U8(9).ToArray();
        Assert.IsTrue(ContextSwitch.TryDecode(SyntheticEvent.Kernel(KernelGroups.Thread, 36, 2, payload), out var c));
        Assert.AreEqual(1, c.NewThreadId);
        Assert.AreEqual(2, c.OldThreadId);
        Assert.AreEqual(9, c.NewThreadPriority);
        Assert.AreEqual(0U, c.NewThreadWaitTime);
    }

    [TestMethod]
    public void CSwitch_with_extra_trailing_bytes_still_decodes_synthetic()
    {
        var payload = new PayloadBuilder().U32(7).U32(8).Bytes(new byte[16]).U64(0xDEADBEEF).ToArray();
        Assert.IsTrue(ContextSwitch.TryDecode(SyntheticEvent.Kernel(KernelGroups.Thread, 36, 5, payload), out var c));
        Assert.AreEqual(7, c.NewThreadId);
    }

    [TestMethod]
    public void ReadyThread_decodes_the_8_byte_layout_and_flags_synthetic()
    {
        var payload = new PayloadBuilder().U32(4242).U8(2).U8(3).U8(0x9).U8(0).ToArray();
        Assert.IsTrue(ReadyThread.TryDecode(SyntheticEvent.Kernel(KernelGroups.Thread, 50, 2, payload), out var r));
        Assert.AreEqual(4242, r.ReadiedThreadId);
        Assert.AreEqual((byte)2, r.AdjustReason);
        Assert.AreEqual((sbyte)3, r.AdjustIncrement);
        Assert.IsTrue(r.ExecutingDpc);
        Assert.IsTrue(r.DirectSwitchAttempt);
        Assert.IsFalse(r.KernelStackNotResident);
    }

    [TestMethod]
    public void SysClEnter_reads_a_pointer_sized_address_in_both_widths_synthetic()
    {
        var e64 = SyntheticEvent.Kernel(KernelGroups.PerfInfo, 51, 2, new PayloadBuilder(8).Ptr(0xFFFFF800_12345678).ToArray());
        Assert.IsTrue(SystemCallEnter.TryDecode(e64, out var enter64));
        Assert.AreEqual(0xFFFFF800_12345678UL, enter64.SysCallAddress);
        var e32 = SyntheticEvent.Kernel(KernelGroups.PerfInfo, 51, 2, new PayloadBuilder(4).Ptr(0x8123_4567).ToArray(), is64: false);
        Assert.IsTrue(SystemCallEnter.TryDecode(e32, out var enter32));
        Assert.AreEqual(0x8123_4567UL, enter32.SysCallAddress);
        Assert.IsTrue(SystemCallExit.TryDecode(SyntheticEvent.Kernel(KernelGroups.PerfInfo, 52, 2, new PayloadBuilder().U32(0xC0000022).ToArray()), out var exit));
        Assert.AreEqual(0xC0000022U, exit.NtStatus);
    }

    [TestMethod]
    public void PageFault_type_group_1_decodes_address_and_program_counter_synthetic()
    {
        var payload = new PayloadBuilder().Ptr(0x1000_0000).Ptr(0x7FF6_0000_1234).ToArray();
        Assert.IsTrue(PageFault.TryDecode(SyntheticEvent.Kernel(KernelGroups.PageFault, PageFault.DemandZeroFault, 2, payload), out var f));
        Assert.AreEqual(new PageFault(11, 0x1000_0000, 0x7FF6_0000_1234), f);
        Assert.IsFalse(PageFault.TryDecode(SyntheticEvent.Kernel(KernelGroups.PageFault, 32, 2, payload), out _));
    }

    [TestMethod]
    public void Registry_v2_decodes_times_status_kcb_and_name_synthetic()
    {
        var payload = new PayloadBuilder().I64(123456).U32(0xC0000034).U32(2).Ptr(0xFFFF_A000_0000_1000).Utf16z("Software\\Contoso").ToArray();
        Assert.IsTrue(RegistryEvent.TryDecode(SyntheticEvent.Kernel(KernelGroups.Registry, RegistryEvent.Open, 2, payload, kind: RecordHeaderKind.System), out var r));
        Assert.AreEqual(new RegistryEvent(11, 123456, 0xC0000034, 2, 0xFFFF_A000_0000_1000, "Software\\Contoso"), r);
        Assert.AreEqual("Open", RegistryEvent.OperationName(r.Opcode));
        Assert.IsFalse(RegistryEvent.TryDecode(SyntheticEvent.Kernel(KernelGroups.Registry, RegistryEvent.Open, 1, payload), out _), "v1 has another field order");
    }

    [TestMethod]
    public void FileIo_Create_decodes_v2_and_v3_layouts_synthetic()
    {
        var v3 = new PayloadBuilder().Ptr(0x11).Ptr(0x22).U32(777).U32(0x0100_0020).U32(0x80).U32(7).Utf16z(@"\Device\HarddiskVolume2\a.txt").ToArray();
        Assert.IsTrue(FileIoCreate.TryDecode(SyntheticEvent.Kernel(KernelGroups.FileIo, FileIoTypes.Create, 3, v3), out var c3));
        Assert.AreEqual(new FileIoCreate(0x11, 0x22, 777, 0x0100_0020, 0x80, 7, @"\Device\HarddiskVolume2\a.txt"), c3);
        Assert.AreEqual(1, c3.CreateDisposition);
        var v2 = new PayloadBuilder(4).Ptr(0x11).Ptr(777).Ptr(0x22).U32(0x0100_0020).U32(0x80).U32(7).Utf16z("b").ToArray();
        Assert.IsTrue(FileIoCreate.TryDecode(SyntheticEvent.Kernel(KernelGroups.FileIo, FileIoTypes.Create, 2, v2, is64: false), out var c2));
        Assert.AreEqual(new FileIoCreate(0x11, 0x22, 777, 0x0100_0020, 0x80, 7, "b"), c2);
    }

    [TestMethod]
    public void FileIo_DirEnum_and_DirNotify_decode_v3_synthetic()
    {
        var payload = new PayloadBuilder().Ptr(0xA1).Ptr(0xB2).Ptr(0xC3).U32(4321).U32(65536).U32(37).U32(0).Utf16z("*.log").ToArray();
        Assert.IsTrue(FileIoDirEnum.TryDecode(SyntheticEvent.Kernel(KernelGroups.FileIo, FileIoTypes.DirEnum, 3, payload), out var d));
        Assert.AreEqual(new FileIoDirEnum(72, 0xA1, 0xB2, 0xC3, 4321, 65536, 37, 0, "*.log"), d);
        Assert.IsFalse(d.IsNotify);
        Assert.IsTrue(FileIoDirEnum.TryDecode(SyntheticEvent.Kernel(KernelGroups.FileIo, FileIoTypes.DirNotify, 3, payload), out var n));
        Assert.IsTrue(n.IsNotify);
        Assert.AreEqual(37U, n.InfoClass);
    }

    [TestMethod]
    public void FileIo_DirEnum_decodes_v2_with_pointer_sized_ttid_synthetic()
    {
        var payload = new PayloadBuilder().Ptr(0xA1).Ptr(99).Ptr(0xB2).Ptr(0xC3).U32(512).U32(3).U32(5).Utf16z("x*").ToArray();
        Assert.IsTrue(FileIoDirEnum.TryDecode(SyntheticEvent.Kernel(KernelGroups.FileIo, FileIoTypes.DirEnum, 2, payload), out var d));
        Assert.AreEqual(new FileIoDirEnum(72, 0xA1, 0xB2, 0xC3, 99, 512, 3, 5, "x*"), d);
    }

    [TestMethod]
    public void FileIo_operations_decode_v3_read_info_simple_and_end_synthetic()
    {
        var read = new PayloadBuilder().U64(4096).Ptr(0x1).Ptr(0x2).Ptr(0x3).U32(55).U32(512).U32(0x1).U32(0).ToArray();
        Assert.IsTrue(FileIoReadWrite.TryDecode(SyntheticEvent.Kernel(KernelGroups.FileIo, FileIoTypes.Read, 3, read), out var rw));
        Assert.AreEqual(new FileIoReadWrite(67, 4096, 1, 2, 3, 55, 512, 1, 0), rw);
        var info = new PayloadBuilder().Ptr(0x1).Ptr(0x2).Ptr(0x3).Ptr(1).U32(55).U32(13).ToArray();
        Assert.IsTrue(FileIoInfo.TryDecode(SyntheticEvent.Kernel(KernelGroups.FileIo, FileIoTypes.SetInfo, 3, info), out var fi));
        Assert.AreEqual(new FileIoInfo(69, 1, 2, 3, 1, 55, 13), fi);
        var simple = new PayloadBuilder().Ptr(0x1).Ptr(0x2).Ptr(0x3).U32(55).ToArray();
        Assert.IsTrue(FileIoSimpleOp.TryDecode(SyntheticEvent.Kernel(KernelGroups.FileIo, FileIoTypes.Close, 3, simple), out var so));
        Assert.AreEqual(new FileIoSimpleOp(66, 1, 2, 3, 55), so);
        var end = new PayloadBuilder().Ptr(0x1).Ptr(64).U32(FileIoTypes.StatusNotifyEnumDir).ToArray();
        Assert.IsTrue(FileIoOperationEnd.TryDecode(SyntheticEvent.Kernel(KernelGroups.FileIo, FileIoTypes.OperationEnd, 3, end), out var oe));
        Assert.AreEqual(new FileIoOperationEnd(1, 64, 0x10C), oe);
    }

    [TestMethod]
    public void Decoders_reject_other_events_and_payloads_too_short_for_their_keys_synthetic()
    {
        var tiny = new byte[3];
        Assert.IsFalse(FileIoDirEnum.TryDecode(SyntheticEvent.Kernel(KernelGroups.FileIo, FileIoTypes.DirEnum, 3, tiny), out _));
        Assert.IsFalse(SampledProfile.TryDecode(SyntheticEvent.Kernel(KernelGroups.PerfInfo, 46, 2, tiny), out _));
        Assert.IsFalse(ContextSwitch.TryDecode(SyntheticEvent.Kernel(KernelGroups.Thread, 50, 2, new byte[24]), out _));
        Assert.IsFalse(ProcessEvent.TryDecode(SyntheticEvent.Kernel(KernelGroups.Process, 1, 4, tiny), out _));
    }

    [TestMethod]
    public void Process_decoder_skips_a_sid_and_reads_both_strings_synthetic()
    {
        // v4, 64-bit: key, pid, ppid, session, exit, DTB, flags, TOKEN_USER (2 pointers) + SID S-1-5-18 (12 bytes).
        var payload = new PayloadBuilder().Ptr(0xFFFF_8000_0000_1000).U32(500).U32(4).U32(0).I32(259).Ptr(0x1AB000).U32(0)
            .Ptr(0xFFFF_8000_0000_2000).U64(0).Bytes(1, 1, 0, 0, 0, 0, 0, 5).U32(18)
            .Ansiz("svchost.exe").Utf16z("svchost.exe -k netsvcs").Utf16z("").Utf16z("").ToArray();
        Assert.IsTrue(ProcessEvent.TryDecode(SyntheticEvent.Kernel(KernelGroups.Process, ProcessEvent.DCStart, 4, payload), out var p));
        Assert.AreEqual(500, p.ProcessId);
        Assert.AreEqual("svchost.exe", p.ImageFileName);
        Assert.AreEqual("svchost.exe -k netsvcs", p.CommandLine);
        Assert.AreEqual(0x1AB000UL, p.DirectoryTableBase);
    }
}
