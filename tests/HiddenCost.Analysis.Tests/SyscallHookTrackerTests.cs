using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Tables.SyscallHook;

namespace HiddenCost.Analysis.Tests;

/// <summary>The Syscall Hook analysis fed decoded kernel facts directly (no ETW bytes), one behaviour per test.</summary>
[TestClass]
public sealed class SyscallHookTrackerTests
{
    private const ulong NtBase = 0xFFFF_F800_1000_0000, EdrBase = 0xFFFF_F801_2000_0000, FltBase = 0xFFFF_F801_3000_0000;
    private const ulong OtherEdrBase = 0xFFFF_F801_4000_0000, GpuBase = 0xFFFF_F801_5000_0000;
    private const ulong NtDelayExecution = NtBase + 0x4_2A10, NtClose = NtBase + 0x1_0040;
    private const long Ms = 1_000_000, Us = 1_000;
    private static readonly ProcessRef Victim = new(100, 0, "victim.exe");
    private static readonly ProcessRef Quiet = new(200, 0, "quiet.exe");
    private const int VictimThread = 1000, QuietThread = 2000;

    private static CulpritIdentity? Catalogue(string module) => module.ToLowerInvariant() switch
    {
        "tedrdrv.sys" => new CulpritIdentity("Palo Alto Networks", "Cortex XDR", "EDR"),
        "csagent.sys" => new CulpritIdentity("CrowdStrike", "Falcon", "EDR"),
        _ => null,
    };

    /// <summary>What the trace's thread and process events say: victim's and quiet's threads; others unknown.</summary>
    private static ProcessRef? ProcessOf(int threadId, long t) => threadId switch
    {
        VictimThread => Victim,
        QuietThread => Quiet,
        _ => null,
    };

    private static SyscallHookTracker NewTracker(Func<string, ulong, string?>? symbols = null)
    {
        var t = new SyscallHookTracker(Catalogue, ProcessOf, symbols);
        t.KernelImage(0, NtBase, 0x100_0000, @"\SystemRoot\system32\ntoskrnl.exe");
        t.KernelImage(0, EdrBase, 0x10_0000, @"\SystemRoot\System32\drivers\tedrdrv.sys");
        t.KernelImage(0, FltBase, 0x10_0000, @"\SystemRoot\System32\drivers\FLTMGR.SYS");
        t.KernelImage(0, OtherEdrBase, 0x10_0000, @"\SystemRoot\System32\drivers\CSAgent.sys");
        t.KernelImage(0, GpuBase, 0x10_0000, @"\SystemRoot\System32\drivers\acmegpu.sys");
        return t;
    }

    /// <summary>
    /// <paramref name="calls"/> Sleep(0)-like syscalls by victim.exe on CPU 0, one per ms, each 300 µs long with two
    /// samples inside: one with the EDR driver in the stack (twice, and not as the leaf), one in ntoskrnl only.
    /// quiet.exe runs on CPU 1 without syscalls, sampled with the other EDR driver in its stacks.
    /// </summary>
    private static SyscallHookTracker Storm(int calls, bool interval = true)
    {
        var t = NewTracker();
        if (interval) t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(10, 0, 0, VictimThread);
        t.ContextSwitch(10, 1, 0, QuietThread);
        long now = 1 * Ms;
        for (int i = 0; i < calls; i++)
        {
            t.SyscallEnter(now, 0, NtDelayExecution);
            int h = t.Sample(now + 100 * Us, 0, VictimThread);
            t.SampleStack(h, [NtBase + 0x500, EdrBase + 0x1_0010, NtBase + 0x9_0000, EdrBase + 0x2_0000, 0x7FF6_0000_1000]);
            int q = t.Sample(now + 150 * Us, 1, QuietThread);
            Assert.AreEqual(-1, q, "quiet.exe is never inside a syscall");
            int h2 = t.Sample(now + 200 * Us, 0, VictimThread);
            t.SampleStack(h2, [NtBase + 0x600, FltBase + 0x40, NtBase + 0x9_0000]);
            t.SyscallExit(now + 300 * Us, 0);
            now += 1 * Ms;
        }
        return t;
    }

    [TestMethod]
    public void Edr_driver_in_syscall_stacks_is_named_with_its_cost()
    {
        var (table, _) = Storm(100).Build();
        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual("tedrdrv.sys", table.Rows[0].CulpritModule);
        Assert.AreEqual("Palo Alto Networks", table.Rows[0].Vendor);
        Assert.AreEqual("Cortex XDR", table.Rows[0].Product);
        Assert.AreEqual("EDR", table.Rows[0].Category);
        Assert.AreEqual("victim.exe", table.Rows[0].Process);
        Assert.AreEqual(100L, table.Rows[0].Pid);
        Assert.AreEqual("ntoskrnl.exe+0x42A10", table.Rows[0].Syscall);
        Assert.AreEqual(100L, table.Rows[0].Syscalls);
        Assert.AreEqual(100 / 0.0993, (double)table.Rows[0].SyscallsPerSecond!, 1e-9, "100 calls from the first enter (1 ms) to the last exit (100.3 ms)");
        Assert.AreEqual(30.0, (double)table.Rows[0].TotalSyscallTimeMs!, 1e-9);
        Assert.AreEqual(300.0, (double)table.Rows[0].MeanSyscallTimeUs!, 1e-9);
        Assert.AreEqual(200L, table.Rows[0].SamplesInSyscalls);
        Assert.AreEqual(100.0, (double)table.Rows[0].HookCpuMs!, 1e-9, "100 samples × 1 ms, the module counted once per sample");
        Assert.AreEqual(1000.0, (double)table.Rows[0].HookOverheadPerSyscallUs!, 1e-9);
        Assert.AreEqual(2.0, (double)table.Rows[0].Inflation!, 1e-12, "200 samples ÷ (200 − 100 in the hook)");
        Assert.AreEqual(1 * Ms, table.Rows[0].First);
        Assert.AreEqual(100 * Ms + 300 * Us, table.Rows[0].Last);
    }

