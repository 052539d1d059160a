using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Kernel;

/// <summary>
/// FileIo Name (0), FileCreate (32), FileDelete (35), FileRundown (36): ptr FileObject (the FileKey later
/// operations carry); UTF-16 FileName (an NT path). They name a FileKey; FileDelete ends the name.
/// </summary>
public readonly record struct FileIoName(byte Opcode, ulong FileKey, string FileName)
{
    public static bool Matches(in EtwEvent e) =>
        e.IsKernel && e.Group == KernelGroups.FileIo &&
        e.Opcode is FileIoTypes.Name or FileIoTypes.FileCreate or FileIoTypes.FileDelete or FileIoTypes.FileRundown;

    public static bool TryDecode(in EtwEvent e, out FileIoName name, StringPool? strings = null)
    {
        name = default;
        if (!Matches(e) || e.Payload.Length < e.PointerSize) return false;
        int offset = e.PointerSize;
        name = new FileIoName(e.Opcode, PayloadReader.Pointer(e.Payload, 0, e.PointerSize),
            PayloadStrings.Utf16(e.Payload, ref offset, strings));
        return true;
    }
}
