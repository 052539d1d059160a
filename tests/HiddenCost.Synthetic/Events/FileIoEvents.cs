using HiddenCost.Synthetic.Etl;

namespace HiddenCost.Synthetic.Events;

/// <summary>
/// FileIo group (0x04), GUID 90cbdc39-4a3e-11d1-84f4-0000f80464e3. All PERFINFO headers: the samples log
/// FileCreate (32), FileDelete (35) and FileRundown (36) that way, WRK's WmipTraceFile logs the Name event through
/// WmiReserveWithPerfHeader, and the operation events carry their thread in the payload (TTID) because their
/// header has none (PerfView fills the thread from it). Name events are version 2 (samples); operation events
/// use the version 3 layouts of phnt ntwmi.h PERFINFO_FILE_* (event-payloads.md §5.7), the Win7+ form.
/// </summary>
public static class FileIoEvents
{
    public const byte NameType = 0;
    public const byte FileCreateType = 32;
    public const byte FileDeleteType = 35;
    public const byte FileRundownType = 36;
    public const byte CreateType = 64;
    public const byte CleanupType = 65;
    public const byte CloseType = 66;
    public const byte ReadType = 67;
    public const byte WriteType = 68;
    public const byte SetInfoType = 69;
    public const byte DeleteType = 70;
    public const byte RenameType = 71;
    public const byte DirEnumType = 72;
    public const byte FlushType = 73;
    public const byte QueryInfoType = 74;
    public const byte OperationEndType = 76;
    public const byte DirNotifyType = 77;

    private const ushort NameVersion = 2;
    private const ushort OperationVersion = 3;

    /// <summary>Name (0) / FileCreate (32) / FileDelete (35) / FileRundown (36): ptr FileObject (the file key); UTF-16 FileName (MS "FileIo_Name").</summary>
    public static KernelRecord Name(EventContext c, byte type, ulong fileKey, string ntPath)
    {
        if (type is not (NameType or FileCreateType or FileDeleteType or FileRundownType))
            throw new ArgumentException($"not a FileIo name type: {type}");
        return Event(c, type, NameVersion, new PayloadBuilder(c.PointerSize).Pointer(fileKey).WString(ntPath));
    }

    /// <summary>
    /// Create (64) v3: ptr Irp; ptr FileObject; u32 TTID; u32 CreateOptions (high byte = CreateDisposition);
    /// u32 FileAttributes; u32 ShareAccess; UTF-16 OpenPath.
    /// </summary>
    public static KernelRecord Create(EventContext c, ulong irp, ulong fileObject, uint threadId, uint createOptions, uint fileAttributes, uint shareAccess, string openPath)
    {
        var p = new PayloadBuilder(c.PointerSize).Pointer(irp).Pointer(fileObject).U32(threadId)
            .U32(createOptions).U32(fileAttributes).U32(shareAccess).WString(openPath);
        return Event(c, CreateType, OperationVersion, p);
    }

    /// <summary>Cleanup (65) / Close (66) / Flush (73) v3 ("SimpleOp"): ptr Irp; ptr FileObject; ptr FileKey; u32 TTID.</summary>
    public static KernelRecord SimpleOp(EventContext c, byte type, ulong irp, ulong fileObject, ulong fileKey, uint threadId)
    {
        if (type is not (CleanupType or CloseType or FlushType)) throw new ArgumentException($"not a FileIo simple op type: {type}");
        var p = new PayloadBuilder(c.PointerSize).Pointer(irp).Pointer(fileObject).Pointer(fileKey).U32(threadId);
        return Event(c, type, OperationVersion, p);
    }

    /// <summary>
    /// Read (67) / Write (68) v3: u64 Offset; ptr Irp; ptr FileObject; ptr FileKey; u32 TTID; u32 IoSize;
    /// u32 IoFlags; u32 ExtraFlags (48 bytes at p = 8).
    /// </summary>
    public static KernelRecord ReadWrite(EventContext c, byte type, ulong offset, ulong irp, ulong fileObject, ulong fileKey, uint threadId, uint ioSize, uint ioFlags = 0)
    {
        if (type is not (ReadType or WriteType)) throw new ArgumentException($"not a FileIo read/write type: {type}");
        var p = new PayloadBuilder(c.PointerSize).U64(offset).Pointer(irp).Pointer(fileObject).Pointer(fileKey)
            .U32(threadId).U32(ioSize).U32(ioFlags).U32(0);
        return Event(c, type, OperationVersion, p);
    }

