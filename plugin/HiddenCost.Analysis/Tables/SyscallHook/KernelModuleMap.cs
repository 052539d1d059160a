using System.Runtime.InteropServices;

namespace HiddenCost.Analysis.Tables.SyscallHook;

/// <summary>
/// Kernel modules by address range over time, from image loads and rundowns in process 0. Finds the module
/// holding a stack frame or a syscall address, and names an address as <c>module+0xRVA</c> so a syscall is
/// never shown as a bare number. Works for 32-bit and 64-bit kernels alike: addresses are plain numbers.
/// </summary>
public sealed class KernelModuleMap
{
    // Loads are few in a normal trace but may come by the hundred thousand in a hostile or reload-storm one, between
    // the stacks that look modules up: the modules loaded since the last merge go into a short sorted list (an
    // insert moves only it), merged into the main sorted array when it reaches about the square root of that
    // array's size, so a load never re-sorts everything and costs O(√n), and a lookup searches both.
    private const int MinRecent = 64;

    private readonly List<KernelModule> _modules = new();
    private KernelModule[] _byBase = Array.Empty<KernelModule>();
    private readonly List<KernelModule> _recent = new();
    private readonly Dictionary<ulong, List<KernelModule>> _liveByBase = new();
    private readonly Dictionary<(ulong Base, int Name), KernelModule> _live = new();
    private readonly Dictionary<ulong, long> _lastUnload = new();
    private readonly List<KernelModuleName> _names = new();
    private readonly Dictionary<string, KernelModuleName> _nameByFile = new(StringComparer.OrdinalIgnoreCase);

    public IReadOnlyList<KernelModule> Modules => _modules;

    /// <summary>
    /// The modules' file names, each once however many times a module of that name was loaded (a driver unloaded and
    /// loaded again, at another base or the same, is one culprit), by <see cref="KernelModuleName.Index"/>.
    /// </summary>
    public IReadOnlyList<KernelModuleName> Names => _names;

    /// <summary>A kernel image load or rundown (its NT path or file name). A rundown of a module already known at that base is ignored.</summary>
    public KernelModule Loaded(long t, ulong imageBase, ulong imageSize, string path)
    {
        var fileName = FileNameOf(path);
        var name = NameOf(fileName);
        return _live.TryGetValue((imageBase, name.Index), out var known) ? known : Add(t, imageBase, imageSize, fileName, name);
    }

    private KernelModuleName NameOf(string fileName)
    {
        if (!_nameByFile.TryGetValue(fileName, out var name))
        {
            _nameByFile[fileName] = name = new KernelModuleName(_names.Count, fileName, InboxKernelModules.Contains(fileName));
            _names.Add(name);
        }
        return name;
    }

    // Found by base and name, not by walking the modules live at the base: a hostile trace may load thousands there.
    private KernelModule Add(long t, ulong imageBase, ulong imageSize, string fileName, KernelModuleName name)
    {
        var module = new KernelModule(_modules.Count, imageBase, Math.Max(1UL, imageSize), fileName, t, name);
        _modules.Add(module);
        _live[(imageBase, name.Index)] = module;
        if (!_liveByBase.TryGetValue(imageBase, out var live)) _liveByBase[imageBase] = live = new List<KernelModule>(1);
        live.Add(module);
        _recent.Insert(UpperBound(CollectionsMarshal.AsSpan(_recent), imageBase, t), module);
        if (_recent.Count >= Math.Max(MinRecent, (int)Math.Sqrt(_byBase.Length))) MergeRecent();
        return module;
    }

    /// <summary>
    /// An image unload (its range, NT path or file name, as the event carries them): the range may later hold another
    /// module. A module the trace never named before its unload (its load and the start rundown not recorded, as in
    /// a circular-buffer trace) was loaded from the trace's start, or the last unload there, until then: its frames are
    /// its own, not a later module's there.
    /// </summary>
    public void Unloaded(long t, ulong imageBase, ulong imageSize, string path)
    {
        // An unload stamped at the end of time leaves the module as it was: live (a later load of it is the same module).
        if (t == long.MaxValue) return;
        if (!_liveByBase.ContainsKey(imageBase))
        {
            var fileName = FileNameOf(path);
            Add(_lastUnload.TryGetValue(imageBase, out long previous) ? previous : long.MinValue, imageBase, imageSize, fileName, NameOf(fileName));
        }
        _lastUnload[imageBase] = t;
        _liveByBase.Remove(imageBase, out var live);
        foreach (var m in live!) // Add put one there when none was
        {
            m.UnloadNs = t;
            _live.Remove((imageBase, m.Name.Index));
        }
    }

