using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Clr;

/// <summary>
/// ModuleLoad / ModuleUnload (runtime 152/153) and ModuleDCStart / ModuleDCEnd (rundown 153/154), v0–v2:
/// u64 ModuleID; u64 AssemblyID; u32 ModuleFlags; u32 Reserved1; UTF-16 ModuleILPath; UTF-16 ModuleNativePath;
/// (v1+) u16 ClrInstanceID; (v2+) GUID ManagedPdbSignature; u32 ManagedPdbAge; UTF-16 ManagedPdbBuildPath;
/// GUID NativePdbSignature; u32 NativePdbAge; UTF-16 NativePdbBuildPath.
/// </summary>
public readonly record struct ClrModule(
    ushort EventId,
    bool IsRundown,
    ulong ModuleId,
    ulong AssemblyId,
    uint ModuleFlags,
    string ModuleILPath,
    string ModuleNativePath,
    ushort ClrInstanceId,
    Guid ManagedPdbSignature,
    uint ManagedPdbAge,
    string ManagedPdbBuildPath,
    Guid NativePdbSignature,
    uint NativePdbAge,
    string NativePdbBuildPath)
{
    public bool IsUnload => !IsRundown && EventId == ClrProviders.ModuleUnloadId;

    public static bool Matches(in EtwEvent e) =>
        ClrProviders.IsRuntime(e, ClrProviders.ModuleLoadId) || ClrProviders.IsRuntime(e, ClrProviders.ModuleUnloadId) ||
        ClrProviders.IsRundown(e, ClrProviders.ModuleDCStartId) || ClrProviders.IsRundown(e, ClrProviders.ModuleDCEndId);

    public static bool TryDecode(in EtwEvent e, out ClrModule module, StringPool? strings = null)
    {
        module = default;
        if (!Matches(e)) return false;
        var p = e.Payload;
        if (p.Length < 24) return false;
        int offset = 24;
        string il = PayloadStrings.Utf16(p, ref offset, strings);
        string native = PayloadStrings.Utf16(p, ref offset, strings);
        ushort instance = 0;
        Guid managedSignature = Guid.Empty, nativeSignature = Guid.Empty;
        uint managedAge = 0, nativeAge = 0;
        string managedPdb = "", nativePdb = "";
        if (e.Version >= 1)
        {
            instance = PayloadReader.U16(p, offset);
            offset += 2;
        }
        if (e.Version >= 2)
        {
            managedSignature = PayloadReader.Guid(p, offset);
            managedAge = PayloadReader.U32(p, offset + 16);
            offset += 20;
            managedPdb = PayloadStrings.Utf16(p, ref offset, strings);
            nativeSignature = PayloadReader.Guid(p, offset);
            nativeAge = PayloadReader.U32(p, offset + 16);
            offset += 20;
            nativePdb = PayloadStrings.Utf16(p, ref offset, strings);
        }
        module = new ClrModule(e.EventId, e.ProviderId == ClrProviders.Rundown, PayloadReader.U64(p, 0), PayloadReader.U64(p, 8),
            PayloadReader.U32(p, 16), il, native, instance, managedSignature, managedAge, managedPdb, nativeSignature, nativeAge, nativePdb);
        return true;
    }
}
