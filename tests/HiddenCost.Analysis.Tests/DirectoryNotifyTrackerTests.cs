using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.DirectoryNotify;

namespace HiddenCost.Analysis.Tests;

/// <summary>The Directory Notify analysis fed decoded facts directly (no ETW bytes), one behaviour per test.</summary>
[TestClass]
public sealed class DirectoryNotifyTrackerTests
{
    private const string Dir = @"\Device\HarddiskVolume3\Build\out";
    private const ulong DirKey = 0xFFFF_A000_0000_1000, DirObject = 0xFFFF_B000_0000_1000;
    private static readonly ProcessRef Watcher = new(100, 0, "watcher.exe");
    private static readonly ProcessRef Builder = new(200, 0, "builder.exe");
    private static readonly ProcessRef Reader = new(300, 0, "reader.exe");
    private const long TwoMiB = 2 * 1024 * 1024;

    /// <summary>The watcher arms, the builder creates and deletes <paramref name="batches"/> files, each change batch completes with 300 bytes.</summary>
    private static DirectoryNotifyTracker Storm(int batches, long buffer = TwoMiB)
    {
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        ulong irp = 0x1000;
        long now = 1_000;
        t.Arm(now, irp, DirObject, DirKey, Watcher, buffer);
        for (int i = 0; i < batches; i++)
        {
            ulong fileKey = 0x5000 + (ulong)i;
            t.Create(now += 10, 0x9000 + (ulong)i, 0x7000 + (ulong)i, Builder, $@"{Dir}\f{i}.obj", disposition: 2);
            t.OperationEnd(now += 10, 0x9000 + (ulong)i, 2, 0);
            t.FileName(fileKey, $@"{Dir}\f{i}.obj");
            t.DemandZero(now += 1, Builder);
            t.Change(now += 10, FileChangeKind.Delete, fileKey, Builder);
            t.OperationEnd(now += 10, irp, 300, 0);
            t.Arm(now += 10, ++irp, DirObject, DirKey, Watcher, buffer);
        }
        return t;
    }

    [TestMethod]
    public void Two_MiB_watcher_shows_completions_bytes_zeroed_utilisation_and_a_recommendation()
    {
        var (buffers, victims) = Storm(100).Build();
        Assert.AreEqual(1, buffers.Rows.Count);
        Assert.AreEqual("watcher.exe", buffers.Rows[0].Process);
        Assert.AreEqual(Dir, buffers.Rows[0].Directory);
        Assert.AreEqual(TwoMiB, buffers.Rows[0].BufferBytes);
        Assert.AreEqual(101L, buffers.Rows[0].Arms);
        Assert.AreEqual(100L, buffers.Rows[0].Completions);
        Assert.AreEqual(0L, buffers.Rows[0].Overflows);
        Assert.AreEqual(30_000L, buffers.Rows[0].BytesReturned);
        Assert.AreEqual(300.0, buffers.Rows[0].MeanBytesPerCompletion);
        Assert.AreEqual(300.0 / TwoMiB * 100, (double)buffers.Rows[0].UtilisationPercent!, 1e-12);
        Assert.AreEqual(100 * TwoMiB, buffers.Rows[0].BytesZeroed);
        Assert.AreEqual("builder.exe (200)", buffers.Rows[0].VictimProcesses);
        Assert.AreEqual(4096L, buffers.Rows[0].RecommendedBufferBytes);
        Assert.AreEqual(1_000L, buffers.Rows[0].FirstArm);

        Assert.AreEqual(1, victims.Rows.Count);
        Assert.AreEqual("builder.exe", victims.Rows[0].Process);
        Assert.AreEqual(200L, victims.Rows[0].FileOperations);
        Assert.AreEqual(100L, victims.Rows[0].Creates);
        Assert.AreEqual(100L, victims.Rows[0].Deletes);
        Assert.AreEqual(0L, victims.Rows[0].Renames);
        Assert.AreEqual(100L, victims.Rows[0].DemandZeroFaults);
        Assert.AreEqual(1L, victims.Rows[0].Watchers);
        Assert.IsNull(victims.Rows[0].NotifyCpuMs);
    }

    [TestMethod]
    public void Building_the_tables_again_gives_the_same_tables()
    {
        var t = Storm(10);
        string Render((Table<NotifyBufferRow> Buffers, Table<NotifyVictimRow> Victims) tables) =>
            string.Join("\n", tables.Buffers.Rows.Select(r => r.ToString()).Concat(tables.Victims.Rows.Select(r => r.ToString())));
        var first = Render(t.Build());
        Assert.AreEqual(first, Render(t.Build()));
        StringAssert.Contains(first, "builder.exe");
    }

    [TestMethod]
    public void Right_sized_16_KiB_watcher_gets_no_recommendation()
    {
        var (buffers, _) = Storm(10, buffer: 16 * 1024).Build();
        Assert.IsNull(buffers.Rows[0].RecommendedBufferBytes);
    }

