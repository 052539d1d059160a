using HiddenCost.Analysis.Tables.SpinWait;

namespace HiddenCost.Analysis.Tests;

/// <summary>Which sampled stacks are spinning, and which frame is the call site (stacks leaf first).</summary>
[TestClass]
public sealed class SpinClassifierTests
{
    private static SampleClass Classify(params StackFrame[] frames) => SpinClassifier.Classify(frames, hasStack: true);

    private static readonly StackFrame Caller = StackFrame.Managed("Shop.Inventory.Reserve");

    [TestMethod]
    public void AwareLock_contention_with_symbols_is_spin_called_from_the_managed_caller()
    {
        var c = Classify(StackFrame.Native("coreclr.dll", "AwareLock::Contention"), StackFrame.Native("coreclr.dll", "JIT_MonEnter_Portable"),
            Caller, StackFrame.Managed("Shop.Program.Main"));
        Assert.AreEqual(new SampleClass(SpinEvidence.Spin, "Shop.Inventory.Reserve"), c with { RuntimePath = 0 });
    }

    [TestMethod]
    public void Decorated_cpp_publics_of_the_runtimes_spin_functions_are_spin()
    {
        // PDB publics keep C++ names decorated: AwareLock::SpinWait is ?SpinWait@AwareLock@@…
        var c = Classify(StackFrame.Native("coreclr.dll", "?SpinWait@AwareLock@@QEAAHHK@Z"), StackFrame.Native("coreclr.dll", "?Contention@AwareLock@@QEAAXH@Z"), Caller);
        Assert.AreEqual(new SampleClass(SpinEvidence.Spin, "Shop.Inventory.Reserve"), c with { RuntimePath = 0 });
        Assert.IsTrue(SpinCode.IsNativeSpinFunction("?SpinWait@Thread@@SAXK@Z"));
        Assert.IsTrue(SpinCode.IsNativeSpinFunction("?SpinWait@@YAXHH@Z"));
        Assert.IsTrue(SpinCode.IsNativeSpinFunction("SpinWait"));
        Assert.IsFalse(SpinCode.IsNativeSpinFunction("?SpinWaitTimeout@Config@@QEAAHXZ"), "a whole-name rule matches no longer name");
        Assert.IsFalse(SpinCode.IsNativeSpinFunction("RtlEnterCriticalSection"), "the uncontended entry is no spin");
    }

    [TestMethod]
    public void Contended_critical_sections_SRW_locks_and_address_waits_are_spin_of_their_native_caller()
    {
        var app = StackFrame.Native("render.exe", "SceneGraph::Update");
        foreach (var function in new[] { "RtlpEnterCriticalSectionContended", "RtlpWaitOnCriticalSection", "RtlpAcquireSRWLockExclusiveContended",
                     "RtlAcquireSRWLockShared", "RtlpWaitOnAddress", "RtlWaitOnAddress" })
        {
            var c = Classify(StackFrame.Kernel("ntoskrnl.exe"), StackFrame.Native("ntdll.dll", function), StackFrame.Native("ntdll.dll", "RtlEnterCriticalSection"), app);
            Assert.AreEqual(new SampleClass(SpinEvidence.Spin, "render.exe!SceneGraph::Update"), c, function);
        }
        var yield = Classify(StackFrame.Native("ntdll.dll", "NtYieldExecution"), StackFrame.Native("KernelBase.dll", "SwitchToThread"), app);
        Assert.AreEqual(new SampleClass(SpinEvidence.Spin, "render.exe!SceneGraph::Update"), yield);
        // Unnamed, the same ntdll frames are a system module passed through: the application's own code, no spin.
        Assert.AreEqual(SampleClass.NotSpin, Classify(StackFrame.Native("ntdll.dll"), StackFrame.Native("ntdll.dll"), StackFrame.Native("render.exe")));
    }

