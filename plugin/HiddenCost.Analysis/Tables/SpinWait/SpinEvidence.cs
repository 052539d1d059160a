namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>What a CPU sample says about spinning.</summary>
public enum SpinEvidence : byte
{
    /// <summary>Nothing to tell by: a kernel-only sample without a stack, a runtime-owned thread. Changes nothing.</summary>
    Unknown,
    /// <summary>The thread ran ordinary code (its own or a library's): a spin run ends here, and so does any wait.</summary>
    NotSpin,
    /// <summary>
    /// Runtime code (coreclr.dll/clr.dll) with no symbol naming it, called directly from managed code, or an
    /// instruction pointer in the runtime with no stack. Spinning looks like this without symbols, but so do GC,
    /// JIT and every other call into the runtime; <see cref="SpinWaitTracker"/> tells them apart by the runtime
    /// code path (<see cref="SampleClass.RuntimePath"/>).
    /// </summary>
    PossibleSpin,
    /// <summary>A frame that is spin code by name: a lock slow path, SpinWait, a contended critical section.</summary>
    Spin,
    /// <summary>Code in an OpenMP runtime module (its worker threads spin-wait between parallel regions).</summary>
    OpenMp,
}

/// <summary>
/// A classified CPU sample: the evidence, the call site (the nearest caller outside spin and runtime code), for
/// OpenMP samples the runtime module, and for runtime code the <see cref="RuntimePath"/>: a fingerprint of the
/// return addresses inside the runtime between the leaf and the call site (0 when there are none).
/// </summary>
public readonly record struct SampleClass(SpinEvidence Evidence, string? CallSite = null, string? Module = null, ulong RuntimePath = 0)
{
    public static readonly SampleClass NotSpin = new(SpinEvidence.NotSpin);
    public static readonly SampleClass Unknown = new(SpinEvidence.Unknown);

    public bool IsLockSpin => Evidence is SpinEvidence.Spin or SpinEvidence.PossibleSpin;
}
