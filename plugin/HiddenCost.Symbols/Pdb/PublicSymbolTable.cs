using System.Text;

namespace HiddenCost.Symbols.Pdb;

/// <summary>
/// A PDB's public symbols that lie in executable sections, sorted by RVA for binary search. Publics have no sizes,
/// so an address takes the nearest public at or below it in the same executable section, and an address past
/// its section's end, before its section's first public, or in a data section has no name. Names are kept as
/// one UTF-8 block and made strings only when asked for.
/// </summary>
public sealed class PublicSymbolTable
{
    private readonly uint[] _rvas;
    private readonly int[] _nameStarts; // Count + 1 entries: name i is _names[_nameStarts[i].._nameStarts[i + 1]]
    private readonly byte[] _names;
    private readonly ImageSection[] _codeSections; // sorted by RVA
    private readonly string?[] _strings;

    // A page directory over the code: _pages[p] is the first public at or after page p (4 KiB, from _firstPage on), so a
    // lookup searches only its page's publics: a few cache lines instead of a search over the whole table.
    private const int PageShift = 12, MaxPages = 1 << 20;
    private readonly uint _firstPage;
    private readonly int[] _pages;

    internal PublicSymbolTable(uint[] rvas, int[] nameStarts, byte[] names, ImageSection[] sections, int publicCount)
    {
        _rvas = rvas;
        _nameStarts = nameStarts;
        _names = names;
        _strings = new string?[rvas.Length];
        Sections = sections;
        _codeSections = sections.Where(s => s.Executable && s.Size > 0).OrderBy(s => s.VirtualAddress).ToArray();
        PublicCount = publicCount;
        (_firstPage, _pages) = PageDirectory(rvas, _codeSections);
    }

    private static (uint, int[]) PageDirectory(uint[] rvas, ImageSection[] code)
    {
        if (code.Length == 0) return (0, []);
        uint first = code[0].VirtualAddress >> PageShift;
        ulong last = (code.Max(s => (ulong)s.VirtualAddress + s.Size) - 1) >> PageShift;
        if (last - first + 1 > MaxPages) return (0, []);
        var pages = new int[last - first + 2];
        int i = 0;
        for (int p = 0; p < pages.Length; p++)
        {
            ulong start = (first + (ulong)p) << PageShift;
            while (i < rvas.Length && rvas[i] < start) i++;
            pages[p] = i;
        }
        return (first, pages);
    }

    /// <summary>Every S_PUB32 record of the publics' address map, data and code alike.</summary>
    public int PublicCount { get; }

    /// <summary>The publics indexed for lookups: those in executable sections, one per address.</summary>
    public int Count => _rvas.Length;

    /// <summary>The image's sections as the PDB describes them (from its section-header copy, or laid out from the section map).</summary>
    public IReadOnlyList<ImageSection> Sections { get; }

    public uint RvaAt(int index) => _rvas[index];

    /// <summary>The public's name (C decorations of x86 names removed); made once, then kept.</summary>
    public string NameAt(int index) =>
        _strings[index] ??= Encoding.UTF8.GetString(_names, _nameStarts[index], _nameStarts[index + 1] - _nameStarts[index]);

    /// <summary>The index of the public whose function holds <paramref name="rva"/>, or -1 when none does.</summary>
    public int IndexOf(uint rva)
    {
        int section = SectionOf(rva);
        if (section < 0) return -1;
        int i;
        if (_pages.Length > 0)
        {
            int page = (int)((rva >> PageShift) - _firstPage);
            int lo = _pages[page], hi = _pages[page + 1];
            i = lo == hi ? lo - 1 : Array.BinarySearch(_rvas, lo, hi - lo, rva);
        }
        else i = Array.BinarySearch(_rvas, rva);
        if (i < 0) i = ~i - 1;
        return i >= 0 && _rvas[i] >= _codeSections[section].VirtualAddress ? i : -1;
    }

    /// <summary>The name of the public whose function holds <paramref name="rva"/>, or null.</summary>
    public string? FunctionAt(uint rva) => IndexOf(rva) is var i and >= 0 ? NameAt(i) : null;

    private int SectionOf(uint rva)
    {
        int lo = 0, hi = _codeSections.Length - 1;
        while (lo <= hi)
        {
            int mid = (lo + hi) >>> 1;
            var s = _codeSections[mid];
            if (rva < s.VirtualAddress) hi = mid - 1;
            else if (rva - s.VirtualAddress >= s.Size) lo = mid + 1;
            else return mid;
        }
        return -1;
    }
}