    [TestMethod]
    public void Watcher_that_overflowed_is_never_told_to_shrink()
    {
        var t = Storm(10);
        t.OperationEnd(10_000_000, 0x1000 + 10, 0, 0x10C);
        var (buffers, _) = t.Build();
        Assert.AreEqual(11L, buffers.Rows[0].Completions);
        Assert.AreEqual(1L, buffers.Rows[0].Overflows);
        Assert.AreEqual(300.0, buffers.Rows[0].MeanBytesPerCompletion, "overflow completions return no data and are left out of the mean");
        Assert.AreEqual(11 * TwoMiB, buffers.Rows[0].BytesZeroed);
        Assert.IsNull(buffers.Rows[0].RecommendedBufferBytes);
    }

    [TestMethod]
    public void Directory_without_a_name_event_is_shown_by_its_file_key()
    {
        var t = new DirectoryNotifyTracker();
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.OperationEnd(20, 1, 100, 0);
        var (buffers, _) = t.Build();
        Assert.AreEqual("FileKey 0xFFFFA00000001000", buffers.Rows[0].Directory);
        Assert.AreEqual(1L, buffers.Rows[0].Completions);
    }

    [TestMethod]
    public void Unnamed_watched_directory_says_its_victims_cannot_be_placed()
    {
        var t = new DirectoryNotifyTracker();
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Create(20, 0, 0x70, Builder, $@"{Dir}\a", 2);
        t.OperationEnd(30, 1, 100, 0);
        var (buffers, victims) = t.Build();
        Assert.AreEqual(0, victims.Rows.Count);
        Assert.IsTrue(victims.Notes.Texts().Any(n => n.StartsWith("1 watched directories were never named", StringComparison.Ordinal)), string.Join(" | ", victims.Notes.Texts()));
        Assert.IsTrue(buffers.Notes.Texts().Any(n => n.Contains("never named", StringComparison.Ordinal)));
    }

    [TestMethod]
    public void Completion_larger_than_the_buffer_is_a_reused_irp_and_not_counted()
    {
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        t.Arm(10, 1, DirObject, DirKey, Watcher, 64 * 1024);              // its completion is lost
        t.OperationEnd(30, 1, 1_048_576, 0);                               // a 1 MiB read that reused the IRP
        var (buffers, _) = t.Build();
        Assert.AreEqual(0L, buffers.Rows[0].Completions);
        Assert.AreEqual(0L, buffers.Rows[0].BytesReturned);
        Assert.IsTrue(buffers.Notes.Texts().Any(n => n.StartsWith("1 completions returned more bytes", StringComparison.Ordinal)));
    }

    [TestMethod]
    public void Watched_directory_keeps_its_name_when_its_key_is_named_again_later()
    {
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Create(20, 0, 0x70, Builder, $@"{Dir}\a", 2);
        t.OperationEnd(30, 1, 100, 0);
        t.Cleanup(40, DirObject);
        t.FileName(DirKey, @"\Device\HarddiskVolume3\Temp\x.txt");     // the key reused after the watch ended
        var (buffers, victims) = t.Build();
        Assert.AreEqual(Dir, buffers.Rows[0].Directory);
        Assert.AreEqual(Dir, victims.Rows[0].Directory);
        Assert.AreEqual(1L, victims.Rows[0].Creates);
    }

    [TestMethod]
    public void Watcher_that_changes_files_is_a_victim_of_the_other_watcher_but_not_of_itself()
    {
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        var small = new ProcessRef(400, 0, "sync.exe");
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Arm(11, 2, DirObject + 8, DirKey, small, 4096);
        for (int i = 0; i < 5; i++) t.Create(20 + i, 0, 0x70 + (ulong)i, small, $@"{Dir}\f{i}", 2);
        t.OperationEnd(30, 1, 100, 0);
        t.OperationEnd(31, 2, 100, 0);
        var (buffers, victims) = t.Build();
        Assert.AreEqual(1, victims.Rows.Count);
        Assert.AreEqual("sync.exe", victims.Rows[0].Process);
        Assert.AreEqual(5L, victims.Rows[0].Creates);
        int big = buffers.Rows.ToList().FindIndex(r => r.Process == "watcher.exe");
        Assert.AreEqual("sync.exe (400)", buffers.Rows[big].VictimProcesses);
        Assert.AreEqual("", buffers.Rows[1 - big].VictimProcesses, "not a victim of its own buffer");
    }

    [TestMethod]
    public void Changes_a_watcher_makes_while_only_it_watches_are_not_victims_even_if_another_watches_later()
    {
        // watcher.exe writes into its own directory while alone; a restarted instance watches it later, when nothing
        // changes: nobody was anybody's victim. (Live, and placed at the end: the directory named only by rundown.)
        foreach (bool nameFirst in new[] { true, false })
        {
            var t = new DirectoryNotifyTracker();
            if (nameFirst) t.FileName(DirKey, Dir);
            var restarted = new ProcessRef(101, 5_000, "watcher.exe");
            t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
            for (int i = 0; i < 5; i++) t.Create(20 + i, 0, 0x70 + (ulong)i, Watcher, $@"{Dir}\f{i}", 2);
            for (int i = 0; i < 3; i++) t.DemandZero(30 + i, Watcher);
            t.OperationEnd(40, 1, 100, 0);
            t.Cleanup(50, DirObject);
            t.Arm(6_000, 2, DirObject + 8, DirKey, restarted, TwoMiB);
            if (!nameFirst) t.FileName(DirKey, Dir);
            var (buffers, victims) = t.Build();
            Assert.AreEqual(0, victims.Rows.Count, $"name first: {nameFirst}");
            Assert.IsTrue(buffers.Rows.All(r => r.VictimProcesses == ""), $"name first: {nameFirst}");
        }
    }

