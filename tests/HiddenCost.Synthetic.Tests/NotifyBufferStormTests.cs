using HiddenCost.Synthetic.Events;
using HiddenCost.Synthetic.Model;
using HiddenCost.Synthetic.Scenarios;
using HiddenCost.Synthetic.Tests.Support;

namespace HiddenCost.Synthetic.Tests;

[TestClass]
public sealed class NotifyBufferStormTests
{
    private static readonly Lazy<(ScenarioTrace<NotifyBufferStormTruth> Scenario, TraceFacts Facts)> Storm = new(() =>
    {
        var s = NotifyBufferStorm.Generate(new NotifyBufferStormOptions { Batches = 120, BurstBatches = [40, 90], BurstFiles = 250 });
        return (s, new TraceFacts(s.Bytes));
    });

    private sealed record Arm(ulong Irp, ulong FileObject, ulong FileKey, int Pid, uint Length, long TimeNs);

    [TestMethod]
    public void Watcher_truth_matches_the_DirNotify_and_completion_events()
    {
        var (scenario, f) = Storm.Value;
        var arms = new List<Arm>();
        var ends = new Dictionary<ulong, (ulong Bytes, uint Status, long TimeNs)>();
        foreach (var e in f.Events)
        {
            if (e.Is(KernelGroup.FileIo, FileIoEvents.DirNotifyType))
            {
                var c = e.Cursor();
                var irp = c.Pointer();
                var fo = c.Pointer();
                var key = c.Pointer();
                var tid = (int)c.U32();
                arms.Add(new Arm(irp, fo, key, f.ProcessOfThread[tid], c.U32(), e.TimeNs));
                Assert.AreEqual(tid, e.ThreadId, "issued by the thread running on the CPU");
            }
            else if (e.Is(KernelGroup.FileIo, FileIoEvents.OperationEndType))
            {
                var c = e.Cursor();
                ends[c.Pointer()] = (c.Pointer(), c.U32(), e.TimeNs);
            }
        }

        Assert.AreEqual(2, scenario.Truth.Watchers.Count);
        foreach (var w in scenario.Truth.Watchers)
        {
            var mine = arms.Where(a => a.Pid == w.Pid).ToList();
            Assert.AreEqual(w.Process, f.Processes[w.Pid].Name);
            Assert.IsTrue(mine.All(a => a.Length == w.BufferBytes && a.FileKey == scenario.Truth.DirectoryFileKey));
            Assert.AreEqual(w.Arms, mine.Count);
            var completions = mine.Where(a => ends.ContainsKey(a.Irp)).Select(a => ends[a.Irp]).ToList();
            Assert.AreEqual(w.Completions, completions.Count);
            Assert.AreEqual(w.Arms - 1, w.Completions, "the last arm is pending at the end");
            Assert.AreEqual(w.Overflows, completions.Count(c => c.Status == FileIoValues.StatusNotifyEnumDir));
            Assert.IsTrue(completions.Where(c => c.Status == FileIoValues.StatusNotifyEnumDir).All(c => c.Bytes == 0), "overflows return nothing");
            Assert.AreEqual(w.BytesReturned, completions.Sum(c => (long)c.Bytes));
            Assert.AreEqual(w.BytesReturned / (double)(w.Completions - w.Overflows), w.MeanBytesPerCompletion, 1e-9);
            Assert.AreEqual(w.MeanBytesPerCompletion / w.BufferBytes * 100, w.UtilisationPercent, 1e-9);
            Assert.AreEqual((long)w.Completions * w.BufferBytes, w.BytesZeroed, "completions × buffer size = bytes zeroed");
            Assert.AreEqual(mine.Min(a => a.TimeNs), w.FirstArmNs);
            Assert.AreEqual(completions.Max(c => c.TimeNs), w.LastCompletionNs);
        }
        var large = scenario.Truth.Watchers.Single(w => w.BufferBytes == 2 * 1024 * 1024);
        var small = scenario.Truth.Watchers.Single(w => w.BufferBytes == 16 * 1024);
        Assert.AreEqual(("SyncAgent.exe", 0, true), (large.Process, large.Overflows, large.RecommendationExpected));
        Assert.AreEqual(("explorer.exe", 2, false), (small.Process, small.Overflows, small.RecommendationExpected));
        Assert.IsTrue(large.MeanBytesPerCompletion is > 100 and < 1000, $"a few hundred bytes per completion: {large.MeanBytesPerCompletion}");
    }

