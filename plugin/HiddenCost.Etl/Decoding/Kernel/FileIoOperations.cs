using HiddenCost.Etl.Reading;

namespace HiddenCost.Etl.Decoding.Kernel;

/// <summary>
/// FileIo Cleanup (65), Close (66), Flush (73). v2: ptr Irp; ptr TTID; ptr FileObject; ptr FileKey.
/// v3: ptr Irp; ptr FileObject; ptr FileKey; u32 IssuingThreadId.
/// </summary>
public readonly record struct FileIoSimpleOp(byte Opcode, ulong Irp, ulong FileObject, ulong FileKey, int IssuingThreadId)
{
    public static bool Matches(in EtwEvent e) =>
        e.IsKernel && e.Group == KernelGroups.FileIo && e.Opcode is FileIoTypes.Cleanup or FileIoTypes.Close or FileIoTypes.Flush;

    public static bool TryDecode(in EtwEvent e, out FileIoSimpleOp op)
    {
        op = default;
        if (!Matches(e)) return false;
        var p = e.Payload;
        int ptr = e.PointerSize;
        if (p.Length < 3 * ptr) return false;
        op = e.Version <= 2
            ? new FileIoSimpleOp(e.Opcode, PayloadReader.Pointer(p, 0, ptr), PayloadReader.Pointer(p, 2 * ptr, ptr),
                PayloadReader.Pointer(p, 3 * ptr, ptr), (int)PayloadReader.Pointer(p, ptr, ptr))
            : new FileIoSimpleOp(e.Opcode, PayloadReader.Pointer(p, 0, ptr), PayloadReader.Pointer(p, ptr, ptr),
                PayloadReader.Pointer(p, 2 * ptr, ptr), PayloadReader.I32(p, 3 * ptr));
        return true;
    }
}

/// <summary>
/// FileIo Read (67) / Write (68). v2: u64 Offset; ptr Irp; ptr TTID; ptr FileObject; ptr FileKey; u32 IoSize;
/// u32 IoFlags. v3: u64 Offset; ptr Irp; ptr FileObject; ptr FileKey; u32 IssuingThreadId; u32 IoSize;
/// u32 IoFlags; u32 ExtraFlags.
/// </summary>
public readonly record struct FileIoReadWrite(
    byte Opcode, ulong Offset, ulong Irp, ulong FileObject, ulong FileKey, int IssuingThreadId, uint IoSize, uint IoFlags, uint ExtraFlags)
{
    public bool IsWrite => Opcode == FileIoTypes.Write;

    public static bool Matches(in EtwEvent e) =>
        e.IsKernel && e.Group == KernelGroups.FileIo && e.Opcode is FileIoTypes.Read or FileIoTypes.Write;

    public static bool TryDecode(in EtwEvent e, out FileIoReadWrite io)
    {
        io = default;
        if (!Matches(e)) return false;
        var p = e.Payload;
        int ptr = e.PointerSize;
        if (p.Length < 8 + 3 * ptr) return false;
        int irp = 8;
        io = e.Version <= 2
            ? new FileIoReadWrite(e.Opcode, PayloadReader.U64(p, 0), PayloadReader.Pointer(p, irp, ptr),
                PayloadReader.Pointer(p, irp + 2 * ptr, ptr), PayloadReader.Pointer(p, irp + 3 * ptr, ptr),
                (int)PayloadReader.Pointer(p, irp + ptr, ptr), PayloadReader.U32(p, irp + 4 * ptr), PayloadReader.U32(p, irp + 4 * ptr + 4), 0)
            : new FileIoReadWrite(e.Opcode, PayloadReader.U64(p, 0), PayloadReader.Pointer(p, irp, ptr),
                PayloadReader.Pointer(p, irp + ptr, ptr), PayloadReader.Pointer(p, irp + 2 * ptr, ptr),
                PayloadReader.I32(p, irp + 3 * ptr), PayloadReader.U32(p, irp + 3 * ptr + 4), PayloadReader.U32(p, irp + 3 * ptr + 8),
                PayloadReader.U32(p, irp + 3 * ptr + 12));
        return true;
    }
}

