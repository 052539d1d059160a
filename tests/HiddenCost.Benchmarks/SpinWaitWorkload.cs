using HiddenCost.Analysis.Tables.SpinWait;

namespace HiddenCost.Benchmarks;

/// <summary>
/// A synthetic machine's worth of spin-analysis input, made in memory (labelled synthetic: no trace file): threads
/// of several .NET processes taking CPU samples on a pool of realistic stacks (kernel, ntdll, coreclr.dll, managed
/// frames; a third of them spin code) and switching out for lock waits, yields, Sleep and preemption, with
/// contentions around some spins. Deterministic for a seed.
/// </summary>
internal sealed class SpinWaitWorkload
{
    public const int Processes = 8, ThreadsPerProcess = 16, Stacks = 4096;

    private readonly StackFrame[][] _stacks = new StackFrame[Stacks][];
    private ulong _state;

    public SpinWaitWorkload(ulong seed)
    {
        _state = seed | 1;
        for (int i = 0; i < Stacks; i++) _stacks[i] = MakeStack(i);
    }

    public ReadOnlySpan<StackFrame> Stack(int ticket) => _stacks[ticket];

    public bool IsSpinStack(int ticket) => ticket % 3 == 0;

    public ulong Next()
    {
        // xorshift64*: fast and good enough to spread choices.
        _state ^= _state >> 12;
        _state ^= _state << 25;
        _state ^= _state >> 27;
        return _state * 2685821657736338717UL;
    }

    private StackFrame[] MakeStack(int i)
    {
        var frames = new List<StackFrame>
        {
            StackFrame.Kernel("ntoskrnl.exe", address: 0xFFFF_F800_1000_0000UL + (ulong)(i % 97) * 0x40),
            StackFrame.Kernel("ntoskrnl.exe", address: 0xFFFF_F800_1000_8000UL),
        };
        if (IsSpinStack(i))
        {
            frames.Add(StackFrame.Native("coreclr.dll", address: 0x7FF8_4C1B_2C40UL + (ulong)(i % 16) * 4));
            frames.Add(StackFrame.Native("coreclr.dll", address: 0x7FF8_4C1B_3010UL));
            frames.Add(StackFrame.Native("coreclr.dll", address: 0x7FF8_4C1C_7A20UL));
        }
        else if (i % 3 == 1)
        {
            frames.Add(StackFrame.Native("ntdll.dll", address: 0x7FF8_5000_1000UL + (ulong)(i % 13) * 8));
            frames.Add(StackFrame.Native("KERNELBASE.dll", address: 0x7FF8_5100_2000UL));
        }
        int depth = 8 + i % 12;
        for (int d = 0; d < depth; d++)
            frames.Add(StackFrame.Managed($"Contoso.Service{i % 40}.Component{d % 7}.Method{(i / 40 + d) % 50}", address: 0x7FF8_3000_0000UL + (ulong)(i * 64 + d)));
        frames.Add(StackFrame.Native("coreclr.dll", address: 0x7FF8_4C12_F3D0UL));
        frames.Add(StackFrame.Native("kernel32.dll", address: 0x7FF8_5200_167EUL));
        frames.Add(StackFrame.Native("ntdll.dll", address: 0x7FF8_5000_C3F1UL));
        return frames.ToArray();
    }
}
