using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Kernel;

/// <summary>
/// FileIo Create (64). v2: ptr Irp; ptr TTID; ptr FileObject; u32 CreateOptions; u32 FileAttributes;
/// u32 ShareAccess; UTF-16 OpenPath. v3: ptr Irp; ptr FileObject; u32 IssuingThreadId; then the same.
/// CreateOptions' high byte is the CreateDisposition. Create carries FileObject, not FileKey.
/// </summary>
public readonly record struct FileIoCreate(
    ulong Irp,
    ulong FileObject,
    int IssuingThreadId,
    uint CreateOptions,
    uint FileAttributes,
    uint ShareAccess,
    string OpenPath)
{
    /// <summary>0 Supersede, 1 Open, 2 Create, 3 OpenIf, 4 Overwrite, 5 OverwriteIf.</summary>
    public int CreateDisposition => (int)(CreateOptions >> 24);

    public static bool Matches(in EtwEvent e) => FileIoTypes.IsFileIo(e, FileIoTypes.Create);

    public static bool TryDecode(in EtwEvent e, out FileIoCreate create, StringPool? strings = null)
    {
        create = default;
        if (!Matches(e)) return false;
        var p = e.Payload;
        int ptr = e.PointerSize;
        bool v2 = e.Version <= 2;
        int options = v2 ? 3 * ptr : 2 * ptr + 4;
        if (p.Length < options) return false;
        int path = options + 12;
        create = new FileIoCreate(PayloadReader.Pointer(p, 0, ptr),
            PayloadReader.Pointer(p, v2 ? 2 * ptr : ptr, ptr),
            v2 ? (int)PayloadReader.Pointer(p, ptr, ptr) : PayloadReader.I32(p, 2 * ptr),
            PayloadReader.U32(p, options), PayloadReader.U32(p, options + 4), PayloadReader.U32(p, options + 8),
            PayloadStrings.Utf16(p, ref path, strings));
        return true;
    }
}
