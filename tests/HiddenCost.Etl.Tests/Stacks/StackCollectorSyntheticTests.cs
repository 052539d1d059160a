using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Stacks;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.Stacks;

/// <summary>Stack matching rules on synthetic StackWalk events built from the documented layouts.</summary>
[TestClass]
public sealed class StackCollectorSyntheticTests
{
    private const ulong K1 = 0xFFFFF800_00001000, K2 = 0xFFFFF800_00002000, U1 = 0x7FF6_0000_1000, U2 = 0x7FF6_0000_2000;

    private sealed class Recorder : IStackListener
    {
        public List<StackMatch> Matches { get; } = new();
        public void OnStack(in StackMatch match) => Matches.Add(match);
    }

    private static EtwEvent KeyRef(bool user, long eventTime, int pid, int tid, ulong key, long now) =>
        SyntheticEvent.Kernel(KernelGroups.StackWalk, user ? StackWalkTypes.StackKeyUser : StackWalkTypes.StackKeyKernel, 2,
            new PayloadBuilder().I64(eventTime).I32(pid).I32(tid).Ptr(key).ToArray(), timestamp: now);

    private static EtwEvent KeyDef(byte opcode, ulong key, long now, params ulong[] frames)
    {
        var b = new PayloadBuilder().Ptr(key);
        foreach (var f in frames) b.Ptr(f);
        return SyntheticEvent.Kernel(KernelGroups.StackWalk, opcode, 2, b.ToArray(), timestamp: now);
    }

    private static EtwEvent Stack(long eventTime, int pid, int tid, long now, params ulong[] frames)
    {
        var b = new PayloadBuilder().I64(eventTime).I32(pid).I32(tid);
        foreach (var f in frames) b.Ptr(f);
        return SyntheticEvent.Kernel(KernelGroups.StackWalk, StackWalkTypes.Stack, 2, b.ToArray(), timestamp: now);
    }

    [TestMethod]
    public void Key_referenced_before_its_definition_resolves_when_KeyDelete_arrives_synthetic()
    {
        var recorder = new Recorder();
        var c = new StackCollector(listener: recorder);
        c.Observe(KeyRef(false, 100, 50, 7, 0xAAAA, 100));
        c.Observe(KeyRef(true, 100, 50, 7, 0xBBBB, 101));
        var match = recorder.Matches.Single();
        Assert.AreEqual(new StackMatch(100, 50, 7, match.Stack), match);
        Assert.IsFalse(c.Store.GetFrames(match.Stack).IsResolved);
        c.Observe(KeyDef(StackWalkTypes.KeyDelete, 0xAAAA, 200, K1, K2));
        c.Observe(KeyDef(StackWalkTypes.KeyRundown, 0xBBBB, 300, U1, U2));
        var frames = c.Store.GetFrames(match.Stack);
        Assert.IsTrue(frames.IsResolved);
        CollectionAssert.AreEqual(new[] { K1, K2, U1, U2 }, frames.ToArray());
    }

    [TestMethod]
    public void A_key_reused_after_KeyDelete_names_different_frames_synthetic()
    {
        var recorder = new Recorder();
        var c = new StackCollector(listener: recorder);
        c.Observe(KeyRef(true, 10, 50, 7, 0xAAAA, 10));
        c.Observe(KeyDef(StackWalkTypes.KeyDelete, 0xAAAA, 20, U1));
        c.Observe(KeyRef(true, 30, 50, 7, 0xAAAA, 30));
        c.Observe(KeyDef(StackWalkTypes.KeyRundown, 0xAAAA, 40, U2));
        Assert.AreEqual(2, recorder.Matches.Count);
        CollectionAssert.AreEqual(new[] { U1 }, c.Store.GetFrames(recorder.Matches[0].Stack).ToArray());
        CollectionAssert.AreEqual(new[] { U2 }, c.Store.GetFrames(recorder.Matches[1].Stack).ToArray());
    }

    [TestMethod]
    public void A_deferred_user_stack_completes_every_kernel_part_since_kernel_entry_synthetic()
    {
        var recorder = new Recorder();
        var c = new StackCollector(listener: recorder);
        c.Observe(Stack(100, 50, 7, 100, K1));       // first event after entering the kernel
        c.Observe(Stack(150, 50, 7, 150, K2));       // another one, still in the kernel
        Assert.AreEqual(0, recorder.Matches.Count, "kernel parts wait for the user part");
        c.Observe(Stack(100, 50, 7, 180, U1, U2));   // user stack walked on return to user mode, stamped at entry
        Assert.AreEqual(2, recorder.Matches.Count);
        CollectionAssert.AreEqual(new[] { K1, U1, U2 }, c.Store.GetFrames(recorder.Matches[0].Stack).ToArray());
        CollectionAssert.AreEqual(new[] { K2, U1, U2 }, c.Store.GetFrames(recorder.Matches[1].Stack).ToArray());
        Assert.AreEqual(150L, recorder.Matches[1].EventTimestamp);
    }

