using HiddenCost.Analysis.Common;

namespace HiddenCost.Analysis.Tables.SyscallHook;

/// <summary>
/// CPU samples as counts and time: a sample weighs the interval in effect when it was taken, or, before the
/// trace has named any interval, is kept as a count and weighed at the end (see <see cref="SampleIntervals"/>).
/// </summary>
internal struct SampleTally
{
    public long Count;
    public long KnownNs;
    public long UnweighedCount;

    public void Add(long weightNs)
    {
        Count++;
        if (weightNs > 0) KnownNs += weightNs;
        else UnweighedCount++;
    }

    public readonly long Nanoseconds(SampleIntervals intervals) => KnownNs + UnweighedCount * intervals.ForUnnamed;

    public void Add(in SampleTally other)
    {
        Count += other.Count;
        KnownNs += other.KnownNs;
        UnweighedCount += other.UnweighedCount;
    }
}

/// <summary>One thread's (or, merged, one process's) calls of one system service routine, and the samples taken inside them.</summary>
internal sealed class SyscallStats(ulong address)
{
    public ulong Address { get; } = address;
    public long Calls, Returned, TotalNs;
    public long FirstNs = long.MaxValue, LastNs = long.MinValue;
    public SampleTally Samples;

    // Calls by sampling epoch (from one CPU sample to the next): whether an epoch was a profiling gap is known only at
    // the end, so the calls of epochs that may be are kept apart, by the sample that began the epoch.
    public long EpochStartNs = long.MinValue, EpochCalls;
    public List<(long EpochStartNs, long Calls)>? CallsInPossibleGaps;

    /// <summary>Per third-party kernel module (by <see cref="KernelModuleName.Index"/>: every load of a driver counts as one): samples with it in the kernel stack.</summary>
    public List<(int Module, SampleTally Tally)>? Modules;

    /// <summary>Samples by stack, for the Top Stack column (null until a sample's stack is known).</summary>
    public StackTally? Stacks;

    public void Seen(long t)
    {
        if (t < FirstNs) FirstNs = t;
        if (t > LastNs) LastNs = t;
    }

    /// <summary>Calls in the epochs that turned out to be profiling gaps (those beginning at one of <paramref name="gapStarts"/>).</summary>
    public long CallsInGaps(HashSet<long> gapStarts)
    {
        long calls = 0;
        if (CallsInPossibleGaps is { } possible)
            foreach (var (start, n) in possible)
                if (gapStarts.Contains(start)) calls += n;
        return calls;
    }

    public void AddModuleSample(int module, long weightNs)
    {
        var one = default(SampleTally);
        one.Add(weightNs);
        AddModule(module, one);
    }

    /// <summary>Adds another thread's calls of the same routine (threads merge into their process at the end).</summary>
    public void Merge(SyscallStats other)
    {
        Calls += other.Calls;
        Returned += other.Returned;
        TotalNs += other.TotalNs;
        if (other.Calls > 0 || other.Returned > 0)
        {
            Seen(other.FirstNs);
            Seen(other.LastNs);
        }
        Samples.Add(other.Samples);
        if (other.CallsInPossibleGaps is { } gaps) (CallsInPossibleGaps ??= new()).AddRange(gaps);
        if (other.Stacks is { } stacks) (Stacks ??= new()).Merge(stacks);
        if (other.Modules is null) return;
        foreach (var (module, tally) in other.Modules) AddModule(module, tally);
    }

    private void AddModule(int module, in SampleTally tally)
    {
        Modules ??= new List<(int, SampleTally)>(2);
        for (int i = 0; i < Modules.Count; i++)
        {
            if (Modules[i].Module != module) continue;
            var entry = Modules[i];
            entry.Tally.Add(tally);
            Modules[i] = entry;
            return;
        }
        Modules.Add((module, tally));
    }
}

