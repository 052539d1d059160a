namespace HiddenCost.Etl.Stacks;

/// <summary>
/// The frames of one stack, leaf first: the kernel part, then the user part. A view into the
/// <see cref="StackStore"/>; valid until the store grows (copy what you keep across events).
/// </summary>
public readonly ref struct StackFrames
{
    public StackFrames(ReadOnlySpan<ulong> kernel, ReadOnlySpan<ulong> user, bool isResolved)
    {
        Kernel = kernel;
        User = user;
        IsResolved = isResolved;
    }

    /// <summary>Kernel-mode frames, leaf (innermost) first.</summary>
    public ReadOnlySpan<ulong> Kernel { get; }

    /// <summary>User-mode frames, leaf first; they continue the kernel part toward the thread's root.</summary>
    public ReadOnlySpan<ulong> User { get; }

    /// <summary>False while a part is a stack key whose definition has not arrived yet (its frames read as empty).</summary>
    public bool IsResolved { get; }

    public int Count => Kernel.Length + User.Length;

    /// <summary>Frame <paramref name="index"/> counting from the leaf across both parts.</summary>
    public ulong this[int index] => index < Kernel.Length ? Kernel[index] : User[index - Kernel.Length];

    public ulong[] ToArray()
    {
        var all = new ulong[Count];
        Kernel.CopyTo(all);
        User.CopyTo(all.AsSpan(Kernel.Length));
        return all;
    }
}
