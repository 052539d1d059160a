namespace HiddenCost.Synthetic.Model;

/// <summary>
/// Deterministic virtual address allocation that looks like a Windows machine: kernel modules in the kernel half,
/// system DLLs at one base shared by every process (per-boot ASLR), other images per process.
/// </summary>
internal sealed class AddressLayout(int kernelPointerSize)
{
    private readonly Dictionary<(string Path, int PointerSize), ulong> _sharedBases = [];
    private readonly Dictionary<int, ulong> _processCursor = [];
    private ulong _kernelCursor = kernelPointerSize == 8 ? 0xFFFFF806_12000000UL : 0x8200_0000UL;
    private ulong _shared64 = 0x00007FFD_40000000UL;
    private ulong _shared32 = 0x7500_0000UL;
    private ulong _nextProcessRegion64 = 0x00007FF6_10000000UL;
    private ulong _nextProcessRegion32 = 0x0040_0000UL;
    private ulong _poolCursor = kernelPointerSize == 8 ? 0xFFFF_A70C_4000_0000UL : 0x8A00_0000UL;

    public int KernelPointerSize { get; } = kernelPointerSize;

    /// <summary>Lowest kernel-mode address: frames at or above it belong to the kernel part of a stack.</summary>
    public ulong KernelBoundary => KernelPointerSize == 8 ? 0xFFFF8000_00000000UL : 0x8000_0000UL;

    public ulong KernelModule(ulong size)
    {
        var b = _kernelCursor;
        _kernelCursor = Align(b + size, 0x20_0000);
        return b;
    }

    public ulong SharedDll(string path, ulong size, int pointerSize)
    {
        if (_sharedBases.TryGetValue((path, pointerSize), out var existing)) return existing;
        ulong b;
        if (pointerSize == 8)
        {
            b = _shared64;
            _shared64 = Align(b + size, 0x100_0000);
        }
        else
        {
            b = _shared32;
            _shared32 = Align(b + size, 0x10_0000);
        }
        _sharedBases[(path, pointerSize)] = b;
        return b;
    }

    public ulong ProcessImage(int pid, ulong size, int pointerSize)
    {
        if (!_processCursor.TryGetValue(pid, out var cursor))
        {
            if (pointerSize == 8)
            {
                cursor = _nextProcessRegion64;
                _nextProcessRegion64 += 0x1_0000_0000UL;
            }
            else
            {
                cursor = _nextProcessRegion32;
                _nextProcessRegion32 += 0x0100_0000UL;
            }
        }
        _processCursor[pid] = Align(cursor + size, 0x1_0000);
        return cursor;
    }

    /// <summary>A fresh kernel pool address (IRPs, file objects, KCBs, stack keys), 0x100 apart.</summary>
    public ulong Pool()
    {
        var a = _poolCursor;
        _poolCursor += 0x100;
        return a;
    }

    private static ulong Align(ulong value, ulong alignment) => (value + alignment - 1) & ~(alignment - 1);
}