/// <summary>The syscalls of one thread instance (or of the processors whose thread is unknown), by service routine address.</summary>
internal sealed class ThreadSyscalls(int threadId)
{
    public int ThreadId { get; } = threadId;
    public long FirstNs = long.MaxValue;
    /// <summary>When its latest syscall returned (for kernel samples on the next one's entry path).</summary>
    public long LastExitNs = long.MinValue / 2;
    /// <summary>Handles of kernel samples since then that may be the next syscall's entry path.</summary>
    public List<int>? PreEnter;
    /// <summary>A user-mode sample came since its latest syscall returned.</summary>
    public bool UserSinceExit;
    public readonly Dictionary<ulong, SyscallStats> ByAddress = new();
    public readonly OpenSyscalls Open = new();

    public SyscallStats Get(ulong address)
    {
        if (!ByAddress.TryGetValue(address, out var stats)) ByAddress[address] = stats = new SyscallStats(address);
        return stats;
    }
}

/// <summary>A process's syscalls by service routine address, merged from its threads.</summary>
internal sealed class ProcessSyscalls(ProcessRef process)
{
    public ProcessRef Process { get; } = process;
    public readonly Dictionary<ulong, SyscallStats> ByAddress = new();

    public void Merge(ThreadSyscalls thread)
    {
        foreach (var (address, stats) in thread.ByAddress)
        {
            if (!ByAddress.TryGetValue(address, out var merged)) ByAddress[address] = merged = new SyscallStats(address);
            merged.Merge(stats);
        }
    }
}

/// <summary>
/// The syscalls a thread (or, while its thread is unknown, a processor) is inside, innermost last. Syscalls
/// nest when kernel code calls system services or a user-mode callback makes its own. Bounded: when it is
/// full the outermost is given up (counted as never returned).
/// </summary>
internal sealed class OpenSyscalls
{
    public const int MaxDepth = 16;

    private readonly (long EnterNs, SyscallStats Stats)[] _items = new (long, SyscallStats)[MaxDepth];
    private int _count;
    // The outermost this many are suspended: the thread ran user-mode code while they were open (a callback into user
    // mode, or a syscall whose exit was never logged, as after NtCallbackReturn), so they are not at work until one of
    // them is current again through a new enter (NtCallbackReturn's) or popped.
    private int _suspended;

    public int Count => _count;

    /// <summary>Pushes a syscall; returns false when the outermost had to be given up to make room.</summary>
    public bool Push(long enterNs, SyscallStats stats)
    {
        bool room = _count < MaxDepth;
        if (!room)
        {
            Array.Copy(_items, 1, _items, 0, MaxDepth - 1);
            _count--;
            if (_suspended > 0) _suspended--;
        }
        _items[_count++] = (enterNs, stats);
        return room;
    }

    public bool TryPop(out long enterNs, out SyscallStats? stats)
    {
        if (_count == 0)
        {
            enterNs = 0;
            stats = null;
            return false;
        }
        (enterNs, stats) = _items[--_count];
        _items[_count] = default;
        if (_suspended > _count) _suspended = _count;
        return true;
    }

    /// <summary>The innermost open syscall, unless the thread has run user-mode code since it was entered.</summary>
    public SyscallStats? Innermost => _count > _suspended ? _items[_count - 1].Stats : null;

    /// <summary>The thread was seen running user-mode code: none of the syscalls open now is at work.</summary>
    public void InUserMode() => _suspended = _count;

    /// <summary>Moves every open syscall, outermost first, onto <paramref name="target"/>; returns how many were given up.</summary>
    public int MoveTo(OpenSyscalls target)
    {
        int dropped = 0, below = target._count;
        for (int i = 0; i < _count; i++)
            if (!target.Push(_items[i].EnterNs, _items[i].Stats)) dropped++;
        // Those left in user mode stay suspended: the outermost, when nothing lay under them (the usual case).
        if (below == 0) target._suspended = Math.Max(0, _suspended - dropped);
        Clear();
        return dropped;
    }

    public void Clear()
    {
        Array.Clear(_items, 0, _count);
        _count = 0;
        _suspended = 0;
    }
}