    [TestMethod]
    public void A_watchers_own_changes_through_its_other_threads_stand_ins_are_not_victims_in_memory_mode()
    {
        // watcher.exe predates the trace: it arms from one thread and writes from another, each a stand-in until the
        // end rundown. sync.exe watched the directory earlier; while watcher.exe writes, only it watches.
        var armThread = new ProcessRef(-1, long.MinValue, "Unknown") { StandIn = 11 };
        var writeThread = new ProcessRef(-1, long.MinValue, "Unknown") { StandIn = 12 };
        var sync = new ProcessRef(400, 0, "sync.exe");
        foreach (bool nameFirst in new[] { true, false })
        {
            var t = new DirectoryNotifyTracker();
            if (nameFirst) t.FileName(DirKey, Dir);
            t.Arm(10, 1, DirObject, DirKey, armThread, TwoMiB);
            t.Arm(100, 2, DirObject + 8, DirKey, sync, 4096);
            t.Create(150, 0, 0x70, writeThread, $@"{Dir}\during", 2);    // while sync.exe watched too: a victim of it
            t.Cleanup(200, DirObject + 8);
            for (int i = 0; i < 5; i++) t.Create(300 + i, 0, 0x80 + (ulong)i, writeThread, $@"{Dir}\f{i}", 2);
            if (!nameFirst) t.FileName(DirKey, Dir);
            var (_, victims) = t.Build(p => p.StandIn is 11 or 12 ? Watcher : p);
            Assert.AreEqual(1, victims.Rows.Count, $"name first: {nameFirst}");
            Assert.AreEqual("watcher.exe", victims.Rows[0].Process);
            Assert.AreEqual(1L, victims.Rows[0].Creates, $"name first: {nameFirst}: only the create while sync.exe watched");
        }
    }

    [TestMethod]
    public void A_victims_faults_count_only_while_another_process_watches_its_directory()
    {
        // 2,000 processes take faults while 1,000 other watches come and go; only builder.exe touches the watched
        // directory. (Each fault was spread over every active directory for every process: memory grew with both.)
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        long now = 100;
        for (int w = 0; w < 1_000; w++)
        {
            ulong key = 0x10_0000 + (ulong)w;
            t.FileName(key, $@"\Device\HarddiskVolume3\Other\d{w}");
            t.Arm(now++, 0x1000 + (ulong)w, 0x20_0000 + (ulong)w, key, new ProcessRef(5_000 + w, 0, "w.exe"), 4096);
            for (int p = 0; p < 2; p++) t.DemandZero(now++, new ProcessRef(10_000 + (w * 2 + p) % 2_000, 0, "busy.exe"));
            t.DemandZero(now++, Builder);
            t.Cleanup(now++, 0x20_0000 + (ulong)w);
        }
        t.Create(now++, 0, 0x9999, Builder, $@"{Dir}\x.obj", 2);
        t.Cleanup(now++, DirObject);
        t.DemandZero(now++, Builder); // no watch left: counts nowhere
        var (_, victims) = t.Build();
        Assert.AreEqual(1, victims.Rows.Count);
        Assert.AreEqual("builder.exe", victims.Rows[0].Process);
        Assert.AreEqual(1_000L, victims.Rows[0].DemandZeroFaults, "one a period, all while watcher.exe watched");
    }

    [TestMethod]
    public void Paging_writes_are_no_change()
    {
        static HiddenCost.Etl.Decoding.Kernel.FileIoReadWrite Write(uint flags) => new(68, 0, 0x10, 0x20, 0x30, 4, 4096, flags, 0);
        Assert.IsTrue(DirectoryNotifyAnalysis.ReportsChange(Write(0x0000_0A00)), "a cached write (IRP_WRITE_OPERATION | IRP_DEFER_IO_COMPLETION)");
        Assert.IsFalse(DirectoryNotifyAnalysis.ReportsChange(Write(0x0000_0043)), "the lazy writer's paging write (IRP_PAGING_IO | IRP_NOCACHE | IRP_SYNCHRONOUS_PAGING_IO)");
        Assert.IsFalse(DirectoryNotifyAnalysis.ReportsChange(Write(0x0000_0003)), "a mapped page writer's write (IRP_PAGING_IO | IRP_NOCACHE)");
    }

