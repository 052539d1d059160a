namespace HiddenCost.Etl.Decoding.Kernel;

/// <summary>
/// FileIo event types (group 0x04). Operation events have two layouts: v2 (TTID pointer-sized, second) and v3
/// (u32 IssuingThreadId after the pointers); the decoders branch on the record's version.
/// </summary>
public static class FileIoTypes
{
    public const byte Name = 0, FileCreate = 32, FileDelete = 35, FileRundown = 36,
        Create = 64, Cleanup = 65, Close = 66, Read = 67, Write = 68, SetInfo = 69, Delete = 70, Rename = 71,
        DirEnum = 72, Flush = 73, QueryInfo = 74, FsControl = 75, OperationEnd = 76, DirNotify = 77;

    /// <summary>STATUS_NOTIFY_ENUM_DIR: a directory-change notification overflowed; the caller must re-enumerate.</summary>
    public const uint StatusNotifyEnumDir = 0x0000_010C;

    internal static bool IsFileIo(in EtwEvent e, byte opcode) => e.Is(KernelGroups.FileIo, opcode);
}
