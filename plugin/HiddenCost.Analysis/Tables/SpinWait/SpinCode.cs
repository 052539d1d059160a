namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>
/// The code that counts as spinning, by module and by function name. Names come from the runtimes' sources and
/// the product definition (issue 10); the stack tags in stacktags/ tag the same code for WPA's own tables.
/// </summary>
public static class SpinCode
{
    /// <summary>The .NET runtime's native module: CoreCLR, .NET Framework 4.x, and .NET Framework 2.0–3.5.</summary>
    private static readonly string[] RuntimeModules = { "coreclr.dll", "clr.dll", "mscorwks.dll" };

    /// <summary>
    /// User-mode system modules a spin loop passes through on its way to the kernel (SwitchToThread, Sleep(0),
    /// NtYieldExecution): transparent when walking from the leaf, never evidence of spinning on their own.
    /// </summary>
    private static readonly string[] SystemModules = { "ntdll.dll", "kernelbase.dll", "kernel32.dll", "win32u.dll", "wow64.dll", "wow64cpu.dll", "wow64win.dll" };

    /// <summary>
    /// Native functions whose samples are spinning (or the slow path around it), matched as substrings of the symbol.
    /// A <c>Class::Method</c> rule also matches the MSVC-decorated public (<c>?Method@Class@@…</c>): PDB publics keep
    /// C++ names decorated. The list is documented in this folder's README ("Native spin functions").
    /// </summary>
    private static readonly string[] NativeSpinFunctions =
    {
        // CoreCLR / .NET Framework: Monitor's contention and spin paths, Thread.SpinWait, the normalised pause.
        "AwareLock::Contention", "AwareLock::EnterEpilog", "AwareLock::SpinWait", "JITutil_MonContention",
        "JITutil_MonEnterWorker", "JIT_MonEnterWorker_Portable", "ThreadNative::SpinWait", "Thread::SpinWait", "YieldProcessorNormalized",
        // ntdll critical sections and SRW locks under contention, and the address waits they (and WaitOnAddress) spin in.
        "RtlpEnterCriticalSectionContended", "RtlpWaitOnCriticalSection",
        "RtlpAcquireSRWLockExclusiveContended", "RtlpAcquireSRWLockSharedContended", "RtlAcquireSRWLockExclusive", "RtlAcquireSRWLockShared",
        "WaitOnAddress",
        // kernelbase's yields: CPU sampled in them is a Sleep(0) or SwitchToThread loop (a blocked sleep is never sampled).
        "SleepEx", "SwitchToThread",
        // OpenMP runtimes' wait loops.
        "__kmp_wait", "__kmp_yield", "__kmp_hyper_barrier", "__kmp_fork_barrier", "__kmp_join_barrier",
    };

    /// <summary>Native functions matched by their whole name only (too short to match inside other names): the runtime's free SpinWait.</summary>
    private static readonly string[] WholeNativeSpinFunctions = { "SpinWait" };

    /// <summary>The substrings <see cref="IsNativeSpinFunction"/> looks for: each rule, and for a C++ rule its decorated form.</summary>
    private static readonly string[] NativeSpinPatterns = NativeSpinFunctions
        .Concat(NativeSpinFunctions.Where(f => f.Contains("::", StringComparison.Ordinal)).Select(Decorated))
        .ToArray();

    /// <summary><c>A::B::f</c> → <c>?f@B@A@@</c>: how MSVC's decorated name of a member function begins.</summary>
    private static string Decorated(string qualified) => "?" + string.Join("@", Enumerable.Reverse(qualified.Split("::"))) + "@@";

    /// <summary>Managed types whose methods are the lock or spin API: they sit between the spin code and the call site.</summary>
    private static readonly string[] ManagedLockTypes =
    {
        "System.Threading.Monitor.", "System.Threading.Lock.", "System.Threading.SpinLock.", "System.Threading.SpinWait.",
        "System.Threading.ObjectHeader.", "System.Threading.Thread.SpinWait",
    };

    /// <summary>Of those, the methods that only run when the lock is contended (the spin and slow paths).</summary>
    private static readonly string[] ManagedSpinMarkers = { "Slow", "Spin", "Contention", "ContinueTryEnter", "ReliableEnter" };

    public static bool IsRuntimeModule(string? module) => Matches(module, RuntimeModules);

    public static bool IsSystemModule(string? module) => Matches(module, SystemModules);

    /// <summary>Intel's libiomp5md.dll, LLVM's libomp*.dll (MSVC /openmp:llvm) and MSVC's vcomp*.dll.</summary>
    public static bool IsOpenMpModule(string? module)
    {
        if (module is null) return false;
        var name = FileName(module);
        return name.StartsWith("libiomp5", StringComparison.OrdinalIgnoreCase)
               || name.StartsWith("libomp", StringComparison.OrdinalIgnoreCase)
               || name.StartsWith("vcomp", StringComparison.OrdinalIgnoreCase);
    }

    public static bool IsNativeSpinFunction(string? function)
    {
        if (function is null) return false;
        foreach (var f in NativeSpinPatterns)
            if (function.Contains(f, StringComparison.Ordinal)) return true;
        foreach (var f in WholeNativeSpinFunctions)
            if (function == f || function.StartsWith("?" + f + "@@", StringComparison.Ordinal)) return true;
        return false;
    }

    /// <summary>A method of the managed lock/spin API (Monitor, Lock, SpinLock, SpinWait, Thread.SpinWait).</summary>
    public static bool IsManagedLockApi(string? method)
    {
        if (method is null) return false;
        foreach (var t in ManagedLockTypes)
            if (method.StartsWith(t, StringComparison.Ordinal)) return true;
        return false;
    }

    /// <summary>
    /// A wait handle's wait (System.Threading.Lock blocks through one, .NET 9 on): between a lock's slow path and the
    /// kernel, the thread is entering or leaving its blocking wait.
    /// </summary>
    public static bool IsWaitHandle(string? method) => method is not null && method.StartsWith("System.Threading.WaitHandle.", StringComparison.Ordinal);

    /// <summary>A managed lock API method that only runs under contention: SpinWait.SpinOnce, Lock.TryEnterSlow, …</summary>
    public static bool IsManagedSpinMethod(string? method)
    {
        if (!IsManagedLockApi(method)) return false;
        if (method!.StartsWith("System.Threading.SpinWait.", StringComparison.Ordinal)
            || method.StartsWith("System.Threading.Thread.SpinWait", StringComparison.Ordinal)) return true;
        int dot = method.LastIndexOf('.');
        var name = method.AsSpan(dot + 1);
        foreach (var m in ManagedSpinMarkers)
            if (name.Contains(m, StringComparison.Ordinal)) return true;
        return false;
    }

    private static bool Matches(string? module, string[] names)
    {
        if (module is null) return false;
        var name = FileName(module);
        foreach (var n in names)
            if (name.Equals(n, StringComparison.OrdinalIgnoreCase)) return true;
        return false;
    }

    /// <summary>The file name of a module given as a file name or a full (NT or DOS) path.</summary>
    public static ReadOnlySpan<char> FileName(string module) => module.AsSpan(module.LastIndexOfAny(PathSeparators) + 1);

    private static readonly char[] PathSeparators = { '\\', '/' };
}
