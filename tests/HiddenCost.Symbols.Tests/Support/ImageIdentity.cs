using System.Reflection.PortableExecutable;
using HiddenCost.Symbols.Resolution;

namespace HiddenCost.Symbols.Tests.Support;

/// <summary>The PDB an image names in its CodeView (RSDS) debug record, read with System.Reflection.Metadata: what a trace's DbgID_RSDS carries.</summary>
internal static class ImageIdentity
{
    public static PdbKey Of(string imagePath)
    {
        using var pe = new PEReader(File.OpenRead(imagePath));
        var codeView = pe.ReadDebugDirectory().First(d => d.Type == DebugDirectoryEntryType.CodeView);
        var data = pe.ReadCodeViewDebugDirectoryData(codeView);
        return new PdbKey(data.Path, data.Guid, (uint)data.Age);
    }

    public static PdbKey Native => Of(Fixtures.Path("native.exe"));
    public static PdbKey X86 => Of(Fixtures.Path("x86.exe"));
}
