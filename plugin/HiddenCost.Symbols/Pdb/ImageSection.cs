using System.Buffers.Binary;

namespace HiddenCost.Symbols.Pdb;

/// <summary>One section of the image as the loader maps it: where it starts (RVA), how long it is, whether it holds code.</summary>
public readonly record struct ImageSection(string Name, uint VirtualAddress, uint Size, bool Executable)
{
    private const int HeaderSize = 40; // IMAGE_SECTION_HEADER
    private const uint CntCode = 0x20, MemExecute = 0x20000000;

    public bool Contains(uint rva) => rva >= VirtualAddress && rva - VirtualAddress < Size;

    /// <summary>The image's section headers as the PDB keeps a copy of them (the DBI debug header's section-header stream).</summary>
    public static ImageSection[] FromSectionHeaders(ReadOnlySpan<byte> stream)
    {
        var sections = new ImageSection[stream.Length / HeaderSize];
        for (int i = 0; i < sections.Length; i++)
        {
            var h = stream.Slice(i * HeaderSize, HeaderSize);
            var name = h[..8];
            int end = name.IndexOf((byte)0);
            uint virtualSize = BinaryPrimitives.ReadUInt32LittleEndian(h[8..]);
            uint rawSize = BinaryPrimitives.ReadUInt32LittleEndian(h[16..]);
            uint flags = BinaryPrimitives.ReadUInt32LittleEndian(h[36..]);
            sections[i] = new ImageSection(System.Text.Encoding.ASCII.GetString(end < 0 ? name : name[..end]),
                BinaryPrimitives.ReadUInt32LittleEndian(h[12..]), virtualSize != 0 ? virtualSize : rawSize,
                (flags & (CntCode | MemExecute)) != 0);
        }
        return sections;
    }

    /// <summary>
    /// Sections laid out from the DBI section map, for PDBs without a section-header stream (NGen'd images): the
    /// first at RVA 0x1000, each next one at the previous one's end rounded up to 0x1000, as the loader maps them.
    /// The map's absolute-address and group entries are no sections and take no room.
    /// </summary>
    public static ImageSection[] FromSectionMap(ReadOnlySpan<byte> map, string file)
    {
        const int EntrySize = 20;
        const ushort Execute = 0x4, AbsoluteAddress = 0x200, Group = 0x400;
        if (map.Length < 4) return [];
        int count = BinaryPrimitives.ReadUInt16LittleEndian(map);
        if (4 + (long)count * EntrySize > map.Length)
            throw new SymbolFormatException(file, $"the DBI section map counts {count} entries but holds {(map.Length - 4) / EntrySize}");
        var sections = new ImageSection[count];
        ulong next = 0x1000;
        for (int i = 0; i < count; i++)
        {
            var e = map.Slice(4 + i * EntrySize, EntrySize);
            ushort flags = BinaryPrimitives.ReadUInt16LittleEndian(e);
            uint length = BinaryPrimitives.ReadUInt32LittleEndian(e[16..]);
            if ((flags & (AbsoluteAddress | Group)) != 0 || next > uint.MaxValue)
            {
                sections[i] = new ImageSection("", 0, 0, false);
                continue;
            }
            sections[i] = new ImageSection("", (uint)next, (uint)Math.Min(length, uint.MaxValue - next), (flags & Execute) != 0);
            next = (next + length + 0xFFF) & ~0xFFFUL;
        }
        return sections;
    }
}
