namespace HiddenCost.Analysis.Tables.SyscallHook;

/// <summary>
/// Kernel modules by address range over time, from image loads and rundowns in process 0. Finds the module
/// holding a stack frame or a syscall address, and names an address as <c>module+0xRVA</c> so a syscall is
/// never shown as a bare number. Works for 32-bit and 64-bit kernels alike: addresses are plain numbers.
/// </summary>
public sealed class KernelModuleMap
{
    private readonly List<KernelModule> _modules = new();
    private KernelModule[] _byBase = Array.Empty<KernelModule>();
    private bool _sorted = true;

    public IReadOnlyList<KernelModule> Modules => _modules;

    /// <summary>A kernel image load or rundown (its NT path or file name). A rundown of a module already known at that base is ignored.</summary>
    public KernelModule Loaded(long t, ulong imageBase, ulong imageSize, string path)
    {
        var fileName = FileNameOf(path);
        foreach (var m in _modules)
            if (m.Base == imageBase && m.UnloadNs == long.MaxValue && string.Equals(m.FileName, fileName, StringComparison.OrdinalIgnoreCase))
                return m;
        var module = new KernelModule(_modules.Count, imageBase, Math.Max(1UL, imageSize), fileName, t, InboxKernelModules.Contains(fileName));
        _modules.Add(module);
        _sorted = false;
        return module;
    }

    /// <summary>An image unload: the range may later hold another module.</summary>
    public void Unloaded(long t, ulong imageBase)
    {
        foreach (var m in _modules)
            if (m.Base == imageBase && m.UnloadNs == long.MaxValue)
                m.UnloadNs = t;
    }

    /// <summary>
    /// The module holding <paramref name="address"/> at time <paramref name="t"/>, or null. Rundowns come at
    /// the start or the end of a trace, so a module is also found before its (end-of-trace) rundown: what
    /// matters is that it was not unloaded before <paramref name="t"/>.
    /// </summary>
    public KernelModule? Find(ulong address, long t)
    {
        if (!_sorted) Sort();
        var modules = _byBase;
        int lo = 0, hi = modules.Length - 1, at = -1;
        while (lo <= hi)
        {
            int mid = (lo + hi) >>> 1;
            if (modules[mid].Base <= address) { at = mid; lo = mid + 1; }
            else hi = mid - 1;
        }
        // Several modules may have used one range over time; the candidates are the ones at or below the address.
        KernelModule? best = null;
        for (int i = at; i >= 0 && i > at - 8; i--)
        {
            var m = modules[i];
            if (address - m.Base >= m.Size) continue;
            if (t >= m.UnloadNs) continue;
            if (best is null || Prefer(m, best, t)) best = m;
        }
        return best;
    }

    /// <summary><c>module+0xRVA</c> for an address inside a known module; otherwise the address marked as outside any module.</summary>
    public string Describe(ulong address, long t)
    {
        var m = Find(address, t);
        return m is null ? $"<no module>+0x{address:X}" : $"{m.FileName}+0x{address - m.Base:X}";
    }

    /// <summary>The file-name part of an NT or DOS path: <c>\SystemRoot\system32\drivers\x.sys</c> → <c>x.sys</c>.</summary>
    public static string FileNameOf(string path)
    {
        int cut = path.AsSpan().LastIndexOfAny('\\', '/');
        return cut < 0 ? path : path[(cut + 1)..];
    }

    private static bool Prefer(KernelModule candidate, KernelModule current, long t)
    {
        // The module loaded most recently before t wins over older ones at the same address.
        bool candidateBefore = candidate.LoadNs <= t, currentBefore = current.LoadNs <= t;
        if (candidateBefore != currentBefore) return candidateBefore;
        return candidateBefore ? candidate.LoadNs > current.LoadNs : candidate.LoadNs < current.LoadNs;
    }

    private void Sort()
    {
        _byBase = _modules.OrderBy(m => m.Base).ThenBy(m => m.LoadNs).ToArray();
        _sorted = true;
    }
}

/// <summary>A kernel module: its file name (no directory), range and whether it is part of Windows.</summary>
public sealed class KernelModule(int index, ulong imageBase, ulong size, string fileName, long loadNs, bool isInbox)
{
    public int Index { get; } = index;
    public ulong Base { get; } = imageBase;
    public ulong Size { get; } = size;
    public string FileName { get; } = fileName;
    public long LoadNs { get; } = loadNs;
    public long UnloadNs { get; internal set; } = long.MaxValue;

    /// <summary>ntoskrnl, HAL or a Microsoft inbox driver: never a culprit.</summary>
    public bool IsInbox { get; } = isInbox;

    /// <summary>The sample that last counted this module (so a module counts once per sample, however many frames).</summary>
    internal int LastCountedSample = -1;

    public override string ToString() => FileName;
}
