namespace HiddenCost.Analysis.Tables.SpinWait;

/// <summary>Where a frame's code lives, as far as the trace tells.</summary>
public enum FrameOrigin
{
    /// <summary>A kernel-mode address.</summary>
    Kernel,
    /// <summary>User-mode code in a loaded image (module known from image rundown; function only with symbols).</summary>
    Native,
    /// <summary>JIT-compiled or precompiled .NET code, named from CLR method events.</summary>
    Managed,
    /// <summary>An address no image or method range covers.</summary>
    Unknown,
}

/// <summary>
/// One resolved frame of a sampled stack: the module's file name (e.g. <c>coreclr.dll</c>), the function when
/// known (<c>Namespace.Type.Method</c> for managed code, <c>AwareLock::Contention</c> with native symbols), and
/// the address (a return address for every frame but the leaf).
/// </summary>
public readonly record struct StackFrame(FrameOrigin Origin, string? Module, string? Function, ulong Address = 0)
{
    public static StackFrame Kernel(string? module = null, string? function = null, ulong address = 0) => new(FrameOrigin.Kernel, module, function, address);
    public static StackFrame Native(string module, string? function = null, ulong address = 0) => new(FrameOrigin.Native, module, function, address);
    public static StackFrame Managed(string method, string? module = null, ulong address = 0) => new(FrameOrigin.Managed, module, method, address);

    /// <summary>How a call site shows this frame: the method, <c>module!function</c>, or the module alone.</summary>
    public string Describe() => Origin == FrameOrigin.Managed && Function is not null ? Function
        : Function is not null && Module is not null ? $"{Module}!{Function}"
        : Function ?? Module ?? "(unknown)";
}