    [TestMethod]
    public void Victim_truth_matches_the_file_operations_and_faults()
    {
        var (scenario, f) = Storm.Value;
        var dir = scenario.Truth.Directory + @"\";
        var names = new Dictionary<ulong, string>();
        var counts = new Dictionary<int, (int Ops, int Creates, int Deletes, int Renames, int Writes, int Faults)>();
        void Bump(int pid, Func<(int, int, int, int, int, int), (int, int, int, int, int, int)> change) =>
            counts[pid] = change(counts.GetValueOrDefault(pid));
        foreach (var e in f.Events)
        {
            if (e.Is(KernelGroup.FileIo, FileIoEvents.FileCreateType))
            {
                var c = e.Cursor();
                names[c.Pointer()] = c.WString();
            }
        }
        foreach (var e in f.Events)
        {
            if (e.Is(KernelGroup.PageFault, PageFaultEvents.DemandZeroFaultType))
            {
                Bump(e.ProcessId, x => x with { Item6 = x.Item6 + 1 });
                continue;
            }
            if (e.Group != KernelGroup.FileIo || e.Opcode is < FileIoEvents.CreateType or > FileIoEvents.RenameType) continue;
            var c = e.Cursor();
            if (e.Opcode == FileIoEvents.CreateType)
            {
                c.Pointer(); c.Pointer();
                var pid = f.ProcessOfThread[(int)c.U32()];
                var options = c.U32();
                c.U32(); c.U32();
                if (!c.WString().StartsWith(dir, StringComparison.Ordinal)) continue;
                var created = options >> 24 == FileIoValues.DispositionCreate;
                Bump(pid, x => x with { Item1 = x.Item1 + 1, Item2 = x.Item2 + (created ? 1 : 0) });
                continue;
            }
            int tid;
            ulong key, infoClass = 0;
            if (e.Opcode is FileIoEvents.ReadType or FileIoEvents.WriteType)
            {
                c.U64(); c.Pointer(); c.Pointer();
                key = c.Pointer();
                tid = (int)c.U32();
            }
            else if (e.Opcode is FileIoEvents.CleanupType or FileIoEvents.CloseType)
            {
                c.Pointer(); c.Pointer();
                key = c.Pointer();
                tid = (int)c.U32();
            }
            else
            {
                c.Pointer(); c.Pointer();
                key = c.Pointer();
                c.Pointer();
                tid = (int)c.U32();
                infoClass = c.U32();
            }
            if (!names[key].StartsWith(dir, StringComparison.Ordinal)) continue;
            var op = e.Opcode;
            var isDelete = op == FileIoEvents.DeleteType || (op == FileIoEvents.SetInfoType && infoClass is FileIoValues.FileDispositionInformation or FileIoValues.FileDispositionInformationEx);
            Bump(f.ProcessOfThread[tid], x => x with
            {
                Item1 = x.Item1 + 1,
                Item3 = x.Item3 + (isDelete ? 1 : 0),
                Item4 = x.Item4 + (op == FileIoEvents.RenameType ? 1 : 0),
                Item5 = x.Item5 + (op == FileIoEvents.WriteType ? 1 : 0),
            });
        }

        Assert.AreEqual(2, scenario.Truth.Victims.Count);
        foreach (var v in scenario.Truth.Victims)
        {
            var c = counts[v.Pid];
            Assert.AreEqual((v.AllOperations, v.Creates, v.Deletes, v.Renames, v.Writes, v.DemandZeroFaults), c, v.Process);
            Assert.AreEqual(v.Creates + v.Deletes + v.Renames + v.Writes, v.FileOperations, "file operations are the changes");
            Assert.AreEqual(2, v.Watchers);
            Assert.IsNull(v.NotifyCpuMs);
        }
        Assert.AreEqual(("ingest.exe", 0), (scenario.Truth.Victims[0].Process, scenario.Truth.Victims[0].Renames));
        Assert.AreEqual(("backup.exe", 0, 0), (scenario.Truth.Victims[1].Process, scenario.Truth.Victims[1].Creates, scenario.Truth.Victims[1].DemandZeroFaults));
        var reader = scenario.Truth.ReadOnlyPid;
        Assert.IsTrue(counts[reader].Ops > 0, "the search indexer works in the directory");
        Assert.AreEqual((0, 0, 0, 0), (counts[reader].Creates, counts[reader].Deletes, counts[reader].Renames, counts[reader].Writes), "but only reads there");
        Assert.IsFalse(scenario.Truth.Victims.Any(v => v.Pid == reader));
    }

    [TestMethod]
    public void The_directory_is_named_only_by_the_end_rundown()
    {
        var (scenario, f) = Storm.Value;
        var named = f.Events.Where(e => e.Group == KernelGroup.FileIo && e.Opcode is FileIoEvents.NameType or FileIoEvents.FileCreateType or FileIoEvents.FileRundownType
                                        && e.Cursor().Pointer() == scenario.Truth.DirectoryFileKey).ToList();
        Assert.AreEqual(1, named.Count);
        Assert.AreEqual(FileIoEvents.FileRundownType, named[0].Opcode);
        Assert.IsTrue(named[0].TimeNs > f.Events.Where(e => e.Is(KernelGroup.FileIo, FileIoEvents.DirNotifyType)).Max(e => e.TimeNs));
    }
}
