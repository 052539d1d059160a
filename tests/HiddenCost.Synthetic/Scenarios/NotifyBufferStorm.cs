using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Model;

namespace HiddenCost.Synthetic.Scenarios;

/// <summary>Parameters of the notify buffer storm (issue 8; product.md table 3).</summary>
public sealed record NotifyBufferStormOptions
{
    /// <summary>Change batches by ingest.exe; each completes both watchers' pending DirNotify.</summary>
    public int Batches { get; init; } = 400;

    public int FilesPerBatch { get; init; } = 2;
    public double BatchPeriodUs { get; init; } = 600;

    /// <summary>SyncAgent.exe's ReadDirectoryChangesW buffer (the seed case: 2 MiB).</summary>
    public uint LargeBufferBytes { get; init; } = 2 * 1024 * 1024;

    /// <summary>explorer.exe's buffer on the same directory: right-sized, but overflows on bursts.</summary>
    public uint SmallBufferBytes { get; init; } = 16 * 1024;

    /// <summary>Batches (by index) in which ingest.exe churns <see cref="BurstFiles"/> files at once.</summary>
    public IReadOnlyList<int> BurstBatches { get; init; } = [120, 300];
    public int BurstFiles { get; init; } = 300;

    /// <summary>Demand-zero faults logged in the changing process while the kernel zeroes a large watcher's buffer.</summary>
    public int DemandZeroFaultsPerLargeCompletion { get; init; } = 8;

    /// <summary>Demand-zero faults logged per completion of a buffer of 64 KiB or less (0: none, as in the samples).</summary>
    public int DemandZeroFaultsPerSmallCompletion { get; init; }

    /// <summary>backup.exe renames a report file in every n-th batch.</summary>
    public int RenameEvery { get; init; } = 10;

    /// <summary>SearchProtocolHost.exe reads a file in every n-th batch period (reads only: not a victim).</summary>
    public int ReadEvery { get; init; } = 7;

    public int CpusNeeded => 4;
}

/// <summary>One row of Directory Notify Buffers (times in ns since the trace start).</summary>
/// <param name="Directory">NT path of the watched directory (the trace has no volume-to-drive mapping).</param>
/// <param name="Arms">DirNotify events (the last one is still pending at the end of the trace).</param>
/// <param name="Completions">OperationEnd events of those DirNotify IRPs, overflows included.</param>
/// <param name="Overflows">Completions with STATUS_NOTIFY_ENUM_DIR (0x10C), which return no bytes.</param>
/// <param name="BytesReturned">Σ OperationEnd ExtraInfo.</param>
/// <param name="MeanBytesPerCompletion">BytesReturned ÷ (Completions − Overflows).</param>
/// <param name="UtilisationPercent">MeanBytesPerCompletion ÷ BufferBytes × 100.</param>
/// <param name="BytesZeroed">Completions × BufferBytes.</param>
/// <param name="VictimProcesses">Processes other than the watcher that changed files in the directory while it was watched.</param>
/// <param name="RecommendationExpected">The buffer is above 64 KiB, returns far less and never overflowed.</param>
public sealed record WatcherTruth(
    string Process, int Pid, string Directory, uint BufferBytes, int Arms, int Completions, int Overflows,
    long BytesReturned, double MeanBytesPerCompletion, double UtilisationPercent, long BytesZeroed,
    IReadOnlyList<string> VictimProcesses, bool RecommendationExpected, long FirstArmNs, long LastCompletionNs);

/// <summary>One row of Directory Notify Victims.</summary>
/// <param name="FileOperations">The process's changes to files in the directory: Creates + Deletes + Renames + Writes (a Cleanup, Close or Read is not a change).</param>
/// <param name="Creates">Creates with a disposition that created the file.</param>
/// <param name="Deletes">Delete events plus SetInfo with a disposition information class.</param>
/// <param name="DemandZeroFaults">The process's DemandZero faults (all logged while the directory was watched).</param>
/// <param name="Watchers">Watcher rows on the directory.</param>
/// <param name="NotifyCpuMs">Null: the synthetic images have no symbols, so the notification path cannot be named.</param>
/// <param name="AllOperations">Every FileIo operation event of the process on files in the directory (Create, Read, Write, SetInfo, Delete, Rename, Cleanup, Close).</param>
public sealed record VictimTruth(
    string Process, int Pid, string Directory, int FileOperations, int Creates, int Deletes, int Renames, int Writes,
    int DemandZeroFaults, int Watchers, double? NotifyCpuMs, int AllOperations);