    [TestMethod]
    public void A_watchers_victims_are_those_that_changed_files_while_it_watched()
    {
        var indexer = new ProcessRef(400, 0, "indexer.exe");
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Create(12, 0, 0x70, Reader, $@"{Dir}\r", 2);               // reader.exe changes while watcher.exe watches
        t.Cleanup(20, DirObject);                                     // watcher.exe's watch is over
        t.Arm(30, 2, DirObject + 8, DirKey, indexer, 16 * 1024);      // indexer.exe watches from 30
        t.Create(40, 0, 0x71, Builder, $@"{Dir}\b", 2);              // builder.exe changes while only indexer.exe watches
        var (buffers, victims) = t.Build();
        string VictimsOf(string process) => (string)buffers.Rows.Single(r => r.Process == process).VictimProcesses!;
        Assert.AreEqual("reader.exe (300)", VictimsOf("watcher.exe"));
        Assert.AreEqual("builder.exe (200)", VictimsOf("indexer.exe"));
        Assert.AreEqual(2, victims.Rows.Count, "the directory's victims: both");
    }

    [TestMethod]
    public void Changes_below_a_watched_directorys_own_entries_are_counted_and_noted()
    {
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Create(20, 0, 0x70, Builder, $@"{Dir}\a", 2);                       // in the directory itself
        t.Create(21, 0, 0x71, Builder, $@"{Dir}\obj\x64\Release\a.obj", 2); // three levels below it
        var (buffers, victims) = t.Build();
        Assert.AreEqual(2L, victims.Rows[0].Creates, "counted as if the watch covered its subtree");
        foreach (var table in new Table[] { buffers, victims })
            Assert.AreEqual(1, table.Notes.Texts().Count(n => n.StartsWith("1 changes were in subdirectories of the watched directories")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void A_file_opened_delete_on_close_is_deleted_at_its_cleanup()
    {
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Create(20, 0x500, 0x70, Builder, $@"{Dir}\tmp1", 2, deleteOnClose: true); // created, and deleted at its cleanup
        t.OperationEnd(21, 0x500, 2, 0);
        t.Cleanup(30, 0x70);
        t.Cleanup(31, 0x70);                                                          // its Close: nothing more
        t.Create(40, 0x501, 0x71, Builder, $@"{Dir}\old", 1, deleteOnClose: true);  // opened only to be deleted
        t.OperationEnd(41, 0x501, 1, 0);
        t.Create(50, 0x502, 0x71, Builder, $@"{Dir}\other", 1);                     // the file object is reused before a cleanup
        t.Cleanup(60, 0x71);
        var (_, victims) = t.Build();
        Assert.AreEqual((1L, 1L), ((long)victims.Rows[0].Creates!, (long)victims.Rows[0].Deletes!));
    }

    [TestMethod]
    public void A_create_reusing_the_irp_of_a_notify_whose_completion_was_lost_is_a_create()
    {
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        t.Arm(10, 0x100, DirObject, DirKey, Watcher, TwoMiB);   // its completion is never logged
        t.Arm(11, 0x200, DirObject + 8, DirKey, Reader, TwoMiB);
        t.Create(20, 0x100, 0x70, Builder, $@"{Dir}\a", 2);      // the IRP, free again, carries a create
        t.OperationEnd(21, 0x100, 2, 0);                          // FILE_CREATED
        t.Arm(30, 0x900, DirObject, DirKey, Watcher, TwoMiB);
        t.Create(31, 0x900, 0x71, Builder, $@"{Dir}\b", 2);      // and the other way round: a notify's IRP reused by a create
        t.OperationEnd(32, 0x900, 2, 0);
        var (buffers, victims) = t.Build();
        var row = buffers.Rows.Single(r => r.Process == "watcher.exe");
        Assert.AreEqual(0L, row.Completions, "a create's completion is no notify completion");
        Assert.AreEqual(2L, victims.Rows[0].Creates);
    }

    [TestMethod]
    public void A_create_sent_on_by_reparse_is_not_a_create()
    {
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Create(20, 0x900, 0x70, Builder, $@"{Dir}\link", disposition: 3);
        t.OperationEnd(21, 0x900, 0, 0x104); // STATUS_REPARSE, IO_REPARSE
        t.Create(30, 0x901, 0x71, Builder, $@"{Dir}\link", disposition: 3);
        t.OperationEnd(31, 0x901, 2, 0x104); // STATUS_REPARSE, IO_REPARSE_GLOBAL
        t.Create(40, 0x902, 0x72, Builder, $@"{Dir}\real", disposition: 3);
        t.OperationEnd(41, 0x902, 2, 0); // FILE_CREATED
        var (_, victims) = t.Build();
        Assert.AreEqual(1L, victims.Rows[0].Creates);
    }

    [TestMethod]
    public void Delete_event_that_clears_the_delete_disposition_is_no_change()
    {
        FileChangeKind? Change(byte opcode, uint infoClass, ulong extra) =>
            DirectoryNotifyAnalysis.ChangeOf(new HiddenCost.Etl.Decoding.Kernel.FileIoInfo(opcode, 1, 2, 3, extra, 4, infoClass));
        const byte Delete = HiddenCost.Etl.Decoding.Kernel.FileIoTypes.Delete, SetInfo = HiddenCost.Etl.Decoding.Kernel.FileIoTypes.SetInfo;
        Assert.AreEqual(FileChangeKind.Delete, Change(Delete, 13, 1));
        Assert.IsNull(Change(Delete, 13, 0), "FileDispositionInformation with DeleteFile FALSE");
        Assert.IsNull(Change(Delete, 64, 2), "FileDispositionInformationEx without FILE_DISPOSITION_DELETE");
        Assert.AreEqual(FileChangeKind.Delete, Change(Delete, 0, 0), "a Delete event naming no class still deletes");
        Assert.AreEqual(FileChangeKind.Delete, Change(SetInfo, 13, 1));
        Assert.IsNull(Change(SetInfo, 13, 0));
    }

    [TestMethod]
    public void Two_directories_that_reuse_one_file_key_keep_their_own_victims()
    {
        const string A = @"\Device\HarddiskVolume3\A", B = @"\Device\HarddiskVolume3\B";
        var other = new ProcessRef(400, 0, "indexer.exe");
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, A);
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Create(20, 0, 0x70, Builder, A + @"\x", 2);
        t.Cleanup(30, DirObject);
        t.FileName(DirKey, B);                                             // the key now belongs to another directory
        t.Arm(40, 2, DirObject + 8, DirKey, other, TwoMiB);
        t.Create(50, 0, 0x71, Reader, B + @"\y", 2);
        var (buffers, victims) = t.Build();
        string VictimsOf(string process) => (string)buffers.Rows.Single(r => r.Process == process).VictimProcesses!;
        Assert.AreEqual("builder.exe (200)", VictimsOf("watcher.exe"));
        Assert.AreEqual("reader.exe (300)", VictimsOf("indexer.exe"));
        Assert.AreEqual(2, victims.Rows.Count);
        Assert.AreEqual(A, victims.Rows.Single(r => r.Process == "builder.exe").Directory);
        Assert.AreEqual(B, victims.Rows.Single(r => r.Process == "reader.exe").Directory);
        Assert.IsTrue(victims.Rows.All(r => (long)r.Watchers! == 1));
    }

    [TestMethod]
    public void Processes_that_only_read_are_not_victims()
    {
        var t = Storm(3);
        t.Create(50_000, 0xAAAA, 0xBBBB, Reader, $@"{Dir}\f1.obj", disposition: 1);
        t.OperationEnd(50_010, 0xAAAA, 1, 0);
        t.Cleanup(50_020, 0xBBBB);
        var (_, victims) = t.Build();
        Assert.IsFalse(victims.Rows.Any(r => r.Process == "reader.exe"));
    }

    [TestMethod]
    public void Open_if_that_only_opened_an_existing_file_is_not_a_create()
    {
        var t = Storm(1);
        t.Create(60_000, 0xCCCC, 0xDDDD, Reader, $@"{Dir}\existing.txt", disposition: 3);
        t.OperationEnd(60_010, 0xCCCC, 1, 0); // FILE_OPENED
        var (_, victims) = t.Build();
        Assert.IsFalse(victims.Rows.Any(r => r.Process == "reader.exe"));
    }

    [TestMethod]
    public void Watcher_cancelled_mid_trace_stops_collecting_victims()
    {
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Create(20, 0, 0x70, Builder, $@"{Dir}\a", 2);
        t.OperationEnd(30, 1, 200, 0);
        t.Arm(40, 2, DirObject, DirKey, Watcher, TwoMiB);
        t.OperationEnd(50, 2, 0, 0xC0000120); // STATUS_CANCELLED
        t.Create(60, 0, 0x71, Builder, $@"{Dir}\b", 2);
        var (buffers, victims) = t.Build();
        Assert.AreEqual(2L, buffers.Rows[0].Arms);
        Assert.AreEqual(1L, buffers.Rows[0].Completions);
        Assert.AreEqual(30L, buffers.Rows[0].LastCompletion);
        Assert.AreEqual(50L, buffers.Rows[0].WatchEnd, "the cancel ended the watch");
        Assert.AreEqual(1L, victims.Rows[0].Creates, "the create after the cancel is not counted");
    }

    [TestMethod]
    public void A_watch_that_never_completed_has_no_last_completion_and_ends_on_the_timeline_where_the_trace_ends()
    {
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB); // an idle directory: no change, no completion
        t.DemandZero(70, Builder);
        var (buffers, _) = t.Build(traceEndNs: 5_000);
        Assert.AreEqual(0L, buffers.Rows[0].Completions);
        Assert.IsNull(buffers.Rows[0].LastCompletion);
        Assert.AreEqual(10L, buffers.Rows[0].FirstArm);
        Assert.AreEqual(5_000L, buffers.Rows[0].WatchEnd);
        Assert.AreEqual(70L, t.Build().Buffers.Rows[0].WatchEnd, "without the trace's end: the latest time the tracker was given");
    }

    [TestMethod]
    public void A_closed_watchers_request_completing_after_its_cleanup_does_not_end_the_watch_twice()
    {
        // FileSystemWatcher.Dispose: the handle's Cleanup ends the watch, then its pending request completes with
        // STATUS_NOTIFY_CLEANUP. On a directory not named yet, ending it twice made the count of unnamed active
        // directories negative, and every later change waited for the end of the trace.
        const ulong Unnamed = 0xFFFF_A000_0000_2000, UnnamedObject = 0xFFFF_B000_0000_2000;
        var t = new DirectoryNotifyTracker();
        t.Arm(10, 1, UnnamedObject, Unnamed, Watcher, TwoMiB);
        t.Cleanup(20, UnnamedObject);
        t.OperationEnd(25, 1, 0, 0x0000010B); // STATUS_NOTIFY_CLEANUP
        t.FileName(DirKey, Dir);
        t.Arm(30, 2, DirObject, DirKey, Watcher, TwoMiB);
        t.Create(40, 0, 0x70, Builder, $@"{Dir}\a.txt", 2);
        Assert.AreEqual(0, t.WaitingChanges, "every watched directory is named: the create was placed as it came");
        var (buffers, victims) = t.Build(traceEndNs: 100);
        int row = Enumerable.Range(0, buffers.Rows.Count).Single(r => buffers.Rows[r].Directory == $"FileKey 0x{Unnamed:X}");
        Assert.AreEqual(20L, buffers.Rows[row].WatchEnd, "the cleanup ended it; the completion after it did not");
        Assert.AreEqual(1L, victims.Rows[0].Creates);
    }

    [TestMethod]
    public void A_watch_re_armed_with_another_buffer_size_ends_where_the_new_one_begins()
    {
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.OperationEnd(20, 1, 100, 0);
        t.Arm(30, 2, DirObject, DirKey, Watcher, 64 * 1024);
        var (buffers, _) = t.Build(traceEndNs: 100);
        Assert.AreEqual(2, buffers.Rows.Count);
        int big = Enumerable.Range(0, 2).Single(r => (long?)buffers.Rows[r].BufferBytes == TwoMiB);
        Assert.AreEqual(30L, buffers.Rows[big].WatchEnd);
        Assert.AreEqual(100L, buffers.Rows[1 - big].WatchEnd, "still watching when the trace ended");
    }

    [TestMethod]
    public void Watch_end_is_the_end_of_the_last_of_a_rows_watches()
    {
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Cleanup(20, DirObject);
        t.Arm(30, 2, DirObject + 8, DirKey, Watcher, TwoMiB); // the same process re-opens the directory
        t.Cleanup(45, DirObject + 8);
        var (buffers, _) = t.Build(traceEndNs: 100);
        Assert.AreEqual(1, buffers.Rows.Count);
        Assert.AreEqual(10L, buffers.Rows[0].FirstArm);
        Assert.AreEqual(45L, buffers.Rows[0].WatchEnd);
    }

    [TestMethod]
    public void Two_watchers_on_one_directory_get_a_row_each_and_share_victims()
    {
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        var other = new ProcessRef(400, 0, "indexer.exe");
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Arm(11, 2, DirObject + 8, DirKey, other, 16 * 1024);
        t.Create(20, 0, 0x70, Builder, $@"{Dir}\a", 2);
        t.OperationEnd(30, 1, 100, 0);
        t.OperationEnd(31, 2, 100, 0);
        var (buffers, victims) = t.Build();
        Assert.AreEqual(2, buffers.Rows.Count);
        Assert.IsTrue(buffers.Rows.All(r => r.VictimProcesses == "builder.exe (200)"));
        Assert.AreEqual(1, victims.Rows.Count);
        Assert.AreEqual(2L, victims.Rows[0].Watchers);
    }

    [TestMethod]
    public void Reused_pid_is_two_processes()
    {
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        var first = new ProcessRef(200, 0, "builder.exe");
        var second = new ProcessRef(200, 5_000, "builder.exe");
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Create(20, 0, 0x70, first, $@"{Dir}\a", 2);
        t.Create(6_000, 0, 0x71, second, $@"{Dir}\b", 2);
        t.Create(6_001, 0, 0x72, second, $@"{Dir}\c", 2);
        var (_, victims) = t.Build();
        Assert.AreEqual(2, victims.Rows.Count);
        CollectionAssert.AreEquivalent(new[] { 1L, 2L }, victims.Rows.Select(r => (long)r.Creates!).ToArray());
    }

    [TestMethod]
    public void Change_named_only_by_rundown_at_the_end_is_still_placed()
    {
        var t = new DirectoryNotifyTracker();
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Change(20, FileChangeKind.Rename, 0x5555, Builder);
        t.FileName(DirKey, Dir);       // rundown names arrive at the end of the trace
        t.FileName(0x5555, Dir + @"\late.txt");
        var (_, victims) = t.Build();
        Assert.AreEqual(1L, victims.Rows[0].Renames);
    }

    [TestMethod]
    public void Demand_zero_fault_counts_once_per_directory_whichever_watchers_lie_between()
    {
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        t.FileName(DirKey + 8, @"\Device\HarddiskVolume3\Other");
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Arm(11, 2, DirObject + 8, DirKey + 8, Reader, TwoMiB);          // another directory's watch in between
        t.Arm(12, 3, DirObject + 16, DirKey, new ProcessRef(400, 0, "indexer.exe"), TwoMiB);
        t.Create(20, 0, 0x70, Builder, $@"{Dir}\a", 2);
        t.DemandZero(21, Builder);
        var (_, victims) = t.Build();
        int row = victims.Rows.ToList().FindIndex(r => r.Directory == Dir);
        Assert.AreEqual(1L, victims.Rows[row].DemandZeroFaults);
        Assert.AreEqual(1L, victims.Rows[row].FileOperations);
    }

    [TestMethod]
    public void Demand_zero_faults_count_for_the_directories_watched_when_they_happen()
    {
        const string Other = @"\Device\HarddiskVolume3\Other";
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        t.FileName(DirKey + 8, Other);
        t.DemandZero(5, Builder);                                          // nothing watched yet: counts nowhere
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Create(11, 0, 0x70, Builder, $@"{Dir}\a", 2);
        for (int i = 0; i < 3; i++) t.DemandZero(12 + i, Builder);        // Dir only
        t.DemandZero(15, Watcher);                                         // the watcher's own fault: not its victim
        t.Arm(20, 2, DirObject + 8, DirKey + 8, Reader, TwoMiB);
        t.Create(21, 0, 0x71, Builder, $@"{Other}\b", 2);
        for (int i = 0; i < 2; i++) t.DemandZero(22 + i, Builder);        // both
        t.Cleanup(30, DirObject);
        t.DemandZero(31, Builder);                                         // Other only
        var (_, victims) = t.Build();
        long Faults(string dir) => (long)victims.Rows[victims.Rows.ToList().FindIndex(r =>
            r.Directory == dir && r.Process == "builder.exe")].DemandZeroFaults!;
        Assert.AreEqual(5L, Faults(Dir));
        Assert.AreEqual(3L, Faults(Other));
    }

    [TestMethod]
    public void Change_under_nested_watched_directories_counts_once_in_each()
    {
        var t = new DirectoryNotifyTracker();
        const string Parent = @"\Device\HarddiskVolume3\Build";
        t.FileName(DirKey, Dir);
        t.FileName(DirKey + 8, Parent);
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Arm(11, 2, DirObject + 8, DirKey + 8, Reader, TwoMiB);
        t.Arm(12, 3, DirObject + 16, DirKey, new ProcessRef(400, 0, "indexer.exe"), TwoMiB);
        t.Create(20, 0, 0x70, Builder, $@"{Dir}\a", 2);
        var (_, victims) = t.Build();
        Assert.AreEqual(2, victims.Rows.Count);
        for (int i = 0; i < 2; i++)
        {
            Assert.AreEqual(1L, victims.Rows[i].FileOperations, victims.Rows[i].Directory);
            Assert.AreEqual(1L, victims.Rows[i].Creates, victims.Rows[i].Directory);
        }
    }

    [TestMethod]
    public void Change_placed_at_the_end_counts_only_while_one_of_the_directorys_watches_was_open()
    {
        var t = new DirectoryNotifyTracker();
        // The directory is named only by the rundown at the end, so every change waits until Build; it is watched by
        // three handles in turn: [10, 20), [15, 40) and [100, end).
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);
        t.Arm(15, 2, DirObject + 8, DirKey, Watcher, TwoMiB);
        t.Cleanup(20, DirObject);
        t.Cleanup(40, DirObject + 8);
        t.Arm(100, 3, DirObject + 16, DirKey, Watcher, TwoMiB);
        long[] times = { 5, 12, 30, 39, 40, 60, 99, 100, 500 };
        for (int i = 0; i < times.Length; i++)
        {
            ulong key = 0x5000 + (ulong)i;
            t.FileName(key, $@"{Dir}\f{i}.txt");
            t.Change(times[i], FileChangeKind.Delete, key, Builder);
        }
        t.FileName(DirKey, Dir);
        var (_, victims) = t.Build();
        Assert.AreEqual(1, victims.Rows.Count);
        Assert.AreEqual(5L, victims.Rows[0].Deletes, "12, 30, 39, 100 and 500: not 5 (before any watch), 40, 60 and 99 (between watches)");
    }