    [TestMethod]
    public void Process_without_syscalls_is_absent_and_loaded_catalogue_driver_outside_syscalls_is_no_culprit()
    {
        var t = Storm(10);
        // csagent.sys is loaded and sampled, but only in quiet.exe, which is never inside a syscall.
        int outside = t.Sample(50 * Ms, 1, QuietThread);
        t.SampleStack(outside, [OtherEdrBase + 0x10]);
        var (table, _) = t.Build();
        Assert.IsFalse(table.Rows.Any(r => r.Process == "quiet.exe"));
        Assert.IsFalse(table.Rows.Any(r => r.CulpritModule == "CSAgent.sys"));
        Assert.AreEqual(1, table.Rows.Count);
    }

    [TestMethod]
    public void Inbox_modules_are_never_culprits_and_unknown_third_party_modules_are_named_as_such()
    {
        var t = NewTracker();
        t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtClose);
        t.SampleStack(t.Sample(2 * Ms, 0, VictimThread), [NtBase + 0x10, FltBase + 0x10]);
        t.SampleStack(t.Sample(3 * Ms, 0, VictimThread), [GpuBase + 0x10, NtBase + 0x10]);
        t.SyscallExit(4 * Ms, 0);
        var (table, _) = t.Build();
        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual("acmegpu.sys", table.Rows[0].CulpritModule);
        Assert.IsNull(table.Rows[0].Vendor);
        Assert.IsNull(table.Rows[0].Product);
        Assert.AreEqual("unknown third-party kernel module", table.Rows[0].Category);
        Assert.AreEqual(2L, table.Rows[0].SamplesInSyscalls);
        Assert.AreEqual(1.0, (double)table.Rows[0].HookCpuMs!, 1e-12);
        Assert.AreEqual(2.0, (double)table.Rows[0].Inflation!, 1e-12);
    }

    [TestMethod]
    public void Syscall_without_samples_shows_counts_and_durations_with_no_culprit()
    {
        var t = NewTracker();
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtClose);
        t.SyscallExit(1 * Ms + 20 * Us, 0);
        t.SyscallEnter(2 * Ms, 0, NtClose);
        t.SyscallExit(2 * Ms + 40 * Us, 0);
        var (table, _) = t.Build();
        Assert.AreEqual(1, table.Rows.Count);
        Assert.IsNull(table.Rows[0].CulpritModule);
        Assert.IsNull(table.Rows[0].Category);
        Assert.AreEqual(2L, table.Rows[0].Syscalls);
        Assert.AreEqual(2 / 0.00104, (double)table.Rows[0].SyscallsPerSecond!, 1e-9);
        Assert.AreEqual(0.06, (double)table.Rows[0].TotalSyscallTimeMs!, 1e-12);
        Assert.AreEqual(30.0, (double)table.Rows[0].MeanSyscallTimeUs!, 1e-12);
        Assert.AreEqual(0L, table.Rows[0].SamplesInSyscalls);
        Assert.IsNull(table.Rows[0].HookCpuMs);
        Assert.IsNull(table.Rows[0].Inflation);
        CollectionAssert.Contains(table.Notes.Texts().ToList(),
            "No CPU samples (PerfInfo SampledProfile): syscall counts and durations are shown, but the CPU spent in hooking modules cannot be measured. Record with `wpr -start MultiProfile.wprp!SysCall`.");
    }

    [TestMethod]
    public void Syscalls_that_never_exit_are_counted_but_left_out_of_durations()
    {
        var t = NewTracker();
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtDelayExecution);
        t.SyscallExit(1 * Ms + 100 * Us, 0);
        t.SyscallEnter(2 * Ms, 0, NtDelayExecution); // still inside when the trace ends
        var (table, _) = t.Build();
        Assert.AreEqual(2L, table.Rows[0].Syscalls);
        Assert.AreEqual(0.1, (double)table.Rows[0].TotalSyscallTimeMs!, 1e-12);
        Assert.AreEqual(100.0, (double)table.Rows[0].MeanSyscallTimeUs!, 1e-12);
        Assert.AreEqual(2 * Ms, table.Rows[0].Last);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("1 syscalls had no exit: the trace or their thread ended inside them")), string.Join("\n", table.Notes.Texts()));
    }

    [TestMethod]
    public void Syscall_of_a_thread_that_ends_inside_it_never_returns()
    {
        var t = NewTracker();
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtClose);
        t.ThreadEnded(2 * Ms, VictimThread);
        t.ContextSwitch(2 * Ms, 0, VictimThread, QuietThread);
        t.SyscallExit(3 * Ms, 0); // quiet.exe's thread was not inside a syscall: an orphan exit
        var (table, _) = t.Build();
        Assert.AreEqual(1L, table.Rows[0].Syscalls);
        Assert.IsNull(table.Rows[0].TotalSyscallTimeMs);
        Assert.IsNull(table.Rows[0].MeanSyscallTimeUs);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("1 syscalls had no exit")));
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("1 syscall exits had no enter")));
    }

    [TestMethod]
    public void Cpu_without_context_switch_state_counts_syscalls_under_Unknown()
    {
        var t = NewTracker();
        t.SampleInterval(0, 1 * Ms);
        // CPU 3 never switches: its syscalls have no known thread, but are counted, paired per processor, and sampled.
        t.SyscallEnter(1 * Ms, 3, NtClose);
        t.SampleStack(t.Sample(1 * Ms + 50 * Us, 3, 4242), [EdrBase + 0x10]);
        t.SyscallExit(1 * Ms + 200 * Us, 3);
        t.SyscallEnter(2 * Ms, 3, NtClose);
        t.SyscallExit(2 * Ms + 100 * Us, 3);
        var (table, _) = t.Build();
        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual("Unknown", table.Rows[0].Process);
        Assert.IsNull(table.Rows[0].Pid);
        Assert.AreEqual("tedrdrv.sys", table.Rows[0].CulpritModule);
        Assert.AreEqual(2L, table.Rows[0].Syscalls);
        Assert.AreEqual(150.0, (double)table.Rows[0].MeanSyscallTimeUs!, 1e-12);
        Assert.AreEqual(1L, table.Rows[0].SamplesInSyscalls);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("No context switches (Thread CSwitch)")), string.Join("\n", table.Notes.Texts()));
    }

    [TestMethod]
    public void First_context_switch_hands_unknown_thread_syscalls_to_the_thread_it_switches_out()
    {
        var t = NewTracker();
        t.SyscallEnter(1 * Ms, 0, NtDelayExecution);          // thread not yet known on CPU 0
        t.ContextSwitch(2 * Ms, 0, VictimThread, QuietThread); // victim's thread was running and blocks inside the syscall
        t.ContextSwitch(3 * Ms, 1, 0, VictimThread);           // it resumes on CPU 1 …
        t.SyscallExit(4 * Ms, 1);                              // … and returns there
        var (table, _) = t.Build();
        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual("Unknown", table.Rows[0].Process, "entered while the thread was unknown: counted under Unknown");
        Assert.AreEqual(3.0, (double)table.Rows[0].TotalSyscallTimeMs!, 1e-12);
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("had not returned")));
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("1 syscalls ran on a processor before its first context switch")), string.Join("\n", table.Notes.Texts()));
    }

    [TestMethod]
    public void Thread_that_migrates_inside_a_syscall_returns_on_its_new_processor()
    {
        var t = NewTracker();
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.ContextSwitch(0, 1, 0, QuietThread);
        t.SyscallEnter(1 * Ms, 0, NtDelayExecution);
        t.ContextSwitch(2 * Ms, 0, VictimThread, 0);
        t.SyscallEnter(2 * Ms, 1, NtClose);                    // quiet.exe on CPU 1
        t.SyscallExit(2 * Ms + 10 * Us, 1);
        t.ContextSwitch(5 * Ms, 1, QuietThread, VictimThread);
        t.SyscallExit(6 * Ms, 1);
        var (table, _) = t.Build();
        var victim = Enumerable.Range(0, table.Rows.Count).Single(r => table.Rows[r].Process == "victim.exe");
        var quiet = Enumerable.Range(0, table.Rows.Count).Single(r => table.Rows[r].Process == "quiet.exe");
        Assert.AreEqual(5.0, (double)table.Rows[victim].TotalSyscallTimeMs!, 1e-12);
        Assert.AreEqual(0.01, (double)table.Rows[quiet].TotalSyscallTimeMs!, 1e-12);
    }

    [TestMethod]
    public void Nested_syscalls_pair_innermost_first_and_samples_go_to_the_innermost()
    {
        var t = NewTracker();
        t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtDelayExecution);
        t.SyscallEnter(2 * Ms, 0, NtClose);
        t.SampleStack(t.Sample(2 * Ms + 500 * Us, 0, VictimThread), [EdrBase + 1]);
        t.SyscallExit(3 * Ms, 0);
        t.SyscallExit(5 * Ms, 0);
        var (table, _) = t.Build();
        int close = Enumerable.Range(0, table.Rows.Count).Single(r => table.Rows[r].Syscall == "ntoskrnl.exe+0x10040");
        int delay = Enumerable.Range(0, table.Rows.Count).Single(r => table.Rows[r].Syscall == "ntoskrnl.exe+0x42A10");
        Assert.AreEqual(1.0, (double)table.Rows[close].TotalSyscallTimeMs!, 1e-12);
        Assert.AreEqual("tedrdrv.sys", table.Rows[close].CulpritModule);
        Assert.AreEqual(4.0, (double)table.Rows[delay].TotalSyscallTimeMs!, 1e-12);
        Assert.AreEqual(0L, table.Rows[delay].SamplesInSyscalls);
        Assert.AreEqual(0, close, "the row with hook CPU sorts first");
    }

    [TestMethod]
    public void Stacks_of_a_32_bit_kernel_resolve_modules_and_name_syscalls()
    {
        var t = new SyscallHookTracker(Catalogue, ProcessOf);
        t.KernelImage(0, 0x8280_0000, 0x41_0000, @"\SystemRoot\system32\ntkrnlpa.exe");
        t.KernelImage(0, 0x8C40_0000, 0x2_0000, @"\SystemRoot\system32\DRIVERS\tedrdrv.sys");
        t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, 0x8284_1234);
        // A WOW64-style user frame above 2 GiB (large-address-aware) is not a kernel module and is ignored.
        t.SampleStack(t.Sample(1 * Ms + 10 * Us, 0, VictimThread), [0x8280_2000, 0x8C40_1F00, 0xBFF0_0000, 0x0040_1000]);
        t.SampleStack(t.Sample(1 * Ms + 20 * Us, 0, VictimThread), [0x8280_2000]);
        t.SyscallExit(1 * Ms + 50 * Us, 0);
        var (table, _) = t.Build();
        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual("ntkrnlpa.exe+0x41234", table.Rows[0].Syscall);
        Assert.AreEqual("tedrdrv.sys", table.Rows[0].CulpritModule);
        Assert.AreEqual(2L, table.Rows[0].SamplesInSyscalls);
        Assert.AreEqual(1.0, (double)table.Rows[0].HookCpuMs!, 1e-12);
    }

    [TestMethod]
    public void Hook_seen_only_with_unresolved_symbols_is_found_and_syscalls_are_named_module_plus_rva()
    {
        var (table, _) = Storm(5).Build();
        Assert.AreEqual("tedrdrv.sys", table.Rows[0].CulpritModule);
        Assert.AreEqual("ntoskrnl.exe+0x42A10", table.Rows[0].Syscall);
    }

    [TestMethod]
    public void Syscall_names_come_from_symbols_when_they_resolve()
    {
        var t = NewTracker((module, rva) => module == "ntoskrnl.exe" && rva == 0x4_2A10 ? "NtDelayExecution" : null);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtDelayExecution);
        t.SyscallExit(2 * Ms, 0);
        t.SyscallEnter(3 * Ms, 0, NtClose);
        t.SyscallExit(4 * Ms, 0);
        var (table, _) = t.Build();
        var names = Enumerable.Range(0, table.Rows.Count).Select(r => table.Rows[r].Syscall).Order(StringComparer.Ordinal).ToArray();
        CollectionAssert.AreEqual(new[] { "NtDelayExecution", "ntoskrnl.exe+0x10040" }, names);
    }

    [TestMethod]
    public void Syscall_address_outside_every_module_is_never_a_bare_address()
    {
        var t = new SyscallHookTracker(Catalogue, ProcessOf);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, 0xFFFF_F800_DEAD_0000);
        var (table, _) = t.Build();
        Assert.AreEqual("<no module>+0xFFFFF800DEAD0000", table.Rows[0].Syscall);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("No SysClExit events: syscalls are counted")), string.Join("\n", table.Notes.Texts()));
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("No kernel image loads or rundowns")));
    }

    [TestMethod]
    public void Hook_cpu_assumes_1_ms_when_the_trace_names_no_interval()
    {
        var (table, gaps) = Storm(10, interval: false).Build();
        Assert.AreEqual(10.0, (double)table.Rows[0].HookCpuMs!, 1e-12);
        CollectionAssert.Contains(table.Notes.Texts().ToList(), "The trace has no profile-interval event: Hook CPU assumes the Windows default sample interval of 1 ms.");
        Assert.AreEqual(1, gaps.Notes.Texts().Count);
    }

    [TestMethod]
    public void Samples_weigh_the_interval_in_effect_and_early_samples_take_the_first_interval_named()
    {
        var t = NewTracker();
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtClose);
        t.SampleStack(t.Sample(1 * Ms, 0, VictimThread), [EdrBase]);    // before any interval event: 0.5 ms (the first named)
        t.SampleInterval(2 * Ms, 500 * Us);
        t.SampleStack(t.Sample(3 * Ms, 0, VictimThread), [EdrBase]);    // 0.5 ms
        t.SampleInterval(4 * Ms, 2 * Ms);
        t.SampleStack(t.Sample(5 * Ms, 0, VictimThread), [EdrBase]);    // 2 ms
        t.SampleStack(t.Sample(6 * Ms, 0, VictimThread), [NtBase]);     // 2 ms, not in the hook
        t.SyscallExit(7 * Ms, 0);
        var (table, _) = t.Build();
        Assert.AreEqual(3.0, (double)table.Rows[0].HookCpuMs!, 1e-12);
        Assert.AreEqual(4L, table.Rows[0].SamplesInSyscalls);
        Assert.AreEqual(5.0 / 2.0, (double)table.Rows[0].Inflation!, 1e-12, "5 ms sampled ÷ (5 − 3 ms in the hook)");
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("default sample interval")));
    }

    [TestMethod]
    public void Samples_before_the_first_SetInterval_weigh_the_interval_it_replaced()
    {
        // A memory-mode trace whose start rundown is gone: the first interval event is a SetInterval from 1 ms to
        // 0.125 ms (another session asked for faster sampling); the samples before it were taken at 1 ms.
        var t = NewTracker();
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtClose);
        for (int i = 0; i < 4; i++) t.SampleStack(t.Sample((2 + i) * Ms, 0, VictimThread), [EdrBase]);
        t.SampleInterval(10 * Ms, 125 * Us, previousNs: 1 * Ms);
        for (int i = 0; i < 8; i++) t.SampleStack(t.Sample(11 * Ms + i * 125 * Us, 0, VictimThread), [EdrBase]);
        t.SyscallExit(13 * Ms, 0);
        var (table, _) = t.Build();
        Assert.AreEqual(4.0 + 1.0, (double)table.Rows[0].HookCpuMs!, 1e-12, "4 samples at 1 ms, 8 at 0.125 ms");
        Assert.IsFalse(table.Notes.Texts().Any(n => n.Contains("default sample interval")));
    }

    [TestMethod]
    public void User_mode_samples_never_count_inside_a_syscall_even_one_whose_exit_was_never_logged()
    {
        // GetMessage calls a window procedure back in user mode, which returns through NtCallbackReturn: no exit is
        // logged for it, so the exit that follows pairs with it and GetMessage stays open. The thread's user-mode
        // samples, then and later, are not syscall work.
        const ulong NtUserGetMessage = NtBase + 0x7_0000, NtCallbackReturn = NtBase + 0x7_1000;
        var t = NewTracker();
        t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtUserGetMessage);
        Assert.AreEqual(-1, t.Sample(2 * Ms, 0, VictimThread, inUserMode: true), "the window procedure runs in user mode");
        t.SyscallEnter(3 * Ms, 0, NtCallbackReturn);
        t.SyscallExit(4 * Ms, 0);
        for (int i = 0; i < 10; i++) Assert.AreEqual(-1, t.Sample((5 + i) * Ms, 0, VictimThread, inUserMode: true));
        var (table, _) = t.Build();
        Assert.AreEqual(0L, table.Rows.Sum(r => (long)r.SamplesInSyscalls!));
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("1 syscalls had no exit") && n.Contains("NtCallbackReturn")), string.Join("\n", table.Notes.Texts()));
    }

    [TestMethod]
    public void After_user_mode_code_a_threads_kernel_samples_are_in_no_syscall_it_left_open()
    {
        // GetMessage's exit pairs with NtCallbackReturn and GetMessage stays open. Once the thread is seen in user mode,
        // its kernel-mode samples (page faults through a filter driver) are not GetMessage's work, nor hook CPU.
        const ulong NtUserGetMessage = NtBase + 0x7_0000, NtCallbackReturn = NtBase + 0x7_1000;
        var t = NewTracker();
        t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtUserGetMessage);
        t.SyscallEnter(2 * Ms, 0, NtCallbackReturn);
        t.SyscallExit(3 * Ms, 0);
        t.Sample(4 * Ms, 0, VictimThread, inUserMode: true);
        for (int i = 0; i < 10; i++) Assert.AreEqual(-1, t.Sample((5 + i) * Ms, 0, VictimThread), "a page fault in user code is in no syscall");
        t.SyscallEnter(20 * Ms, 0, NtClose);
        int inClose = t.Sample(21 * Ms, 0, VictimThread);
        Assert.AreNotEqual(-1, inClose, "a syscall entered after it is at work");
        t.SampleStack(inClose, [NtBase + 0x10, EdrBase + 0x40]);
        t.SyscallExit(22 * Ms, 0);
        var (table, _) = t.Build();
        Assert.AreEqual(1L, table.Rows.Sum(r => (long)r.SamplesInSyscalls!));
        Assert.AreEqual(1.0, table.Rows.Sum(r => (double?)r.HookCpuMs ?? 0));
    }

    [TestMethod]
    public void A_syscall_stays_at_work_across_a_nested_call_that_returns_to_it_in_kernel_mode()
    {
        // Kernel code calling a system service nests a syscall; its exit returns to the outer call's kernel code, so
        // the outer call's later kernel samples are still its own (no user-mode sample came between).
        var t = NewTracker();
        t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtDelayExecution);
        t.SyscallEnter(2 * Ms, 0, NtClose);
        t.SyscallExit(3 * Ms, 0);
        for (int i = 0; i < 5; i++) Assert.AreNotEqual(-1, t.Sample((4 + i) * Ms, 0, VictimThread));
        t.SyscallExit(10 * Ms, 0);
        var (table, _) = t.Build();
        Assert.AreEqual(5L, table.Rows.Where(r => (r.Syscall).EndsWith("+0x42A10", StringComparison.Ordinal))
            .Sum(r => (long)r.SamplesInSyscalls!));
    }

    [TestMethod]
    public void A_hook_that_runs_before_its_syscalls_SysClEnter_is_stamped_is_still_that_syscalls()
    {
        // The driver hooks the logging of SysClEnter itself: a session whose event is stamped after the hook runs sees
        // the hook's CPU before the enter. Its samples come between the thread's syscalls, in kernel mode.
        var t = NewTracker();
        t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(0, 0, 0, VictimThread);
        var samples = new List<int>();
        for (int i = 0; i < 100; i++)
        {
            long now = (i + 1) * Ms;
            t.SyscallEnter(now - 40 * Us, 0, NtDelayExecution);
            t.SyscallExit(now - 39 * Us, 0);
            samples.Add(t.Sample(now, 0, VictimThread));
            t.SyscallEnter(now + 32 * Us, 0, NtDelayExecution);
            t.SyscallExit(now + 33 * Us, 0);
        }
        foreach (var sample in samples) t.SampleStack(sample, [EdrBase + 0x4418, NtBase + 0x30_0000, NtBase + 0x31_0000]); // as at the end
        var (table, _) = t.Build();
        Assert.AreEqual("tedrdrv.sys", table.Rows[0].CulpritModule);
        Assert.AreEqual(100.0, (double)table.Rows[0].HookCpuMs!, 1e-9);
        Assert.AreEqual(100L, table.Rows[0].SamplesInSyscalls);
    }

    [TestMethod]
    public void Kernel_samples_after_user_code_or_long_after_a_syscall_are_no_syscalls_entry()
    {
        var t = NewTracker();
        t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtClose);
        t.SyscallExit(1 * Ms + 10 * Us, 0);
        t.Sample(2 * Ms, 0, VictimThread, inUserMode: true);                          // user code ran
        Assert.AreEqual(-1, t.Sample(2 * Ms + 500 * Us, 0, VictimThread), "a page fault after user code");
        t.SyscallEnter(3 * Ms, 0, NtClose);
        t.SyscallExit(3 * Ms + 10 * Us, 0);
        Assert.AreEqual(-1, t.Sample(10 * Ms, 0, VictimThread), "7 ms after the last syscall returned");
        t.SyscallEnter(10 * Ms + 10 * Us, 0, NtClose);
        t.SyscallExit(10 * Ms + 20 * Us, 0);
        var (table, _) = t.Build();
        Assert.AreEqual(0L, table.Rows.Sum(r => (long)r.SamplesInSyscalls!));
    }

    [TestMethod]
    public void Calls_of_a_thread_that_made_them_only_during_a_profiling_gap_are_left_out_of_the_overhead_per_syscall()
    {
        // Thread 1000 calls NtClose while samples are taken (10 calls, 10 hook samples); thread 1001 of the same process
        // makes 1,000 calls in a 200 ms pause of the sampling and none after it.
        var t = new SyscallHookTracker(Catalogue, (tid, time) => tid is VictimThread or VictimThread + 1 ? Victim : null);
        t.KernelImage(0, NtBase, 0x100_0000, @"\SystemRoot\system32\ntoskrnl.exe");
        t.KernelImage(0, EdrBase, 0x10_0000, @"\SystemRoot\System32\drivers\tedrdrv.sys");
        t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.ContextSwitch(0, 1, 0, VictimThread + 1);
        var samples = new List<int>();
        for (int i = 0; i < 10; i++)
        {
            t.SyscallEnter(i * Ms + 100 * Us, 0, NtClose);
            samples.Add(t.Sample(i * Ms + 500 * Us, 0, VictimThread));
            t.SyscallExit(i * Ms + 900 * Us, 0);
        }
        for (int i = 0; i < 1_000; i++)
        {
            t.SyscallEnter(20 * Ms + i * 200 * Us, 1, NtClose);
            t.SyscallExit(20 * Ms + i * 200 * Us + 50 * Us, 1);
        }
        t.Sample(300 * Ms, 0, VictimThread, inUserMode: true);                      // sampling resumes
        foreach (var sample in samples) t.SampleStack(sample, [EdrBase + 0x40, NtBase + 0x10]);
        var (table, _) = t.Build();
        Assert.AreEqual(1_010L, table.Rows[0].Syscalls);
        Assert.AreEqual(10.0 * 1000 / 10, (double)table.Rows[0].HookOverheadPerSyscallUs!, 1e-9, "10 ms of hook over the 10 sampled calls");
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("1,000 syscalls of rows with a culprit were made during profiling gaps")), string.Join(" | ", table.Notes.Texts()));
    }

    [TestMethod]
    public void Syscalls_left_in_user_mode_before_the_first_context_switch_stay_suspended_once_their_thread_is_known()
    {
        const ulong NtUserGetMessage = NtBase + 0x7_0000;
        var t = NewTracker();
        t.SampleInterval(0, 1 * Ms);
        t.SyscallEnter(1 * Ms, 0, NtUserGetMessage);                                 // processor 0's thread not known yet
        t.Sample(2 * Ms, 0, VictimThread, inUserMode: true);                          // it runs user code (a callback)
        t.ContextSwitch(3 * Ms, 0, VictimThread, VictimThread + 1);                   // now known; switched out and back
        t.ContextSwitch(4 * Ms, 0, VictimThread + 1, VictimThread);
        Assert.AreEqual(-1, t.Sample(5 * Ms, 0, VictimThread), "a page fault in its user code is not GetMessage's work");
    }

    [TestMethod]
    public void A_driver_unloaded_and_loaded_again_is_one_culprit_row()
    {
        // An EDR driver updated mid-trace: unloaded, then loaded at another base. Its samples from both loads are one
        // culprit's, and the inflation is measured against the syscall's samples once.
        const ulong NewEdrBase = 0xFFFF_F801_6000_0000;
        var t = NewTracker();
        t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtClose);
        for (int i = 0; i < 9; i++) t.SampleStack(t.Sample((2 + i) * Ms, 0, VictimThread), [NtBase + 0x10, EdrBase + 0x40]);
        t.KernelImageUnloaded(11 * Ms, EdrBase, 0x10_0000, @"\SystemRoot\System32\drivers\tedrdrv.sys");
        t.KernelImage(12 * Ms, NewEdrBase, 0x10_0000, @"\SystemRoot\System32\drivers\TEDRDRV.SYS");
        for (int i = 0; i < 9; i++) t.SampleStack(t.Sample((13 + i) * Ms, 0, VictimThread), [NtBase + 0x10, NewEdrBase + 0x40]);
        t.SampleStack(t.Sample(22 * Ms, 0, VictimThread), [NtBase + 0x10]);
        t.SampleStack(t.Sample(23 * Ms, 0, VictimThread), [NtBase + 0x10]);
        t.SyscallExit(24 * Ms, 0);
        var (table, _) = t.Build();
        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual("tedrdrv.sys", table.Rows[0].CulpritModule, "named as first loaded");
        Assert.AreEqual(18.0, (double)table.Rows[0].HookCpuMs!, 1e-12);
        Assert.AreEqual(20.0 / 2.0, (double)table.Rows[0].Inflation!, 1e-12, "20 ms sampled ÷ (20 − 18 ms in the hook)");
    }

    [TestMethod]
    public void Samples_in_a_dpc_or_interrupt_do_not_count_inside_the_syscall()
    {
        var t = NewTracker();
        t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtClose);
        Assert.AreEqual(-1, t.Sample(2 * Ms, 0, VictimThread, inInterrupt: true));
        t.SyscallExit(3 * Ms, 0);
        var (table, _) = t.Build();
        Assert.AreEqual(0L, table.Rows[0].SamplesInSyscalls);
    }

    [TestMethod]
    public void Inflation_is_empty_when_every_sample_is_in_the_hook()
    {
        var t = NewTracker();
        t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtClose);
        t.SampleStack(t.Sample(2 * Ms, 0, VictimThread), [EdrBase]);
        t.SyscallExit(3 * Ms, 0);
        var (table, _) = t.Build();
        Assert.AreEqual(1.0, (double)table.Rows[0].HookCpuMs!, 1e-12);
        Assert.IsNull(table.Rows[0].Inflation);
    }

    [TestMethod]
    public void Two_culprits_in_one_syscall_give_one_row_each()
    {
        var t = NewTracker();
        t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtClose);
        t.SampleStack(t.Sample(2 * Ms, 0, VictimThread), [EdrBase, OtherEdrBase]);
        t.SampleStack(t.Sample(3 * Ms, 0, VictimThread), [EdrBase]);
        t.SampleStack(t.Sample(4 * Ms, 0, VictimThread), [NtBase]);
        t.SyscallExit(5 * Ms, 0);
        var (table, _) = t.Build();
        Assert.AreEqual(2, table.Rows.Count);
        Assert.AreEqual("tedrdrv.sys", table.Rows[0].CulpritModule);
        Assert.AreEqual(2.0, (double)table.Rows[0].HookCpuMs!, 1e-12);
        Assert.AreEqual(3.0, (double)table.Rows[0].Inflation!, 1e-12);
        Assert.AreEqual("CSAgent.sys", table.Rows[1].CulpritModule);
        Assert.AreEqual("CrowdStrike", table.Rows[1].Vendor);
        Assert.AreEqual(1.0, (double)table.Rows[1].HookCpuMs!, 1e-12);
        Assert.AreEqual(1.5, (double)table.Rows[1].Inflation!, 1e-12);
    }

    [TestMethod]
    public void Samples_without_stacks_are_counted_and_reported()
    {
        var t = NewTracker();
        t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtClose);
        t.Sample(2 * Ms, 0, VictimThread);
        t.SyscallExit(3 * Ms, 0);
        var (table, _) = t.Build();
        Assert.AreEqual(1L, table.Rows[0].SamplesInSyscalls);
        Assert.IsNull(table.Rows[0].CulpritModule);
        Assert.IsTrue(table.Notes.Texts().Any(n => n.StartsWith("No stacks on the CPU samples")), string.Join("\n", table.Notes.Texts()));
    }

    [TestMethod]
    public void Trace_without_syscall_events_gives_an_empty_table_naming_the_profile()
    {
        var t = NewTracker();
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.Sample(1 * Ms, 0, VictimThread);
        var (table, _) = t.Build();
        Assert.AreEqual(0, table.Rows.Count);
        Assert.AreEqual(1, table.Notes.Texts().Count);
        StringAssert.Contains(table.Notes.Texts()[0], "MultiProfile.wprp!SysCall");
    }

    [TestMethod]
    public void Unloaded_module_range_does_not_name_a_later_frame()
    {
        var t = NewTracker();
        t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.KernelImageUnloaded(1 * Ms, GpuBase, 0x10_0000, @"\SystemRoot\System32\drivers\acmegpu.sys");
        t.SyscallEnter(2 * Ms, 0, NtClose);
        t.SampleStack(t.Sample(3 * Ms, 0, VictimThread), [GpuBase + 0x10]);
        t.SyscallExit(4 * Ms, 0);
        var (table, _) = t.Build();
        Assert.IsNull(table.Rows[0].CulpritModule);
    }

    [TestMethod]
    public void A_driver_known_only_from_its_unload_is_the_culprit_of_its_frames_before_it()
    {
        // A circular-buffer trace lost the start rundown: the EDR driver unloaded mid-trace appears only in its Unload
        // event, which names it. Its frames before the unload are its own, also once the stacks are matched at the end.
        const ulong UpdatedEdrBase = 0xFFFF_F801_8000_0000; // not in the rundown
        var t = NewTracker();
        t.SampleInterval(0, 1 * Ms);
        t.ContextSwitch(0, 0, 0, VictimThread);
        t.SyscallEnter(1 * Ms, 0, NtClose);
        var samples = Enumerable.Range(0, 10).Select(i => t.Sample((2 + i) * Ms, 0, VictimThread)).ToList();
        t.SyscallExit(12 * Ms, 0);
        t.KernelImageUnloaded(20 * Ms, UpdatedEdrBase, 0x10_0000, @"\SystemRoot\System32\drivers\tedrdrv.sys");
        t.KernelImage(30 * Ms, UpdatedEdrBase, 0x10_0000, @"\SystemRoot\System32\drivers\acmeusb.sys"); // another driver, later, at that base
        foreach (var sample in samples) t.SampleStack(sample, [NtBase + 0x10, UpdatedEdrBase + 0x40]);
        var (table, _) = t.Build();
        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual("tedrdrv.sys", table.Rows[0].CulpritModule);
        Assert.AreEqual(10.0, table.Rows[0].HookCpuMs);
    }

    [TestMethod]
    public void Reused_thread_id_is_placed_in_the_process_it_belonged_to_at_the_time()
    {
        var later = new ProcessRef(300, 50 * Ms, "later.exe");
        var t = new SyscallHookTracker(Catalogue, (tid, time) => tid == 7 ? (time < 40 * Ms ? Victim : later) : null);
        t.KernelImage(0, NtBase, 0x100_0000, @"\SystemRoot\system32\ntoskrnl.exe");
        t.ContextSwitch(0, 0, 0, 7);
        t.SyscallEnter(10 * Ms, 0, NtClose);
        t.SyscallExit(11 * Ms, 0);
        t.ThreadEnded(20 * Ms, 7);
        t.ContextSwitch(60 * Ms, 0, 0, 7);
        t.SyscallEnter(60 * Ms, 0, NtClose);
        t.SyscallExit(62 * Ms, 0);
        var (table, _) = t.Build();
        Assert.AreEqual(2, table.Rows.Count);
        var byProcess = Enumerable.Range(0, table.Rows.Count).ToDictionary(r => table.Rows[r].Process, r => (double)table.Rows[r].TotalSyscallTimeMs!);
        Assert.AreEqual(1.0, byProcess["victim.exe"], 1e-12);
        Assert.AreEqual(2.0, byProcess["later.exe"], 1e-12);
    }

    [TestMethod]
    public void Thread_the_trace_never_places_is_counted_under_Unknown()
    {
        var t = NewTracker();
        t.ContextSwitch(0, 0, 0, 31337);
        t.SyscallEnter(1 * Ms, 0, NtClose);
        t.SyscallExit(2 * Ms, 0);
        var (table, _) = t.Build();
        Assert.AreEqual("Unknown", table.Rows[0].Process);
        Assert.IsNull(table.Rows[0].Pid);
        Assert.AreEqual(1.0, (double)table.Rows[0].TotalSyscallTimeMs!, 1e-12);
    }

    [TestMethod]
    public void Threads_of_one_process_merge_into_one_row()
    {
        var t = new SyscallHookTracker(Catalogue, (tid, _) => tid is 1 or 2 ? Victim : null);
        t.KernelImage(0, NtBase, 0x100_0000, @"\SystemRoot\system32\ntoskrnl.exe");
        t.ContextSwitch(0, 0, 0, 1);
        t.ContextSwitch(0, 1, 0, 2);
        t.SyscallEnter(1 * Ms, 0, NtClose);
        t.SyscallEnter(1 * Ms, 1, NtClose);
        t.SyscallExit(2 * Ms, 0);
        t.SyscallExit(4 * Ms, 1);
        var (table, _) = t.Build();
        Assert.AreEqual(1, table.Rows.Count);
        Assert.AreEqual(2L, table.Rows[0].Syscalls);
        Assert.AreEqual(2000.0, (double)table.Rows[0].MeanSyscallTimeUs!, 1e-9);
        Assert.AreEqual(1 * Ms, table.Rows[0].First);
        Assert.AreEqual(4 * Ms, table.Rows[0].Last);
    }
}