    /// <summary>
    /// The module holding <paramref name="address"/> at time <paramref name="t"/>, or null. Rundowns come at
    /// the start or the end of a trace, so a module is also found before its (end-of-trace) rundown: what
    /// matters is that it was not unloaded before <paramref name="t"/>.
    /// </summary>
    public KernelModule? Find(ulong address, long t)
    {
        // The few modules at or below the address, in the order one array of all of them sorted by base, then load
        // time, then order of loading would give, searched backwards: the two sorted lists walked together, the recent
        // list first among equals (its modules were loaded after the others).
        var recent = CollectionsMarshal.AsSpan(_recent);
        var main = _byBase.AsSpan();
        int r = UpperBound(recent, address, long.MaxValue) - 1, m = UpperBound(main, address, long.MaxValue) - 1;
        KernelModule? best = null;
        for (int taken = 0; taken < 8 && (r >= 0 || m >= 0); taken++)
        {
            var candidate = m < 0 || (r >= 0 && (recent[r].Base, recent[r].LoadNs).CompareTo((main[m].Base, main[m].LoadNs)) >= 0)
                ? recent[r--]
                : main[m--];
            if (address - candidate.Base >= candidate.Size || t >= candidate.UnloadNs) continue;
            if (best is null || Prefer(candidate, best, t)) best = candidate;
        }
        return best;
    }

    /// <summary>Index of the first module ordered after (<paramref name="imageBase"/>, <paramref name="loadNs"/>).</summary>
    private static int UpperBound(ReadOnlySpan<KernelModule> byBase, ulong imageBase, long loadNs)
    {
        int lo = 0, hi = byBase.Length;
        while (lo < hi)
        {
            int mid = (lo + hi) >>> 1;
            var m = byBase[mid];
            if (m.Base < imageBase || (m.Base == imageBase && m.LoadNs <= loadNs)) lo = mid + 1;
            else hi = mid;
        }
        return lo;
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

    /// <summary>
    /// Merges the recent loads into the array ordered by base, then load time, then order of loading (as one stable
    /// sort of every module would order them): a pass over the array, not a sort of it.
    /// </summary>
    private void MergeRecent()
    {
        var recent = _recent;
        var merged = new KernelModule[_byBase.Length + recent.Count];
        int a = 0, r = 0;
        for (int i = 0; i < merged.Length; i++)
        {
            bool takeOld = r == recent.Count
                || (a < _byBase.Length && (_byBase[a].Base, _byBase[a].LoadNs).CompareTo((recent[r].Base, recent[r].LoadNs)) <= 0);
            merged[i] = takeOld ? _byBase[a++] : recent[r++];
        }
        _byBase = merged;
        _recent.Clear();
    }
}

/// <summary>A kernel module: one load of it, with its file name (no directory), range and whether it is part of Windows.</summary>
public sealed class KernelModule(int index, ulong imageBase, ulong size, string fileName, long loadNs, KernelModuleName name)
{
    public int Index { get; } = index;
    public ulong Base { get; } = imageBase;
    public ulong Size { get; } = size;
    public string FileName { get; } = fileName;
    public long LoadNs { get; } = loadNs;
    public long UnloadNs { get; internal set; } = long.MaxValue;

    /// <summary>Every load of a module of this file name shares it: culprits are counted by name.</summary>
    public KernelModuleName Name { get; } = name;

    /// <summary>ntoskrnl, HAL or a Microsoft inbox driver: never a culprit.</summary>
    public bool IsInbox => Name.IsInbox;

    public override string ToString() => FileName;
}

/// <summary>A kernel module's file name (as first spelt; names match ignoring case), shared by all its loads.</summary>
public sealed class KernelModuleName(int index, string fileName, bool isInbox)
{
    public int Index { get; } = index;
    public string FileName { get; } = fileName;

    /// <summary>ntoskrnl, HAL or a Microsoft inbox driver: never a culprit.</summary>
    public bool IsInbox { get; } = isInbox;

    /// <summary>The sample that last counted this name (so a module counts once per sample, however many frames or loads).</summary>
    internal int LastCountedSample = -1;

    public override string ToString() => FileName;
}