    [TestMethod]
    public void System_process_kernel_stacks_complete_at_once_and_others_at_thread_end_synthetic()
    {
        var recorder = new Recorder();
        var c = new StackCollector(listener: recorder);
        c.Observe(Stack(10, 4, 8, 10, K1));
        Assert.AreEqual(1, recorder.Matches.Count);
        c.Observe(Stack(20, 50, 9, 20, K2));
        Assert.AreEqual(1, recorder.Matches.Count);
        var end = new PayloadBuilder().I32(50).I32(9).ToArray();
        c.Observe(SyntheticEvent.Kernel(KernelGroups.Thread, ThreadEvent.End, 3, end, kind: Records.RecordHeaderKind.System));
        Assert.AreEqual(2, recorder.Matches.Count);
        CollectionAssert.AreEqual(new[] { K2 }, c.Store.GetFrames(recorder.Matches[1].Stack).ToArray());
        Assert.AreEqual(1, c.KernelOnlyFlushed);
    }

    [TestMethod]
    public void Identical_frames_intern_to_one_stack_synthetic()
    {
        var c = new StackCollector();
        int t1 = c.Expect(10, 7, 10);
        int t2 = c.Expect(20, 7, 20);
        c.Observe(Stack(10, 50, 7, 10, U1, U2));
        c.Observe(Stack(20, 50, 7, 20, U1, U2));
        Assert.AreEqual(c.StackOf(t1), c.StackOf(t2));
        Assert.AreEqual(1, c.Store.StackCount);
    }

    [TestMethod]
    public void Canonical_ids_merge_key_stacks_with_equal_frames_synthetic()
    {
        var recorder = new Recorder();
        var c = new StackCollector(listener: recorder);
        c.Observe(KeyRef(true, 10, 50, 7, 0x1, 10));
        c.Observe(KeyRef(true, 20, 50, 7, 0x2, 20));
        c.Observe(KeyDef(StackWalkTypes.KeyRundown, 0x1, 30, U1));
        c.Observe(KeyDef(StackWalkTypes.KeyRundown, 0x2, 30, U1));
        var (a, b) = (recorder.Matches[0].Stack, recorder.Matches[1].Stack);
        Assert.AreNotEqual(a, b);
        Assert.AreEqual(c.Store.Canonical(a), c.Store.Canonical(b));
    }

    [TestMethod]
    public void A_key_defined_again_with_the_same_frames_reuses_its_part_and_its_stacks_read_them_synthetic()
    {
        // One key deleted and used again a thousand times, as the kernel's key cache does over a long trace: its part
        // slot is reused once its frames turn out stored, and the index holds one stack, not one a lifetime.
        var recorder = new Recorder();
        var c = new StackCollector(listener: recorder);
        for (int i = 0; i < 1000; i++)
        {
            long t = 10 + 10 * i;
            c.Observe(KeyRef(true, t, 50, 7, 0x1, t));
            c.Observe(KeyDef(StackWalkTypes.KeyDelete, 0x1, t + 5, U1, U2));
        }
        Assert.AreEqual(1000, recorder.Matches.Count);
        foreach (var match in recorder.Matches)
            CollectionAssert.AreEqual(new[] { U1, U2 }, c.Store.GetFrames(match.Stack).ToArray());
        Assert.AreEqual(1, recorder.Matches.Select(m => c.Store.Canonical(m.Stack)).Distinct().Count());
        Assert.IsTrue(c.Store.PartCount <= 2, $"{c.Store.PartCount} part slots");
        Assert.AreEqual(1, c.Store.IndexedStacks);
    }

    [TestMethod]
    public void A_kernel_part_waiting_for_its_user_part_keeps_a_deleted_keys_part_until_it_is_finished_synthetic()
    {
        // The kernel key is deleted (a duplicate of stored frames) while its part waits on the thread for the user part:
        // the slot must not be reused by the next key before the waiting part is finished, or that stack would read the
        // next key's frames.
        var recorder = new Recorder();
        var c = new StackCollector(listener: recorder);
        c.Observe(Stack(5, 50, 7, 5, K1));                         // K1 stored as content (kernel part, waits)
        c.Observe(KeyRef(false, 10, 50, 8, 0x1, 10));               // kernel key on thread 8: waits for its user part
        c.Observe(KeyDef(StackWalkTypes.KeyDelete, 0x1, 11, K1));   // a duplicate of the stored K1
        c.Observe(KeyRef(false, 12, 50, 9, 0x2, 12));               // a new key on thread 9 takes a part slot
        c.Observe(KeyDef(StackWalkTypes.KeyDelete, 0x2, 13, K2));
        c.Observe(Stack(10, 50, 8, 14, U1));                        // thread 8's user part joins the waiting kernel part
        c.Observe(Stack(12, 50, 9, 15, U2));
        c.Complete();
        var thread8 = recorder.Matches.Single(m => m.ThreadId == 8);
        var thread9 = recorder.Matches.Single(m => m.ThreadId == 9);
        CollectionAssert.AreEqual(new[] { K1 }, c.Store.GetFrames(thread8.Stack).Kernel.ToArray());
        CollectionAssert.AreEqual(new[] { U1 }, c.Store.GetFrames(thread8.Stack).User.ToArray());
        CollectionAssert.AreEqual(new[] { K2 }, c.Store.GetFrames(thread9.Stack).Kernel.ToArray());
    }

