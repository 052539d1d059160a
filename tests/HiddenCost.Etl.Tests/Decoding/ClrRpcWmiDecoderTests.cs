using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.Decoding.Rpc;
using HiddenCost.Etl.Decoding.Wmi;
using HiddenCost.Etl.Tests.Support;
using HiddenCost.TestSupport;

namespace HiddenCost.Etl.Tests.Decoding;

[TestClass]
public sealed class ClrRpcWmiDecoderTests
{
    [TestMethod]
    public void Clr_method_rundown_decodes_every_MethodDCEndVerbose_of_the_x64_sample()
    {
        var x64 = SampleScan.Of("perfview/net.4.5.2.x64.etl.zip");
        Assert.AreEqual(16_702, x64.Count("ClrMethod/DCEnd"));
        Assert.AreEqual(290, x64.Count("ClrMethod/Load"));
        Assert.AreEqual(288, x64.Count("ClrMethod/Unload"));
    }

    [TestMethod]
    public void MethodLoadVerbose_names_Test_Program_Main_with_its_code_range()
    {
        var main = SampleScan.Of("perfview/net.4.5.2.x64.etl.zip").MainMethods.First(m => m.Kind == ClrMethodEventKind.Load);
        Assert.AreEqual(0x7F95EB14F50UL, main.MethodStartAddress);
        Assert.AreEqual(358U, main.MethodSize);
        Assert.AreEqual("Test.Program", main.MethodNamespace);
        Assert.AreEqual("Main", main.MethodName);
        Assert.AreEqual("void  (class System.String[])", main.MethodSignature);
        Assert.AreEqual("Test.Program.Main", main.FullName);
        Assert.IsTrue(main.IsJitted);
    }

    [TestMethod]
    public void Method_view_reads_every_method_event_of_the_x64_sample_as_the_record_does_without_copying_names()
    {
        int methods = 0, named = 0;
        using var reader = EtlReader.Open(SharedFolder.EtlSample("perfview/net.4.5.2.x64.etl.zip"));
        foreach (var e in reader.ReadEvents())
        {
            if (!ClrMethodView.TryDecode(e, out var view)) continue;
            Assert.IsTrue(ClrMethod.TryDecode(e, out var record));
            methods++;
            if (view.MethodName.Length > 0) named++;
            Assert.AreEqual(record, view.ToRecord());
            Assert.AreEqual(record.MethodNamespace, view.MethodNamespace.ToString());
            Assert.AreEqual(record.MethodName, view.MethodName.ToString());
            Assert.AreEqual(record.MethodSignature, view.MethodSignature.ToString());
        }
        Assert.AreEqual(16_702 + 290 + 288, methods, "DCEnd, Load and Unload");
        Assert.AreEqual(methods, named);
    }

    [TestMethod]
    public void Method_view_of_a_record_cut_inside_its_names_keeps_what_is_there_synthetic()
    {
        var payload = new PayloadBuilder().U64(7).U64(8).U64(0x5000).U32(0x40).U32(0x06000001).U32(8)
            .Utf16z("Test.Program").Utf16z("Main").Utf16z("void  ()").U16(3).ToArray();
        var whole = SyntheticEvent.Manifest(ClrProviders.Runtime, 143, 1, payload, processId: 3, timestamp: 10);
        Assert.IsTrue(ClrMethodView.TryDecode(whole, out var view));
        Assert.AreEqual((ClrMethodEventKind.Load, 7UL, 8UL, 0x5000UL, 0x40U, 0x06000001U, 8U, (ushort)3, 0UL),
            (view.Kind, view.MethodId, view.ModuleId, view.MethodStartAddress, view.MethodSize, view.MethodToken, view.MethodFlags, view.ClrInstanceId, view.ReJitId));
        Assert.AreEqual("Test.Program.Main()", $"{view.MethodNamespace}.{view.MethodName}()");
        // Cut in the middle of the name: the namespace whole, the name up to the cut, no signature, no instance id.
        var cut = SyntheticEvent.Manifest(ClrProviders.Runtime, 143, 1, payload[..(36 + 26 + 4)], processId: 3, timestamp: 10);
        Assert.IsTrue(ClrMethodView.TryDecode(cut, out var partial));
        Assert.AreEqual("Test.Program", partial.MethodNamespace.ToString());
        Assert.AreEqual("Ma", partial.MethodName.ToString());
        Assert.IsTrue(partial.MethodSignature.IsEmpty);
        Assert.AreEqual((ushort)0, partial.ClrInstanceId);
        Assert.IsFalse(ClrMethodView.TryDecode(SyntheticEvent.Manifest(ClrProviders.Runtime, 143, 1, payload[..35], processId: 3, timestamp: 10), out _),
            "shorter than the fixed fields");
    }