    [TestMethod]
    public void A_locks_blocking_wait_through_a_wait_handle_is_neither_spin_nor_own_code()
    {
        // System.Threading.Lock (.NET 9+) blocks through its wait event: entering or leaving that wait is not the
        // thread's own code (which would end its contention) nor spin.
        var inLock = Classify(StackFrame.Native("ntdll.dll"), StackFrame.Native("coreclr.dll"), StackFrame.Managed("System.Threading.WaitHandle.WaitOneNoCheck"),
            StackFrame.Managed("System.Threading.WaitHandle.WaitOne"), StackFrame.Managed("System.Threading.Lock.TryEnterSlow"),
            StackFrame.Managed("System.Threading.Lock.Enter"), Caller);
        Assert.AreEqual(SampleClass.Unknown, inLock);
        var managedLeaf = Classify(StackFrame.Managed("System.Threading.WaitHandle.WaitOneNoCheck"), StackFrame.Managed("System.Threading.Lock.TryEnterSlow"), Caller);
        Assert.AreEqual(SampleClass.Unknown, managedLeaf);
    }

    [TestMethod]
    public void A_wait_handle_wait_of_the_threads_own_is_classified_as_before()
    {
        // Not under a lock: the wait handle is the caller of the runtime code, as it was.
        var c = Classify(StackFrame.Native("coreclr.dll"), StackFrame.Managed("System.Threading.WaitHandle.WaitOneNoCheck"),
            StackFrame.Managed("System.Threading.WaitHandle.WaitOne"), Caller);
        Assert.AreEqual(new SampleClass(SpinEvidence.PossibleSpin, "System.Threading.WaitHandle.WaitOneNoCheck"), c with { RuntimePath = 0 });
        Assert.AreEqual(SampleClass.NotSpin, Classify(StackFrame.Managed("System.Threading.WaitHandle.WaitOneNoCheck"), Caller));
    }

    [TestMethod]
    public void Unnamed_runtime_code_called_directly_from_managed_code_is_possible_spin()
    {
        var c = Classify(StackFrame.Native("coreclr.dll"), StackFrame.Native("coreclr.dll"), Caller);
        Assert.AreEqual(new SampleClass(SpinEvidence.PossibleSpin, "Shop.Inventory.Reserve"), c with { RuntimePath = 0 });
    }

    [TestMethod]
    public void Clr_dll_of_the_framework_counts_as_the_runtime_too()
    {
        var c = Classify(StackFrame.Native(@"\Device\HarddiskVolume3\Windows\Microsoft.NET\Framework64\v4.0.30319\clr.dll"), Caller);
        Assert.AreEqual(SpinEvidence.PossibleSpin, c.Evidence);
    }

    [TestMethod]
    public void Runtime_path_fingerprints_the_return_addresses_not_the_wandering_leaf()
    {
        static SampleClass At(ulong leaf, ulong caller) => Classify(StackFrame.Native("coreclr.dll", address: leaf),
            StackFrame.Native("coreclr.dll", address: caller), StackFrame.Native("coreclr.dll", address: 0x7FF8_4C1C_7A20), Caller);
        var spinA = At(0x7FF8_4C1B_2C40, 0x7FF8_4C1B_3010);
        var spinB = At(0x7FF8_4C1B_2C58, 0x7FF8_4C1B_3010);
        var other = At(0x7FF8_4C1B_2C40, 0x7FF8_4C09_8120);
        Assert.AreNotEqual(0UL, spinA.RuntimePath);
        Assert.AreEqual(spinA.RuntimePath, spinB.RuntimePath, "the leaf instruction pointer is not part of the path");
        Assert.AreNotEqual(spinA.RuntimePath, other.RuntimePath);
        Assert.AreEqual(0UL, Classify(StackFrame.Native("coreclr.dll", address: 0x7FF8_4C1B_2C40), Caller).RuntimePath,
            "a leaf alone has no return addresses inside the runtime");
    }

    [TestMethod]
    public void Managed_Lock_slow_path_is_passed_through_to_the_user_method()
    {
        var c = Classify(StackFrame.Native("coreclr.dll"), StackFrame.Managed("System.Threading.Thread.SpinWaitInternal"),
            StackFrame.Managed("System.Threading.Lock.TryEnterSlow"), StackFrame.Managed("System.Threading.Lock.Enter"), Caller);
        Assert.AreEqual(new SampleClass(SpinEvidence.Spin, "Shop.Inventory.Reserve"), c);
    }