    [TestMethod]
    public void Directory_named_while_watched_collects_changes_from_then_on()
    {
        var t = new DirectoryNotifyTracker();
        const string Other = @"\Device\HarddiskVolume3\Other";
        t.FileName(DirKey + 8, Other);
        t.Arm(10, 1, DirObject, DirKey, Watcher, TwoMiB);                 // not named yet: changes wait for the end
        t.Arm(11, 2, DirObject + 8, DirKey + 8, Reader, TwoMiB);
        t.Create(20, 0, 0x70, Builder, $@"{Other}\a", 2);
        t.FileName(DirKey, Dir);                                         // named mid-trace (a FileCreate of it, say)
        t.Create(30, 0, 0x71, Builder, $@"{Dir}\b", 2);                  // placed as it comes, by the new name
        t.Create(31, 0, 0x72, Builder, $@"{Dir.ToUpperInvariant()}\c", 2); // NT paths compare ignoring case
        t.Create(32, 0, 0x73, Builder, $@"{Dir}x\d", 2);                 // a sibling whose name starts the same: not inside
        t.Create(33, 0, 0x74, Builder, Dir, 2);                          // the directory itself: not inside it
        var (_, victims) = t.Build();
        long Creates(string dir) => (long)victims.Rows[victims.Rows.ToList().FindIndex(r => r.Directory == dir)].Creates!;
        Assert.AreEqual(2L, Creates(Dir));
        Assert.AreEqual(1L, Creates(Other));
    }