    [TestMethod]
    public void Clr_module_rundown_v2_reads_paths_and_managed_pdb_identity()
    {
        var perfView = SampleScan.Of("perfview/net.4.5.2.x64.etl.zip").Modules.First(m => m.ModuleILPath.EndsWith("PerfView.exe", StringComparison.Ordinal));
        Assert.IsTrue(perfView.IsRundown);
        Assert.AreEqual(new Guid("b83167d1-3d5b-480d-914d-4605dfbb6add"), perfView.ManagedPdbSignature);
        Assert.AreEqual(1U, perfView.ManagedPdbAge);
        Assert.AreEqual(@"E:\A\_work\622\s\src\PerfView\obj\Release\net45\PerfView.pdb", perfView.ManagedPdbBuildPath);
    }

    [TestMethod]
    public void ContentionStart_decodes_v1_and_v2_with_record_sized_pointers_synthetic()
    {
        var v1 = SyntheticEvent.Manifest(ClrProviders.Runtime, 81, 1, new PayloadBuilder().U8(0).U16(9).ToArray());
        Assert.IsTrue(ClrContentionStart.TryDecode(v1, out var s1));
        Assert.AreEqual(new ClrContentionStart(1, 0, 9, 0, 0, 0), s1);
        var v2x86 = SyntheticEvent.Manifest(ClrProviders.Runtime, 81, 2,
            new PayloadBuilder(4).U8(1).U16(9).Ptr(0x1000).Ptr(0x2000).U64(77).ToArray(), is64: false);
        Assert.IsTrue(ClrContentionStart.TryDecode(v2x86, out var s2));
        Assert.AreEqual(new ClrContentionStart(2, 1, 9, 0x1000, 0x2000, 77), s2);
        Assert.IsTrue(s2.IsNative);
        Assert.IsFalse(ClrContentionStart.TryDecode(SyntheticEvent.Manifest(ClrProviders.Rundown, 81, 1, new byte[3]), out _));
    }

    [TestMethod]
    public void ContentionStop_has_a_duration_only_from_v1_synthetic()
    {
        Assert.IsTrue(ClrContentionStop.TryDecode(SyntheticEvent.Manifest(ClrProviders.Runtime, 91, 0, new PayloadBuilder().U8(0).U16(9).ToArray()), out var v0));
        Assert.IsNull(v0.DurationNs);
        Assert.IsTrue(ClrContentionStop.TryDecode(SyntheticEvent.Manifest(ClrProviders.Runtime, 91, 1, new PayloadBuilder().U8(0).U16(9).F64(1500.5).ToArray()), out var v1));
        Assert.AreEqual(1500.5, v1.DurationNs);
    }

    [TestMethod]
    public void Rpc_call_start_and_stop_decode_the_manifest_template_synthetic()
    {
        var even6 = new Guid("F6BEAFF7-1E19-4FBB-9F8F-B89E2018337C");
        var payload = new PayloadBuilder().Guid(even6).U32(9).U32(3).Utf16z("").Utf16z("eventlog").Utf16z("").U32(6).U32(10).U32(3).ToArray();
        Assert.IsTrue(RpcCallStart.TryDecode(SyntheticEvent.Manifest(RpcProvider.Id, RpcProvider.ServerCallStart, 1, payload), out var start));
        Assert.AreEqual(new RpcCallStart(true, even6, 9, 3, "", "eventlog", "", 6, 10, 3), start);
        Assert.IsTrue(RpcCallStop.TryDecode(SyntheticEvent.Manifest(RpcProvider.Id, RpcProvider.ClientCallStop, 1, new PayloadBuilder().U32(5).ToArray()), out var stop));
        Assert.AreEqual(new RpcCallStop(false, 5), stop);
    }

