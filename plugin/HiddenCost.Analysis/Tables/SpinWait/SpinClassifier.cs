namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>
/// Decides from a sample's frames whether the thread was spinning and where it was called from. Walking from the
/// leaf, kernel frames and user-mode system DLLs are passed through (a spin loop reaches the kernel through
/// SwitchToThread or Sleep(0)); then the spin region is the run of spin functions, runtime-module frames and
/// managed lock API frames; the first frame past it is the call site. The region is spin when a frame in it is
/// spin code by name, possible spin when it only holds unnamed runtime code called directly from managed code.
/// </summary>
public static class SpinClassifier
{
    /// <summary>Classifies a sample from its stack, leaf first.</summary>
    /// <param name="frames">The stack, leaf first; for a sample without a stack, just the instruction pointer's frame.</param>
    /// <param name="hasStack">False when only the instruction pointer is known: the call site cannot be known.</param>
    public static SampleClass Classify(ReadOnlySpan<StackFrame> frames, bool hasStack)
    {
        int i = 0;
        while (i < frames.Length && frames[i].Origin == FrameOrigin.Kernel) i++;
        while (i < frames.Length && frames[i].Origin == FrameOrigin.Native && SpinCode.IsSystemModule(frames[i].Module)
               && !SpinCode.IsNativeSpinFunction(frames[i].Function)) i++;
        if (i == frames.Length) return SampleClass.Unknown;

        var first = frames[i];
        if (first.Origin == FrameOrigin.Native && SpinCode.IsOpenMpModule(first.Module))
            return new SampleClass(SpinEvidence.OpenMp, null, first.Module);

        bool named = false, runtime = false, leaf = true;
        int firstWait = -1;
        var path = new RuntimePathHash();
        for (; i < frames.Length; i++)
        {
            var f = frames[i];
            if (f.Origin == FrameOrigin.Kernel) continue;
            if (f.Origin == FrameOrigin.Managed)
            {
                if (SpinCode.IsWaitHandle(f.Function))
                {
                    if (firstWait < 0) firstWait = i;
                    leaf = false;
                    continue;
                }
                // A lock's blocking wait (a wait handle under its slow path): neither spin nor the thread's own code, so
                // it neither counts as spin nor ends the contention the thread waits in.
                if (firstWait >= 0) return SpinCode.IsManagedLockApi(f.Function) ? SampleClass.Unknown : Classified(frames, firstWait, named, runtime, hasStack, path);
                if (!SpinCode.IsManagedLockApi(f.Function)) break;
                named |= SpinCode.IsManagedSpinMethod(f.Function);
                leaf = false;
                continue;
            }
            if (f.Origin != FrameOrigin.Native) break;
            if (firstWait >= 0) continue; // between wait frames: only whether a lock is above them matters
            if (SpinCode.IsNativeSpinFunction(f.Function))
            {
                named = true;
                // A named yield or lock wait in a system DLL (SwitchToThread, RtlpWaitOnAddress) leaves the runtime path
                // as it is without symbols: the runtime frame above it still counts as the loop's leaf.
                if (SpinCode.IsSystemModule(f.Module)) continue;
            }
            else if (SpinCode.IsRuntimeModule(f.Module))
            {
                runtime = true;
                // The leaf's instruction pointer wanders inside the loop; the return addresses above it are the path.
                if (!leaf) path.Add(f.Address);
            }
            else if (!SpinCode.IsSystemModule(f.Module)) break;
            leaf = false;
        }
        if (firstWait >= 0) i = firstWait; // a wait handle's wait with no lock above it: the wait is the caller
        return Classified(frames, i, named, runtime, hasStack, path);
    }

    /// <summary>The class of a sample whose spin region ends before frame <paramref name="i"/>, the call site.</summary>
    private static SampleClass Classified(ReadOnlySpan<StackFrame> frames, int i, bool named, bool runtime, bool hasStack, RuntimePathHash path)
    {
        if (!named && !runtime) return SampleClass.NotSpin;

        if (i == frames.Length)
        {
            // The stack ends inside spin or runtime code: named spin without a known caller, or (for unnamed
            // runtime code) either a bare instruction pointer or a runtime-owned thread such as a GC thread.
            if (named) return new SampleClass(SpinEvidence.Spin);
            return hasStack ? SampleClass.Unknown : new SampleClass(SpinEvidence.PossibleSpin);
        }
        var caller = frames[i];
        if (caller.Origin == FrameOrigin.Managed)
            return new SampleClass(named ? SpinEvidence.Spin : SpinEvidence.PossibleSpin, caller.Describe(), RuntimePath: path.Value);
        // An address outside every image is JIT-compiled code the trace never named (no CLR method events):
        // managed, but with no name to key the call site by.
        if (caller.Origin == FrameOrigin.Unknown)
            return new SampleClass(named ? SpinEvidence.Spin : SpinEvidence.PossibleSpin, RuntimePath: path.Value);
        // Unnamed runtime code called from native code is the runtime's own work, not a managed lock's spin.
        return named ? new SampleClass(SpinEvidence.Spin, caller.Describe()) : SampleClass.NotSpin;
    }
}

/// <summary>A fingerprint of a sequence of return addresses (FNV-1a over the 8 bytes of each); 0 for none.</summary>
internal struct RuntimePathHash
{
    private ulong _hash;

    public readonly ulong Value => _hash;

    public void Add(ulong address)
    {
        ulong h = _hash == 0 ? 14695981039346656037UL : _hash;
        for (int b = 0; b < 8; b++, address >>= 8) h = (h ^ (address & 0xFF)) * 1099511628211UL;
        _hash = h | 1;
    }
}