    [TestMethod]
    public void Two_directories_of_one_name_list_their_victims_the_one_watched_first_first()
    {
        const ulong HandleB = 0xB000, HandleA = 0xA000; // no file key: each handle's directory is keyed by its file object
        var t = new DirectoryNotifyTracker();
        t.Arm(10, 1, HandleB, 0, Watcher, TwoMiB);
        t.OperationEnd(20, 1, 0, 0xC0000120);            // B watched [10, 20), cancelled
        t.Arm(30, 2, HandleA, 0, Reader, TwoMiB);        // A from 30
        t.Arm(40, 3, HandleB, 0, Watcher, 64 * 1024);    // B again from 40, another buffer: a second watcher row
        t.FileName(0x5000, $@"{Dir}\f.txt");
        t.Change(50, FileChangeKind.Delete, 0x5000, Builder); // placed at the end: neither directory is named yet
        t.FileName(HandleA, Dir);
        t.FileName(HandleB, Dir);
        var (_, victims) = t.Build();
        CollectionAssert.AreEqual(new[] { 2L, 1L }, victims.Rows.Select(r => (long)r.Watchers!).ToArray());
        Assert.IsTrue(victims.Rows.All(r => (long)r.Deletes! == 1));
    }

    [TestMethod]
    public void Create_that_began_before_a_watch_was_armed_is_not_its_change()
    {
        const string Other = @"\Device\HarddiskVolume3\Other";
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        t.FileName(DirKey + 8, Other);
        t.Arm(10, 1, DirObject + 8, DirKey + 8, Reader, TwoMiB);      // something watched, all named: placed as they come
        t.Create(20, 0x900, 0x70, Builder, $@"{Dir}\a", 2);
        t.Arm(25, 2, DirObject, DirKey, Watcher, TwoMiB);             // Dir armed while the create was in flight
        t.OperationEnd(30, 0x900, 2, 0);                              // created, stamped 20
        t.Create(40, 0, 0x71, Builder, $@"{Dir}\b", 2);
        var (_, victims) = t.Build();
        Assert.AreEqual(1, victims.Rows.Count);
        Assert.AreEqual(1L, victims.Rows[0].Creates, "only b");
    }

