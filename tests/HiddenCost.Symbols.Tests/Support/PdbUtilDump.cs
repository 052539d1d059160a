using System.Globalization;
using System.Text.RegularExpressions;

namespace HiddenCost.Symbols.Tests.Support;

/// <summary>
/// What <c>llvm-pdbutil dump -summary -publics -section-headers</c> printed for a PDB (committed beside the fixture, or
/// run live): the independent oracle our reader is compared with.
/// </summary>
internal sealed partial record PdbUtilDump(Guid Guid, uint Age, List<(string Name, int Segment, uint Offset)> Publics,
    List<(uint VirtualAddress, uint VirtualSize, bool Executable)> Sections)
{
    public static PdbUtilDump Parse(string text)
    {
        var guid = Guid.Parse(GuidLine().Match(text).Groups[1].Value);
        uint age = uint.Parse(AgeLine().Match(text).Groups[1].Value, CultureInfo.InvariantCulture);
        var publics = PublicRecord().Matches(text).Select(m => (m.Groups[1].Value,
            int.Parse(m.Groups[2].Value, CultureInfo.InvariantCulture), uint.Parse(m.Groups[3].Value, CultureInfo.InvariantCulture))).ToList();
        var sections = SectionHeader().Matches(text).Select(m => (
            uint.Parse(m.Groups[2].Value, NumberStyles.HexNumber, CultureInfo.InvariantCulture),
            uint.Parse(m.Groups[1].Value, NumberStyles.HexNumber, CultureInfo.InvariantCulture),
            m.Groups[3].Value.Contains("IMAGE_SCN_MEM_EXECUTE", StringComparison.Ordinal))).ToList();
        return new PdbUtilDump(guid, age, publics, sections);
    }

    /// <summary>The oracle's expectation for lookups: code publics by RVA (several names where aliases share one).</summary>
    public Dictionary<uint, HashSet<string>> CodePublicsByRva()
    {
        var byRva = new Dictionary<uint, HashSet<string>>();
        foreach (var (name, segment, offset) in Publics)
        {
            if (segment < 1 || segment > Sections.Count) continue;
            var s = Sections[segment - 1];
            if (!s.Executable || offset >= s.VirtualSize) continue;
            uint rva = s.VirtualAddress + offset;
            if (!byRva.TryGetValue(rva, out var names)) byRva[rva] = names = new HashSet<string>();
            names.Add(name);
        }
        return byRva;
    }

    [GeneratedRegex(@"GUID: \{([0-9A-F-]+)\}")]
    private static partial Regex GuidLine();

    [GeneratedRegex(@"^\s*Age: (\d+)", RegexOptions.Multiline)]
    private static partial Regex AgeLine();

    [GeneratedRegex(@"S_PUB32 \[size = \d+\] `(.*)`\r?\n\s*flags = [^,]*, addr = (\d+):(\d+)")]
    private static partial Regex PublicRecord();

    [GeneratedRegex(@"SECTION HEADER #\d+\r?\n.*name\r?\n\s*([0-9A-F]+) virtual size\r?\n\s*([0-9A-F]+) virtual address(?:\r?\n.*){6}\r?\n\s*[0-9A-F]+ flags((?:\r?\n\s+IMAGE_\w+)*)")]
    private static partial Regex SectionHeader();
}
