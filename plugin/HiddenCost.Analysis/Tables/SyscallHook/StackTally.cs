namespace HiddenCost.Analysis.Tables.SyscallHook;

/// <summary>
/// How often each interned stack was sampled inside one routine of one process, per culprit module (and for the
/// routine as a whole, module −1): counts by stack id, so memory grows with distinct stacks, never with samples.
/// One sample of each stack (its thread and time) is kept to name its frames in the right process.
/// </summary>
internal sealed class StackTally
{
    public const int Whole = -1;

    private readonly Dictionary<(int Module, int Stack), Entry> _counts = new();

    public void Add(int module, int stack, int threadId, long t, int count = 1)
    {
        ref var entry = ref System.Runtime.InteropServices.CollectionsMarshal.GetValueRefOrAddDefault(_counts, (module, stack), out bool existed);
        if (!existed) entry = new Entry(0, threadId, t);
        entry.Count += count;
    }

    public void Merge(StackTally other)
    {
        foreach (var ((module, stack), entry) in other._counts) Add(module, stack, entry.ThreadId, entry.Time, entry.Count);
    }

    /// <summary>The most sampled stack of <paramref name="module"/> (ties: the lower stack id, for a stable answer), or null.</summary>
    public (int Stack, int ThreadId, long Time)? Top(int module)
    {
        (int Stack, Entry Entry)? best = null;
        foreach (var ((m, stack), entry) in _counts)
            if (m == module && (best is null || entry.Count > best.Value.Entry.Count || (entry.Count == best.Value.Entry.Count && stack < best.Value.Stack)))
                best = (stack, entry);
        return best is { } b ? (b.Stack, b.Entry.ThreadId, b.Entry.Time) : null;
    }

    private record struct Entry(int Count, int ThreadId, long Time);
}
