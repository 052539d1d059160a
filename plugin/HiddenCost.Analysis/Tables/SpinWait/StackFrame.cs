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
/// known (<c>Namespace.Type.Method</c> for managed code, <c>AwareLock::Contention</c> with native symbols).
/// </summary>
public readonly record struct StackFrame(FrameOrigin Origin, string? Module, string? Function)
{
    public static StackFrame Kernel(string? module = null, string? function = null) => new(FrameOrigin.Kernel, module, function);
    public static StackFrame Native(string module, string? function = null) => new(FrameOrigin.Native, module, function);
    public static StackFrame Managed(string method, string? module = null) => new(FrameOrigin.Managed, module, method);

    /// <summary>How a call site shows this frame: the method, <c>module!function</c>, or the module alone.</summary>
    public string Describe() => Origin == FrameOrigin.Managed && Function is not null ? Function
        : Function is not null && Module is not null ? $"{Module}!{Function}"
        : Function ?? Module ?? "(unknown)";
}