    /// <summary>
    /// SetInfo (69) / Delete (70) / Rename (71) / QueryInfo (74) v3 ("Info"): ptr Irp; ptr FileObject; ptr FileKey;
    /// ptr ExtraInfo; u32 TTID; u32 InfoClass (FILE_INFORMATION_CLASS).
    /// </summary>
    public static KernelRecord Info(EventContext c, byte type, ulong irp, ulong fileObject, ulong fileKey, ulong extraInfo, uint threadId, uint infoClass)
    {
        if (type is not (SetInfoType or DeleteType or RenameType or QueryInfoType)) throw new ArgumentException($"not a FileIo info type: {type}");
        var p = new PayloadBuilder(c.PointerSize).Pointer(irp).Pointer(fileObject).Pointer(fileKey).Pointer(extraInfo)
            .U32(threadId).U32(infoClass);
        return Event(c, type, OperationVersion, p);
    }

    /// <summary>
    /// DirEnum (72) / DirNotify (77) v3: ptr Irp; ptr FileObject; ptr FileKey; u32 TTID; u32 Length (the caller's
    /// buffer); u32 InfoClass (for DirNotify: the notify filter); u32 FileIndex; UTF-16 FileName (pattern).
    /// </summary>
    public static KernelRecord Directory(EventContext c, byte type, ulong irp, ulong fileObject, ulong fileKey, uint threadId, uint length, uint infoClass, uint fileIndex, string fileName)
    {
        if (type is not (DirEnumType or DirNotifyType)) throw new ArgumentException($"not a FileIo directory type: {type}");
        var p = new PayloadBuilder(c.PointerSize).Pointer(irp).Pointer(fileObject).Pointer(fileKey)
            .U32(threadId).U32(length).U32(infoClass).U32(fileIndex).WString(fileName);
        return Event(c, type, OperationVersion, p);
    }

    /// <summary>OperationEnd (76): ptr Irp; ptr ExtraInfo (bytes transferred / information); u32 NtStatus (MS "FileIo_OpEnd").</summary>
    public static KernelRecord OperationEnd(EventContext c, ulong irp, ulong extraInfo, uint ntStatus)
    {
        var p = new PayloadBuilder(c.PointerSize).Pointer(irp).Pointer(extraInfo).U32(ntStatus);
        return Event(c, OperationEndType, OperationVersion, p);
    }

    private static KernelRecord Event(EventContext c, byte type, ushort version, PayloadBuilder p) =>
        PerfInfoEvents.KernelEvent(c, RecordKind.PerfInfo, KernelGroup.FileIo, type, version, p);
}

/// <summary>Values used in FileIo payloads.</summary>
public static class FileIoValues
{
    public const uint DispositionOpen = 1;
    public const uint DispositionCreate = 2;
    public const uint DispositionOpenIf = 3;

    public const uint FileDirectoryFile = 0x1;
    public const uint FileSynchronousIoNonAlert = 0x20;
    public const uint FileNonDirectoryFile = 0x40;

    public const uint FileRenameInformation = 10;
    public const uint FileDispositionInformation = 13;
    public const uint FileEndOfFileInformation = 20;
    public const uint FileDispositionInformationEx = 64;

    public const uint StatusSuccess = 0;
    public const uint StatusNotifyEnumDir = 0x0000010C;

    /// <summary>IO_STATUS_BLOCK.Information of a Create that created the file.</summary>
    public const ulong FileCreated = 2;
    public const ulong FileOpened = 1;

    public const uint NotifyChangeFileName = 0x1;
    public const uint NotifyChangeDirName = 0x2;
    public const uint NotifyChangeAttributes = 0x4;
    public const uint NotifyChangeSize = 0x8;
    public const uint NotifyChangeLastWrite = 0x10;

    /// <summary>CreateOptions field: disposition in the high byte, options in the low 24 bits.</summary>
    public static uint CreateOptions(uint disposition, uint options) => (disposition << 24) | (options & 0x00FF_FFFF);
}