/// <summary>Ground truth of a notify buffer storm trace.</summary>
/// <param name="ReadOnlyProcess">SearchProtocolHost.exe: opens and reads files in the directory, must not be a victim.</param>
/// <param name="Directory">NT path of the watched directory.</param>
/// <param name="DosDirectory">The same through the trace's volume mapping (\Device\HarddiskVolume3\ → C:\).</param>
public sealed record NotifyBufferStormTruth(
    IReadOnlyList<WatcherTruth> Watchers, IReadOnlyList<VictimTruth> Victims, string ReadOnlyProcess, int ReadOnlyPid,
    string Directory, ulong DirectoryFileKey, string DosDirectory);

/// <summary>
/// Notify buffer storm (issue 8): SyncAgent.exe watches <c>\Device\HarddiskVolume3\Data\Inbox</c> with a 2 MiB
/// ReadDirectoryChangesW buffer and explorer.exe with 16 KiB; ingest.exe creates, writes and deletes files there in
/// batches, each completing both watches with a few hundred bytes (and, in the burst batches, overflowing the
/// 16 KiB one); backup.exe renames files; SearchProtocolHost.exe only reads.
/// </summary>
public sealed class NotifyBufferStorm
{
    public const string DirectoryPath = @"\Device\HarddiskVolume3\Data\Inbox";
    public const string DosDirectoryPath = @"C:\Data\Inbox";

    private readonly TraceBuilder _b;
    private readonly NotifyBufferStormOptions _o;
    private readonly ulong _dirKey;
    private readonly List<Watcher> _watchers = [];
    private readonly Dictionary<SyntheticProcess, VictimCounts> _ops = new(ReferenceEqualityComparer.Instance);
    private SyntheticProcess _reader = null!;

    private NotifyBufferStorm(TraceBuilder b, NotifyBufferStormOptions o, ulong dirKey)
    {
        _b = b;
        _o = o;
        _dirKey = dirKey;
    }

    private sealed class Watcher(SyntheticThread thread, int cpu, uint buffer, ulong fileObject, Activity activity)
    {
        public SyntheticThread Thread { get; } = thread;
        public int Cpu { get; } = cpu;
        public uint Buffer { get; } = buffer;
        public ulong FileObject { get; } = fileObject;
        public Activity Activity { get; } = activity;
        public ulong PendingIrp { get; set; }
        public int Arms { get; set; }
        public int Completions { get; set; }
        public int Overflows { get; set; }
        public long Bytes { get; set; }
        public long FirstArm { get; set; } = long.MaxValue;
        public long LastCompletion { get; set; }
    }

    private sealed class VictimCounts
    {
        public int Operations { get; set; }
        public int Creates { get; set; }
        public int Deletes { get; set; }
        public int Renames { get; set; }
        public int Writes { get; set; }
        public int DemandZero { get; set; }
        public bool Changed { get; set; }
    }

    public static ScenarioTrace<NotifyBufferStormTruth> Generate(NotifyBufferStormOptions? options = null, TraceBuilderSettings? settings = null)
    {
        var o = options ?? new NotifyBufferStormOptions();
        var b = new TraceBuilder(ScenarioSupport.WithCpus(settings, o.CpusNeeded, "notify-buffer-storm.etl"));
        var scenario = Plan(b, o, Enumerable.Range(0, o.CpusNeeded).ToArray());
        var trace = b.Build();
        return new ScenarioTrace<NotifyBufferStormTruth>(trace, scenario.Truth(trace));
    }

    public static NotifyBufferStorm Plan(TraceBuilder b, NotifyBufferStormOptions o, IReadOnlyList<int> cpus)
    {
        ScenarioSupport.RequireCpus(b, cpus, o.CpusNeeded, nameof(NotifyBufferStorm));
        var scenario = new NotifyBufferStorm(b, o, b.PoolAddress());
        scenario.Run(cpus);
        return scenario;
    }