    [TestMethod]
    public void Tickets_get_the_stack_of_their_event_and_none_when_no_stack_comes_synthetic()
    {
        var c = new StackCollector();
        var sample = SyntheticEvent.Kernel(KernelGroups.PerfInfo, SampledProfile.Opcode, 2,
            new PayloadBuilder().Ptr(U1).I32(7).U16(1).U8(0).U8(0).ToArray(), timestamp: 500, timeNs: 500);
        int withStack = c.Expect(sample);
        int without = c.Expect(600, 9, 600);
        c.Observe(Stack(500, 50, 7, 500, U1));
        c.Observe(SyntheticEvent.Kernel(KernelGroups.PerfInfo, 46, 2, new byte[16], timestamp: 600 + StackCollector.TicketWaitNs * 2, timeNs: 600 + StackCollector.TicketWaitNs * 2));
        c.Complete();
        CollectionAssert.AreEqual(new[] { U1 }, c.Store.GetFrames(c.StackOf(withStack)).ToArray());
        Assert.IsTrue(c.StackOf(without).IsNone);
    }

    [TestMethod]
    public void A_CSwitch_ticket_gets_the_stack_walked_for_the_switching_thread_synthetic()
    {
        var c = new StackCollector();
        var cswitch = new PayloadBuilder().I32(21).I32(22).Bytes(new byte[16]).ToArray();
        int ticket = c.Expect(SyntheticEvent.Kernel(KernelGroups.Thread, ContextSwitch.Opcode, 2, cswitch, timestamp: 900, timeNs: 900));
        c.Observe(Stack(900, 4, 21, 900, K1, K2));
        CollectionAssert.AreEqual(new[] { K1, K2 }, c.Store.GetFrames(c.StackOf(ticket)).ToArray());
    }

    [TestMethod]
    public void EVENT_HEADER_stack_items_give_the_event_its_stack_at_once_synthetic()
    {
        var data = new PayloadBuilder().U64(0).U64(K1).U64(U1).U64(U2).ToArray();
        var e = SyntheticEvent.Manifest(Guid.NewGuid(), 1, 0, new byte[4], extended: SyntheticEvent.ExtendedItem(ExtendedDataType.StackTrace64, data), timestamp: 77, threadId: 5, processId: 6);
        var recorder = new Recorder();
        var c = new StackCollector(listener: recorder);
        int ticket = c.Expect(e);
        c.Observe(e);
        var frames = c.Store.GetFrames(c.StackOf(ticket));
        CollectionAssert.AreEqual(new[] { K1 }, frames.Kernel.ToArray());
        CollectionAssert.AreEqual(new[] { U1, U2 }, frames.User.ToArray());
        Assert.AreEqual(new StackMatch(77, 6, 5, c.StackOf(ticket)), recorder.Matches.Single());
    }

    [TestMethod]
    public void An_EVENT_HEADER_stack_item_whose_user_part_comes_later_gives_its_ticket_the_joined_stack_synthetic()
    {
        var data = new PayloadBuilder().U64(0x1234).U64(K1).ToArray(); // MatchId set: the user part comes later
        var e = SyntheticEvent.Manifest(Guid.NewGuid(), 1, 0, new byte[4], extended: SyntheticEvent.ExtendedItem(ExtendedDataType.StackTrace64, data),
            timestamp: 77, threadId: 5, processId: 6);
        var recorder = new Recorder();
        var c = new StackCollector(listener: recorder);
        c.Observe(e);
        int ticket = c.Expect(e); // as TraceSession does: observe, then the analyses ask
        Assert.AreEqual(StackId.None, c.StackOf(ticket), "not answered with the kernel part alone");
        c.Observe(Stack(77, 6, 5, 90, U1));
        CollectionAssert.AreEqual(new[] { K1, U1 }, c.Store.GetFrames(recorder.Matches.Single().Stack).ToArray(), "listener");
        CollectionAssert.AreEqual(new[] { K1, U1 }, c.Store.GetFrames(c.StackOf(ticket)).ToArray(), "ticket");
    }

    [TestMethod]
    public void Kernel_addresses_are_told_apart_for_both_pointer_sizes()
    {
        Assert.IsTrue(KernelAddress.IsKernel(0xFFFFF800_00001000, 8));
        Assert.IsFalse(KernelAddress.IsKernel(0x7FFF_FFFF_0000, 8));
        Assert.IsFalse(KernelAddress.IsKernel(0x8000_1000, 8), "a WOW64 user frame in a 64-bit record");
        Assert.IsTrue(KernelAddress.IsKernel(0x8000_1000, 4));
        Assert.IsFalse(KernelAddress.IsKernel(0x7FFE_0000, 4));
    }
}
