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

    /// <summary>
    /// True when <see cref="TryDecode"/> decodes the event: it is of this kind and holds the fixed part; the file name after
    /// it is read leniently and never fails. Checks what TryDecode checks without reading (or interning) it.
    /// </summary>
    public static bool Fits(in EtwEvent e) => Matches(e) && e.Payload.Length >= e.PointerSize;

    public static bool TryDecode(in EtwEvent e, out FileIoName name, StringPool? strings = null)
    {
        name = default;
        if (!TryRead(e, out var fileKey, out var fileName)) return false;
        name = new FileIoName(e.Opcode, fileKey, fileName.IsEmpty ? "" : strings is null ? new string(fileName) : strings.Intern(fileName));
        return true;
    }

    /// <summary>
    /// The file key and name without making a string (the name is a view of the payload, valid while the event is),
    /// for callers that keep few of the names or only new ones; false when <see cref="TryDecode"/> is.
    /// </summary>
    public static bool TryRead(in EtwEvent e, out ulong fileKey, out ReadOnlySpan<char> fileName)
    {
        fileKey = 0;
        fileName = default;
        if (!Fits(e)) return false;
        fileKey = PayloadReader.Pointer(e.Payload, 0, e.PointerSize);
        int offset = e.PointerSize;
        fileName = PayloadStrings.Utf16Span(e.Payload, ref offset);
        return true;
    }
}