    [TestMethod]
    public void Kernel_and_system_dll_frames_of_a_yield_inside_a_spin_are_passed_through()
    {
        var c = Classify(StackFrame.Kernel("ntoskrnl.exe"), StackFrame.Native("ntdll.dll", "NtYieldExecution"),
            StackFrame.Native("KERNELBASE.dll", "SwitchToThread"), StackFrame.Native("coreclr.dll"),
            StackFrame.Managed("System.Threading.SpinWait.SpinOnce"), Caller);
        Assert.AreEqual(new SampleClass(SpinEvidence.Spin, "Shop.Inventory.Reserve"), c);
    }

    [TestMethod]
    public void Contended_critical_section_names_the_native_caller()
    {
        var c = Classify(StackFrame.Native("ntdll.dll", "RtlpEnterCriticalSectionContended"), StackFrame.Native("ntdll.dll", "RtlEnterCriticalSection"),
            StackFrame.Native("render.dll", "TileCache::Lookup"), StackFrame.Native("render.exe", "main"));
        Assert.AreEqual(new SampleClass(SpinEvidence.Spin, "render.dll!TileCache::Lookup"), c);
    }

    [TestMethod]
    public void OpenMP_runtime_at_the_leaf_is_OpenMP_whatever_calls_it()
    {
        var c = Classify(StackFrame.Kernel(), StackFrame.Native("ntdll.dll"), StackFrame.Native("libiomp5md.dll"), StackFrame.Native("solver.exe"));
        Assert.AreEqual(new SampleClass(SpinEvidence.OpenMp, null, "libiomp5md.dll"), c);
        Assert.AreEqual(SpinEvidence.OpenMp, Classify(StackFrame.Native("VCOMP140.DLL"), StackFrame.Native("solver.exe")).Evidence);
    }

    [TestMethod]
    public void Ordinary_code_at_the_leaf_is_not_spin()
    {
        Assert.AreEqual(SampleClass.NotSpin, Classify(Caller, StackFrame.Managed("Shop.Program.Main")));
        Assert.AreEqual(SampleClass.NotSpin, Classify(StackFrame.Native("ntdll.dll", "memcpy"), StackFrame.Native("app.exe", "Copy")));
        Assert.AreEqual(SampleClass.NotSpin, Classify(StackFrame.Managed("System.Threading.Lock.Enter"), Caller),
            "the uncontended fast path of the lock API is not spin");
    }

    [TestMethod]
    public void Runtime_code_called_from_native_code_or_owning_its_thread_is_not_lock_spin()
    {
        Assert.AreEqual(SampleClass.NotSpin, Classify(StackFrame.Native("coreclr.dll"), StackFrame.Native("host.exe", "RunApp")));
        Assert.AreEqual(SampleClass.Unknown, Classify(StackFrame.Native("coreclr.dll"), StackFrame.Native("coreclr.dll"), StackFrame.Native("kernel32.dll")),
            "a GC thread starts in the runtime");
    }

    [TestMethod]
    public void Runtime_code_above_unnamed_jitted_code_is_possible_spin_without_a_site()
    {
        var c = Classify(StackFrame.Native("coreclr.dll"), new StackFrame(FrameOrigin.Unknown, null, null));
        Assert.AreEqual(new SampleClass(SpinEvidence.PossibleSpin), c);
    }

    [TestMethod]
    public void Instruction_pointer_alone_gives_evidence_but_no_call_site()
    {
        Assert.AreEqual(new SampleClass(SpinEvidence.PossibleSpin), SpinClassifier.Classify(new[] { StackFrame.Native("coreclr.dll") }, hasStack: false));
        Assert.AreEqual(new SampleClass(SpinEvidence.Spin), SpinClassifier.Classify(new[] { StackFrame.Native("coreclr.dll", "AwareLock::Contention") }, hasStack: false));
        Assert.AreEqual(SampleClass.Unknown, SpinClassifier.Classify(new[] { StackFrame.Kernel() }, hasStack: false));
        Assert.AreEqual(SampleClass.NotSpin, SpinClassifier.Classify(new[] { StackFrame.Native("app.exe") }, hasStack: false));
    }
}