    private (SyntheticProcess Process, SyntheticImage Exe, SystemDlls Dlls) App(string exe, string folder, string commandLine)
    {
        var p = _b.AddProcess(exe, commandLine);
        var image = _b.AddImage(p, @"\Device\HarddiskVolume3\" + folder + @"\" + exe, 0x6_0000);
        return (p, image, _b.AddSystemDlls(p));
    }

    private void Run(IReadOnlyList<int> cpus)
    {
        var b = _b;
        if (!b.KernelModules.Any(m => m.FileName == "Ntfs.sys")) b.AddKernelModule("Ntfs.sys", 0x2F_0000);
        var ntfs = b.KernelModules.First(m => m.FileName == "Ntfs.sys");
        var ingest = App("ingest.exe", @"Program Files\Contoso\Ingest", @"""C:\Program Files\Contoso\Ingest\ingest.exe"" --drop C:\Data\Inbox");
        var sync = App("SyncAgent.exe", @"Program Files\Contoso\SyncAgent", @"""C:\Program Files\Contoso\SyncAgent\SyncAgent.exe"" /background");
        var explorer = App("explorer.exe", @"Windows", @"C:\Windows\explorer.exe");
        var backup = App("backup.exe", @"Program Files\Contoso\Backup", @"""C:\Program Files\Contoso\Backup\backup.exe"" --rotate C:\Data\Inbox");
        var search = App("SearchProtocolHost.exe", @"Windows\System32",
            @"""C:\Windows\system32\SearchProtocolHost.exe"" Global\UsGthrFltPipeMssGthrPipe1_ Global\UsGthrCtrlFltPipeMssGthrPipe1 1 -2147483646 ""Software\Microsoft\Windows Search""");
        _reader = search.Process;

        var ingestThread = b.AddThread(ingest.Process, "drop worker");
        var backupThread = b.AddThread(backup.Process);
        var searchThread = b.AddThread(search.Process);
        ulong[] NotifyPath(ulong[] user) =>
            [b.Kernel.At(KernelFunctions.MemsetRva + 0x3A), b.Kernel.At(KernelFunctions.FsRtlNotifyFilterReportChangeLiteExRva + 0x2C4), ntfs.At(0x4_7A10), ntfs.At(0x3_1C88), .. user];
        ulong[] ingestUser = [ingest.Dlls.KernelBase.At(0x2_4410), ingest.Exe.At(0x1_4C20), ingest.Exe.At(0x1_1030), .. ingest.Dlls.ThreadStartFrames];
        var churn = new Activity("file churn", ingestUser, NotifyPath(ingestUser));
        var rotate = new Activity("rename", [backup.Exe.At(0x9A10), backup.Exe.At(0x8F00), .. backup.Dlls.ThreadStartFrames]);
        var read = new Activity("index read", [search.Exe.At(0x2_2F80), search.Exe.At(0x2_1000), .. search.Dlls.ThreadStartFrames]);

        _watchers.Add(new Watcher(b.AddThread(sync.Process, "change watcher"), cpus[1], _o.LargeBufferBytes, b.PoolAddress(),
            new Activity("re-arm", [sync.Exe.At(0x3_3A40), sync.Exe.At(0x3_1010), .. sync.Dlls.ThreadStartFrames])));
        _watchers.Add(new Watcher(b.AddThread(explorer.Process, "shell change notify"), cpus[2], _o.SmallBufferBytes, b.PoolAddress(),
            new Activity("re-arm", [explorer.Exe.At(0x4_1C00), explorer.Exe.At(0x4_0A10), .. explorer.Dlls.ThreadStartFrames])));
        // The directory's name arrives in the end rundown, as real traces log FileRundown for files still open.
        b.AtEndRundown(c => FileIoEvents.Name(c, FileIoEvents.FileRundownType, _dirKey, DirectoryPath));

        var t = b.At(0) + 20;
        foreach (var w in _watchers) Arm(w, t);
        t += b.Ticks(200);

        var fileNumber = 0;
        var reportNumber = 0;
        for (var batch = 0; batch < _o.Batches; batch++)
        {
            var files = _o.BurstBatches.Contains(batch) ? _o.BurstFiles : _o.FilesPerBatch;
            var batchStart = t;
            var cursor = batchStart + 2;
            var names = new List<(int Action, string Name)>();
            var segmentEnd = batchStart + b.Ticks(files * 60 + 40);
            b.Run(cpus[0], ingestThread, batchStart, segmentEnd, churn, SwitchOut.Wait(WaitReason.DelayExecution));
            for (var f = 0; f < files; f++)
                cursor = ChurnFile(ingestThread, cursor, $"inbox_{++fileNumber:D6}.tmp", names);

            if (_o.RenameEvery > 0 && batch % _o.RenameEvery == _o.RenameEvery - 1)
            {
                var name = $"report_{++reportNumber:D4}.csv";
                var renameStart = batchStart + b.Ticks(10);
                b.Run(cpus[3], backupThread, renameStart, renameStart + b.Ticks(40), rotate, SwitchOut.Wait(WaitReason.DelayExecution));
                RenameFile(backupThread, renameStart + 2, name, Path.ChangeExtension(name, ".bak"));
                names.Add((4, name));
                names.Add((5, Path.ChangeExtension(name, ".bak")));
            }

            // The kernel fills and completes both watchers' IRPs in the context of the process that changed the files.
            var bytes = NotifyBytes(names);
            cursor += 2;
            foreach (var w in _watchers) cursor = Complete(w, ingestThread, cursor, bytes, cpus[0]);
            if (cursor >= segmentEnd) throw new InvalidOperationException("batch events overran the ingest segment");

            var wake = segmentEnd + b.Ticks(20);
            foreach (var w in _watchers) Arm(w, wake);
            t = wake + b.Ticks(Math.Max(_o.BatchPeriodUs - (files * 60 + 40), 120));

            if (_o.ReadEvery > 0 && batch % _o.ReadEvery == 0)
            {
                var readStart = wake + b.Ticks(60);
                if (readStart + b.Ticks(40) < t)
                {
                    b.Run(cpus[3], searchThread, readStart, readStart + b.Ticks(40), read, SwitchOut.Wait(WaitReason.WrQueue));
                    ReadFile(searchThread, readStart + 2, $"report_{1 + batch % 50:D4}.csv");
                }
            }
        }
    }

    /// <summary>Create (new file), write, delete, cleanup, close: six operations, each with its completion.</summary>
    private long ChurnFile(SyntheticThread thread, long t, string name, List<(int Action, string Name)> notifications)
    {
        var b = _b;
        var f = Touch(thread, name);
        f.Counts.Changed = true;

        Open(f, t, FileIoValues.DispositionCreate, FileIoValues.FileNonDirectoryFile | FileIoValues.FileSynchronousIoNonAlert, 0x80, 0x7, FileIoValues.FileCreated);
        f.Counts.Creates++;
        notifications.Add((1, name));

        var irp = b.PoolAddress();
        b.Emit(FileIoEvents.ReadWrite(b.On(thread, t + 6), FileIoEvents.WriteType, 0, irp, f.FileObject, f.FileKey, f.Tid, 4096));
        b.Emit(FileIoEvents.OperationEnd(b.On(thread, t + 8), irp, 4096, FileIoValues.StatusSuccess));
        f.Counts.Operations++;
        f.Counts.Writes++;
        notifications.Add((3, name));

        irp = b.PoolAddress();
        var posix = (b.Random.NextUInt64() & 3) == 0;
        b.Emit(posix
            ? FileIoEvents.Info(b.On(thread, t + 10), FileIoEvents.SetInfoType, irp, f.FileObject, f.FileKey, 0x3, f.Tid, FileIoValues.FileDispositionInformationEx)
            : FileIoEvents.Info(b.On(thread, t + 10), FileIoEvents.DeleteType, irp, f.FileObject, f.FileKey, 1, f.Tid, FileIoValues.FileDispositionInformation));
        b.Emit(FileIoEvents.OperationEnd(b.On(thread, t + 12), irp, 0, FileIoValues.StatusSuccess));
        f.Counts.Operations++;
        f.Counts.Deletes++;

        CleanupAndClose(f, t + 14);
        t += 8;
        notifications.Add((2, name));
        b.Emit(FileIoEvents.Name(b.On(thread, t + 14), FileIoEvents.FileDeleteType, f.FileKey, f.Path));
        return t + b.Ticks(50);
    }

    private void RenameFile(SyntheticThread thread, long t, string name, string newName)
    {
        var b = _b;
        var f = Touch(thread, name);
        f.Counts.Changed = true;
        Open(f, t, FileIoValues.DispositionOpen, FileIoValues.FileNonDirectoryFile | FileIoValues.FileSynchronousIoNonAlert, 0, 0x7, FileIoValues.FileOpened);
        var irp = b.PoolAddress();
        b.Emit(FileIoEvents.Info(b.On(thread, t + 6), FileIoEvents.RenameType, irp, f.FileObject, f.FileKey, 0, f.Tid, FileIoValues.FileRenameInformation));
        b.Emit(FileIoEvents.OperationEnd(b.On(thread, t + 8), irp, 0, FileIoValues.StatusSuccess));
        f.Counts.Operations++;
        f.Counts.Renames++;
        CleanupAndClose(f, t + 10);
    }

    private void ReadFile(SyntheticThread thread, long t, string name)
    {
        var b = _b;
        var f = Touch(thread, name);
        Open(f, t, FileIoValues.DispositionOpen, FileIoValues.FileNonDirectoryFile, 0, 0x3, FileIoValues.FileOpened);
        var irp = b.PoolAddress();
        b.Emit(FileIoEvents.ReadWrite(b.On(thread, t + 6), FileIoEvents.ReadType, 0, irp, f.FileObject, f.FileKey, f.Tid, 8192));
        b.Emit(FileIoEvents.OperationEnd(b.On(thread, t + 8), irp, 8192, FileIoValues.StatusSuccess));
        f.Counts.Operations++;
        CleanupAndClose(f, t + 10);
    }

    /// <summary>A file a thread works on under the watched directory: its file object and key, and its process's counts.</summary>
    private readonly record struct TouchedFile(SyntheticThread Thread, string Path, ulong FileObject, ulong FileKey, uint Tid, VictimCounts Counts);

    private TouchedFile Touch(SyntheticThread thread, string name)
    {
        var path = DirectoryPath + @"\" + name;
        var fileObject = _b.PoolAddress();
        var fileKey = _b.PoolAddress();
        return new TouchedFile(thread, path, fileObject, fileKey, (uint)thread.Tid, Counts(thread.Process));
    }

    /// <summary>Create at <paramref name="t"/>, its completion, and the FileCreate name rundown: one operation.</summary>
    private void Open(in TouchedFile f, long t, uint disposition, uint options, uint attributes, uint share, ulong information)
    {
        var b = _b;
        var irp = b.PoolAddress();
        b.Emit(FileIoEvents.Create(b.On(f.Thread, t), irp, f.FileObject, f.Tid, FileIoValues.CreateOptions(disposition, options), attributes, share, f.Path));
        b.Emit(FileIoEvents.OperationEnd(b.On(f.Thread, t + 2), irp, information, FileIoValues.StatusSuccess));
        b.Emit(FileIoEvents.Name(b.On(f.Thread, t + 4), FileIoEvents.FileCreateType, f.FileKey, f.Path));
        f.Counts.Operations++;
    }

    /// <summary>Cleanup at <paramref name="t"/> and close 4 ticks later, each with its completion 2 ticks after it.</summary>
    private void CleanupAndClose(in TouchedFile f, long t)
    {
        var b = _b;
        foreach (var type in new[] { FileIoEvents.CleanupType, FileIoEvents.CloseType })
        {
            var irp = b.PoolAddress();
            b.Emit(FileIoEvents.SimpleOp(b.On(f.Thread, t), type, irp, f.FileObject, f.FileKey, f.Tid));
            b.Emit(FileIoEvents.OperationEnd(b.On(f.Thread, t + 2), irp, 0, FileIoValues.StatusSuccess));
            f.Counts.Operations++;
            t += 4;
        }
    }

    /// <summary>FILE_NOTIFY_INFORMATION records: 12-byte header + UTF-16 name, each but the last padded to 4 bytes.</summary>
    private static long NotifyBytes(List<(int Action, string Name)> names)
    {
        long total = 0;
        for (var i = 0; i < names.Count; i++)
        {
            var size = 12 + 2 * names[i].Name.Length;
            total += i + 1 < names.Count ? (size + 3) & ~3 : size;
        }
        return total;
    }

    private void Arm(Watcher w, long wake)
    {
        var b = _b;
        b.Run(w.Cpu, w.Thread, wake, wake + b.Ticks(34), w.Activity, SwitchOut.UserWait);
        var at = wake + b.Ticks(30);
        w.PendingIrp = b.PoolAddress();
        var filter = w.Buffer > 64 * 1024
            ? FileIoValues.NotifyChangeFileName | FileIoValues.NotifyChangeDirName | FileIoValues.NotifyChangeSize | FileIoValues.NotifyChangeLastWrite
            : FileIoValues.NotifyChangeFileName | FileIoValues.NotifyChangeDirName | FileIoValues.NotifyChangeAttributes | FileIoValues.NotifyChangeLastWrite;
        b.Emit(FileIoEvents.Directory(b.On(w.Thread, at), FileIoEvents.DirNotifyType, w.PendingIrp, w.FileObject, _dirKey, (uint)w.Thread.Tid, w.Buffer, filter, 0, ""));
        w.Arms++;
        w.FirstArm = Math.Min(w.FirstArm, at);
    }

    private long Complete(Watcher w, SyntheticThread changer, long t, long bytes, int changerCpu)
    {
        var b = _b;
        var overflow = bytes > w.Buffer;
        var faults = w.Buffer > 64 * 1024 ? _o.DemandZeroFaultsPerLargeCompletion : _o.DemandZeroFaultsPerSmallCompletion;
        if (faults > 0)
        {
            for (var i = 0; i < faults; i++)
            {
                var va = 0xFFFF_A70D_0000_0000UL + (ulong)(w.Completions * 0x20_0000) + (ulong)i * 0x4_0000;
                b.Emit(PageFaultEvents.DemandZero(b.On(changer, t), b.Settings.PointerSize == 8 ? va : 0x9800_0000UL + (ulong)i * 0x1000, b.Kernel.At(KernelFunctions.MemsetRva + 0x3A)));
                Counts(changer.Process).DemandZero++;
                t += 2;
            }
        }
        b.Emit(FileIoEvents.OperationEnd(b.On(changer, t), w.PendingIrp, overflow ? 0 : (ulong)bytes,
            overflow ? FileIoValues.StatusNotifyEnumDir : FileIoValues.StatusSuccess));
        b.Ready(changerCpu, t + 2, w.Thread);
        w.Completions++;
        if (overflow) w.Overflows++;
        else w.Bytes += bytes;
        w.LastCompletion = t;
        return t + 4;
    }

    private VictimCounts Counts(SyntheticProcess p)
    {
        if (!_ops.TryGetValue(p, out var c)) _ops[p] = c = new VictimCounts();
        return c;
    }

    public NotifyBufferStormTruth Truth(BuiltTrace trace)
    {
        var victims = _ops.Where(kv => kv.Value.Changed && _watchers.All(w => w.Thread.Process != kv.Key))
            .OrderBy(kv => kv.Key.Pid)
            .ToArray();
        var victimNames = victims.Select(v => v.Key.ImageName).ToArray();
        var watchers = _watchers.Select(w =>
        {
            var withData = w.Completions - w.Overflows;
            var mean = withData > 0 ? w.Bytes / (double)withData : 0;
            return new WatcherTruth(w.Thread.Process.ImageName, w.Thread.Process.Pid, DirectoryPath, w.Buffer, w.Arms, w.Completions, w.Overflows,
                w.Bytes, mean, mean / w.Buffer * 100, (long)w.Completions * w.Buffer, victimNames,
                w.Buffer > 64 * 1024 && w.Overflows == 0 && mean < w.Buffer / 16.0,
                trace.ToTraceNs(w.FirstArm), trace.ToTraceNs(w.LastCompletion));
        }).ToArray();
        var victimRows = victims.Select(kv => new VictimTruth(kv.Key.ImageName, kv.Key.Pid, DirectoryPath,
            kv.Value.Creates + kv.Value.Deletes + kv.Value.Renames + kv.Value.Writes, kv.Value.Creates,
            kv.Value.Deletes, kv.Value.Renames, kv.Value.Writes, kv.Value.DemandZero, _watchers.Count, null, kv.Value.Operations)).ToArray();
        return new NotifyBufferStormTruth(watchers, victimRows, _reader.ImageName, _reader.Pid, DirectoryPath, _dirKey, DosDirectoryPath);
    }
}
