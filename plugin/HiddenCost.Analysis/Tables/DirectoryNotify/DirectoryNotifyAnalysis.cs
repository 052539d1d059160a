using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Etl;
using HiddenCost.Etl.Decoding.Kernel;

namespace HiddenCost.Analysis.Tables.DirectoryNotify;

/// <summary>
/// Feeds the Directory Notify tracker from the event stream: FileIo name events, DirNotify arms, their
/// OperationEnd completions, file changes (Create, Delete, Rename, SetInfo disposition/rename, Write),
/// Cleanup/Close of watch handles, and demand-zero page faults.
/// </summary>
public sealed class DirectoryNotifyAnalysis : ITraceAnalysis
{
    /// <summary>IRP_PAGING_IO in a FileIo Read/Write's IoFlags (wdm.h).</summary>
    private const uint IrpPagingIo = 0x0000_0002;

    /// <summary>FILE_DELETE_ON_CLOSE in a FileIo Create's CreateOptions (wdm.h).</summary>
    private const uint FileDeleteOnClose = 0x0000_1000;

    private const uint FileRenameInformation = 10, FileDispositionInformation = 13,
        FileDispositionInformationEx = 64, FileRenameInformationEx = 65;

    private readonly TraceSession _session;
    private readonly DirectoryNotifyTracker _tracker = new();
    private long _dirNotify, _operationEnd, _names, _demandZero;

    private readonly NotifyCpuSamples _notifyCpu;

    public DirectoryNotifyAnalysis(TraceSession session)
    {
        _session = session;
        _notifyCpu = new NotifyCpuSamples(session, _tracker);
    }

    /// <summary>
    /// Whether a write tells the directory's watchers of a change: paging writes (the lazy writer's and the mapped
    /// page writer's flushes, pagefile writes, all in System) report none; the process that wrote the data through
    /// the cache or a mapping did, when it wrote.
    /// </summary>
    internal static bool ReportsChange(in FileIoReadWrite write) => (write.IoFlags & IrpPagingIo) == 0;

    public IReadOnlyList<TableSpec> Tables { get; } = new[] { DirectoryNotifyTables.Buffers.Spec, DirectoryNotifyTables.Victims.Spec };

    public void OnEvent(in EtwEvent e)
    {
        if (!e.IsKernel) return;
        if (e.Group == KernelGroups.FileIo) OnFileIo(e);
        else if (e.Group == KernelGroups.PerfInfo) _notifyCpu.OnPerfInfo(e);
        else if (e.Group == KernelGroups.PageFault && e.Opcode == PageFault.DemandZeroFault)
        {
            _demandZero++;
            _tracker.DemandZero(e.TimeNs, _session.ProcessOfThread(e.ThreadId, e.TimeNs, e.ProcessId));
        }
    }

    private void OnFileIo(in EtwEvent e)
    {
        long t = e.TimeNs;
        switch (e.Opcode)
        {
            // FileDelete names a key as its file object goes: in memory mode, the only name of a watched directory
            // closed during the trace (a later rundown names whatever file reuses the key).
            case FileIoTypes.Name or FileIoTypes.FileCreate or FileIoTypes.FileDelete or FileIoTypes.FileRundown:
                if (FileIoName.TryRead(e, out ulong fileKey, out var fileName))
                {
                    _names++;
                    _tracker.FileName(fileKey, fileName, _session.Strings);
                }
                break;
            case FileIoTypes.DirNotify:
                if (FileIoDirEnum.TryDecode(e, out var notify, _session.Strings))
                {
                    _dirNotify++;
                    _tracker.Arm(t, notify.Irp, notify.FileObject, notify.FileKey,
                        _session.ProcessOfThread(notify.IssuingThreadId, t, e.ProcessId), notify.Length);
                }
                break;
            case FileIoTypes.OperationEnd:
                if (FileIoOperationEnd.TryDecode(e, out var end))
                {
                    _operationEnd++;
                    _tracker.OperationEnd(t, end.Irp, end.ExtraInfo, end.NtStatus);
                }
                break;
            case FileIoTypes.Create:
                if (FileIoCreate.TryDecode(e, out var create, _session.Strings))
                    _tracker.Create(t, create.Irp, create.FileObject, _session.ProcessOfThread(create.IssuingThreadId, t, e.ProcessId),
                        create.OpenPath, create.CreateDisposition, deleteOnClose: (create.CreateOptions & FileDeleteOnClose) != 0);
                break;
            case FileIoTypes.Delete or FileIoTypes.Rename or FileIoTypes.SetInfo:
                if (FileIoInfo.TryDecode(e, out var info) && ChangeOf(info) is { } kind)
                    _tracker.Change(t, kind, info.FileKey, _session.ProcessOfThread(info.IssuingThreadId, t, e.ProcessId));
                break;
            case FileIoTypes.Write:
                if (FileIoReadWrite.TryDecode(e, out var write) && ReportsChange(write))
                    _tracker.Change(t, FileChangeKind.Write, write.FileKey, _session.ProcessOfThread(write.IssuingThreadId, t, e.ProcessId));
                break;
            case FileIoTypes.Cleanup or FileIoTypes.Close:
                if (FileIoSimpleOp.TryDecode(e, out var op)) _tracker.Cleanup(t, op.FileObject);
                break;
        }
    }

    /// <summary>
    /// Delete and Rename events are changes; SetInfo only for the disposition and rename classes. A Delete event that
    /// carries the disposition class with DeleteFile FALSE (an undelete) is none, as the same SetInfo would not be.
    /// </summary>
    internal static FileChangeKind? ChangeOf(in FileIoInfo info) => info.Opcode switch
    {
        FileIoTypes.Delete => info.InfoClass switch
        {
            FileDispositionInformation when info.ExtraInfo == 0 => null,
            FileDispositionInformationEx when (info.ExtraInfo & 1) == 0 => null,
            _ => FileChangeKind.Delete,
        },
        FileIoTypes.Rename => FileChangeKind.Rename,
        _ => info.InfoClass switch
        {
            FileDispositionInformation when info.ExtraInfo != 0 => FileChangeKind.Delete,
            FileDispositionInformationEx when (info.ExtraInfo & 1) != 0 => FileChangeKind.Delete, // FILE_DISPOSITION_DELETE
            FileRenameInformation or FileRenameInformationEx => FileChangeKind.Rename,
            _ => null,
        },
    };

    public IReadOnlyList<Table> Complete(AnalysisContext context)
    {
        bool notifyCpuKnown = _notifyCpu.Complete();
        var (buffers, victims) = _tracker.Build(_session.Final, context.LastEventNs);
        DirectoryNotifyNotes.AddMissingEvents(buffers, victims, _dirNotify, _operationEnd, _names, _demandZero, notifyCpuKnown);
        if (!notifyCpuKnown && _session.Symbols.MissingNote("Kernel frames (for Notify CPU)") is { } missing) victims.AddNote(TableNote.Info("symbols.missing", missing));
        return new Table[] { buffers, victims };
    }
}
