namespace HiddenCost.Etl.Stacks;

/// <summary>An interned stack (a kernel part and a user part) in a <see cref="StackStore"/>. 0 means no stack.</summary>
public readonly record struct StackId(int Value)
{
    public static readonly StackId None = default;

    public bool IsNone => Value == 0;

    public override string ToString() => IsNone ? "none" : $"stack#{Value}";
}

/// <summary>Which side of the user/kernel boundary an address is on.</summary>
public static class KernelAddress
{
    /// <summary>
    /// True for kernel-space addresses: the upper canonical half on 64-bit (≥ 0xFFFF8000_00000000) and the upper
    /// 2 GB on 32-bit. WOW64 user frames logged in 64-bit records are below 4 GB, so they count as user.
    /// </summary>
    public static bool IsKernel(ulong address, int pointerSize) =>
        pointerSize == 8 ? address >= 0xFFFF_8000_0000_0000 : address >= 0x8000_0000 && address <= uint.MaxValue;
}