/// <summary>
/// FileIo SetInfo (69), Delete (70), Rename (71), QueryInfo (74), FSControl (75).
/// v2: ptr Irp; ptr TTID; ptr FileObject; ptr FileKey; ptr ExtraInfo; u32 InfoClass.
/// v3: ptr Irp; ptr FileObject; ptr FileKey; ptr ExtraInfo; u32 IssuingThreadId; u32 InfoClass.
/// InfoClass is a FILE_INFORMATION_CLASS (the FSCTL code for FSControl).
/// </summary>
public readonly record struct FileIoInfo(byte Opcode, ulong Irp, ulong FileObject, ulong FileKey, ulong ExtraInfo, int IssuingThreadId, uint InfoClass)
{
    public static bool Matches(in EtwEvent e) =>
        e.IsKernel && e.Group == KernelGroups.FileIo &&
        e.Opcode is FileIoTypes.SetInfo or FileIoTypes.Delete or FileIoTypes.Rename or FileIoTypes.QueryInfo or FileIoTypes.FsControl;

    public static bool TryDecode(in EtwEvent e, out FileIoInfo info)
    {
        info = default;
        if (!Matches(e)) return false;
        var p = e.Payload;
        int ptr = e.PointerSize;
        if (p.Length < 3 * ptr) return false;
        info = e.Version <= 2
            ? new FileIoInfo(e.Opcode, PayloadReader.Pointer(p, 0, ptr), PayloadReader.Pointer(p, 2 * ptr, ptr),
                PayloadReader.Pointer(p, 3 * ptr, ptr), PayloadReader.Pointer(p, 4 * ptr, ptr),
                (int)PayloadReader.Pointer(p, ptr, ptr), PayloadReader.U32(p, 5 * ptr))
            : new FileIoInfo(e.Opcode, PayloadReader.Pointer(p, 0, ptr), PayloadReader.Pointer(p, ptr, ptr),
                PayloadReader.Pointer(p, 2 * ptr, ptr), PayloadReader.Pointer(p, 3 * ptr, ptr),
                PayloadReader.I32(p, 4 * ptr), PayloadReader.U32(p, 4 * ptr + 4));
        return true;
    }
}

/// <summary>
/// FileIo DirEnum (72) / DirNotify (77). v2: ptr Irp; ptr TTID; ptr FileObject; ptr FileKey; u32 Length;
/// u32 InfoClass; u32 FileIndex; UTF-16 FileName. v3: ptr Irp; ptr FileObject; ptr FileKey;
/// u32 IssuingThreadId; u32 Length; u32 InfoClass; u32 FileIndex; UTF-16 FileName.
/// For DirEnum FileName is the search pattern; for DirNotify InfoClass carries the notify filter.
/// </summary>
public readonly record struct FileIoDirEnum(
    byte Opcode, ulong Irp, ulong FileObject, ulong FileKey, int IssuingThreadId, uint Length, uint InfoClass, uint FileIndex, string FileName)
{
    public bool IsNotify => Opcode == FileIoTypes.DirNotify;

    public static bool Matches(in EtwEvent e) =>
        e.IsKernel && e.Group == KernelGroups.FileIo && e.Opcode is FileIoTypes.DirEnum or FileIoTypes.DirNotify;

    public static bool TryDecode(in EtwEvent e, out FileIoDirEnum dir, StringPool? strings = null)
    {
        dir = default;
        if (!Matches(e)) return false;
        var p = e.Payload;
        int ptr = e.PointerSize;
        if (p.Length < 3 * ptr) return false;
        bool v2 = e.Version <= 2;
        int length = v2 ? 4 * ptr : 3 * ptr + 4;
        int name = length + 12;
        dir = new FileIoDirEnum(e.Opcode, PayloadReader.Pointer(p, 0, ptr),
            PayloadReader.Pointer(p, v2 ? 2 * ptr : ptr, ptr), PayloadReader.Pointer(p, v2 ? 3 * ptr : 2 * ptr, ptr),
            v2 ? (int)PayloadReader.Pointer(p, ptr, ptr) : PayloadReader.I32(p, 3 * ptr),
            PayloadReader.U32(p, length), PayloadReader.U32(p, length + 4), PayloadReader.U32(p, length + 8),
            PayloadStrings.Utf16(p, ref name, strings));
        return true;
    }
}

/// <summary>FileIo OperationEnd (76): ptr Irp; ptr ExtraInfo; u32 NtStatus. Completes the operation with the same Irp.</summary>
public readonly record struct FileIoOperationEnd(ulong Irp, ulong ExtraInfo, uint NtStatus)
{
    public static bool Matches(in EtwEvent e) => FileIoTypes.IsFileIo(e, FileIoTypes.OperationEnd);

    public static bool TryDecode(in EtwEvent e, out FileIoOperationEnd end)
    {
        end = default;
        if (!Matches(e)) return false;
        var p = e.Payload;
        int ptr = e.PointerSize;
        if (p.Length < 2 * ptr) return false;
        end = new FileIoOperationEnd(PayloadReader.Pointer(p, 0, ptr), PayloadReader.Pointer(p, ptr, ptr), PayloadReader.U32(p, 2 * ptr));
        return true;
    }
}
