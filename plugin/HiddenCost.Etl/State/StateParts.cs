namespace HiddenCost.Etl.State;

/// <summary>
/// What a <see cref="TraceState"/> learns from the events, so a pass that needs only part of it pays only for that
/// part (decoding image and CLR method events, keeping their ranges).
/// </summary>
[Flags]
public enum StateParts
{
    None = 0,
    /// <summary>Processes and threads over time, thread names.</summary>
    Processes = 1,
    /// <summary>Images and kernel modules with their PDB identities and original names, and volume mappings.</summary>
    Images = 2,
    /// <summary>JIT and precompiled .NET method ranges.</summary>
    ClrMethods = 4,
    All = Processes | Images | ClrMethods,
}