    [TestMethod]
    public void Wmi_operation_start_decodes_the_query_and_client_synthetic()
    {
        var payload = new PayloadBuilder().Utf16z("{ABC}").U32(1).U32(42)
            .Utf16z(@"Start IWbemServices::ExecQuery - root\cimv2 : select * from Win32_Process")
            .Utf16z("HOST").Utf16z("host.contoso.com").Utf16z(@"CONTOSO\alice").U32(4711).I64(132_000_000_000_000_000)
            .Utf16z(@"\\.\root\cimv2").U32(1).ToArray();
        Assert.IsTrue(WmiOperationStart.TryDecode(SyntheticEvent.Manifest(WmiActivityProvider.Id, 11, 0, payload), out var w));
        Assert.AreEqual(new WmiOperationStart("{ABC}", 1, 42, @"Start IWbemServices::ExecQuery - root\cimv2 : select * from Win32_Process",
            "HOST", "host.contoso.com", @"CONTOSO\alice", 4711, 132_000_000_000_000_000, @"\\.\root\cimv2", true), w);
        Assert.IsTrue(WmiOperationEnd.TryDecode(SyntheticEvent.Manifest(WmiActivityProvider.Id, 13, 0, new PayloadBuilder().U32(42).U32(0x80041010).ToArray()), out var end));
        Assert.AreEqual(new WmiOperationEnd(42, 0x80041010), end);
    }

    [TestMethod]
    public void Wmi_operation_start_says_remote_only_when_IsLocal_is_there_and_false_synthetic()
    {
        var head = new PayloadBuilder().Utf16z("{ABC}").U32(1).U32(42).Utf16z(@"Start IWbemServices::ExecQuery - root\cimv2 : select * from Win32_NTLogEvent")
            .Utf16z("MGMT01").Utf16z("mgmt01.contoso.com").Utf16z(@"CONTOSO\svc").U32(4711).I64(0).Utf16z(@"\\.\root\cimv2");
        var remote = head.U32(0).ToArray();
        Assert.IsTrue(WmiOperationStart.TryDecode(SyntheticEvent.Manifest(WmiActivityProvider.Id, 11, 0, remote), out var w));
        Assert.AreEqual(("MGMT01", 4711, false), (w.ClientMachine, w.ClientProcessId, w.IsLocal));
        Assert.IsTrue(WmiOperationStart.TryDecode(SyntheticEvent.Manifest(WmiActivityProvider.Id, 11, 0, remote[..^4]), out var cut));
        Assert.IsTrue(cut.IsLocal, "a record cut before IsLocal is taken as local");
    }

    [TestMethod]
    public void Wmi_provider_info_decodes_the_group_and_its_provider_host_synthetic()
    {
        var payload = new PayloadBuilder().U32(7).Utf16z("Provider::CreateInstanceEnum - Win32_NTLogEvent").U32(2468)
            .Utf16z("MS_NT_EVENTLOG_PROVIDER").Utf16z("{FD4F53E0-65DC-11D1-AB64-00C04FD9159E}").Utf16z(@"%systemroot%\system32\wbem\ntevt.dll").ToArray();
        Assert.IsTrue(WmiProviderInfo.TryDecode(SyntheticEvent.Manifest(WmiActivityProvider.Id, 12, 0, payload), out var info));
        Assert.AreEqual(new WmiProviderInfo(7, "Provider::CreateInstanceEnum - Win32_NTLogEvent", 2468, "MS_NT_EVENTLOG_PROVIDER",
            "{FD4F53E0-65DC-11D1-AB64-00C04FD9159E}", @"%systemroot%\system32\wbem\ntevt.dll"), info);
        Assert.IsFalse(WmiProviderInfo.TryDecode(SyntheticEvent.Manifest(WmiActivityProvider.Id, 11, 0, payload), out _));
    }
}