    [TestMethod]
    public void Processes_known_only_at_the_end_are_resolved_at_build_into_one_row_each()
    {
        // Memory-mode traces: while the pass runs, each thread's process is a stand-in; the end rundown says whose.
        var watcherThread1 = new ProcessRef(-1, long.MinValue, "Unknown") { StandIn = 11 };
        var watcherThread2 = new ProcessRef(-1, long.MinValue, "Unknown") { StandIn = 12 };
        var builderThread = new ProcessRef(-1, long.MinValue, "Unknown") { StandIn = 21 };
        var t = new DirectoryNotifyTracker();
        t.FileName(DirKey, Dir);
        t.Arm(10, 1, DirObject, DirKey, watcherThread1, TwoMiB);
        t.Create(20, 0, 0x70, builderThread, $@"{Dir}\a", 2);
        t.DemandZero(21, builderThread);
        t.OperationEnd(30, 1, 100, 0);
        t.Arm(31, 2, DirObject, DirKey, watcherThread2, TwoMiB);           // re-armed from another thread-pool thread
        t.Create(40, 0, 0x71, builderThread, $@"{Dir}\b", 2);
        t.OperationEnd(50, 2, 100, 0);
        var (buffers, victims) = t.Build(p => p.StandIn switch { 11 or 12 => Watcher, 21 => Builder, _ => p });
        Assert.AreEqual(1, buffers.Rows.Count);
        Assert.AreEqual("watcher.exe", buffers.Rows[0].Process);
        Assert.AreEqual(2L, buffers.Rows[0].Arms);
        Assert.AreEqual(2L, buffers.Rows[0].Completions);
        Assert.AreEqual("builder.exe (200)", buffers.Rows[0].VictimProcesses);
        Assert.AreEqual(1, victims.Rows.Count);
        Assert.AreEqual(2L, victims.Rows[0].Creates);
        Assert.AreEqual(1L, victims.Rows[0].DemandZeroFaults);
    }

    [TestMethod]
    public void Recommendation_doubles_the_largest_batch_and_caps_at_64_KiB()
    {
        Assert.AreEqual(8192L, BufferRecommendation.For(TwoMiB, completions: 5, overflows: 0, largestBatchBytes: 3000));
        Assert.AreEqual(65536L, BufferRecommendation.For(TwoMiB, 5, 0, 60_000));
        Assert.IsNull(BufferRecommendation.For(64 * 1024, 5, 0, 100), "64 KiB and below are right-sized");
        Assert.IsNull(BufferRecommendation.For(TwoMiB, 0, 0, 0), "no completions, no evidence");
        Assert.IsNull(BufferRecommendation.For(256 * 1024, 1, 0, 100 * 1024), "never below a batch the watcher was handed");
        Assert.AreEqual(65536L, BufferRecommendation.For(TwoMiB, 5, 0, 65536), "64 KiB still holds a 64 KiB batch");
    }
}
