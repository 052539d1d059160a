using System.Buffers.Binary;

namespace HiddenCost.Symbols.Pdb;

/// <summary>
/// Reads the publics: the publics stream's address map lists the offset of every S_PUB32 record in the symbol
/// record stream (same-named overloads included, unlike the name hash), sorted by segment:offset; each record's
/// segment:offset becomes an RVA through the image's sections.
/// </summary>
internal static class PublicsReader
{
    private const int PublicsHeaderSize = 28; // PSGSIHDR: hash size, address map size, thunk count and size, thunk table, section count
    private const ushort SPub32 = 0x110E;
    private const int PubFixedSize = 14; // length, kind, flags, offset, segment
    private const ushort MachineX86 = 0x14C;

    public static PublicSymbolTable Read(Msf.MsfFile msf, DbiHeader dbi, ImageSection[] sections)
    {
        if (dbi.PublicsStream == DbiHeader.NoStream || dbi.SymbolRecordStream == DbiHeader.NoStream)
            return new PublicSymbolTable([], [0], [], sections, 0);
        var name = msf.Name;
        int publicsSize = msf.StreamSize(dbi.PublicsStream);
        if (publicsSize < PublicsHeaderSize)
            throw new SymbolFormatException(name, $"the publics stream ({dbi.PublicsStream}) is {publicsSize} bytes, shorter than its header");
        var header = msf.ReadStream(dbi.PublicsStream, 0, PublicsHeaderSize);
        uint hashSize = BinaryPrimitives.ReadUInt32LittleEndian(header);
        uint mapSize = BinaryPrimitives.ReadUInt32LittleEndian(header.AsSpan(4));
        if ((long)PublicsHeaderSize + hashSize + mapSize > publicsSize || mapSize % 4 != 0)
            throw new SymbolFormatException(name, $"the publics stream's hash ({hashSize} bytes) and address map ({mapSize} bytes) do not fit its {publicsSize} bytes");
        var map = msf.ReadStream(dbi.PublicsStream, PublicsHeaderSize + (int)hashSize, (int)mapSize);
        var records = msf.ReadStream(dbi.SymbolRecordStream);
        return Build(map, records, sections, dbi.Machine == MachineX86, name);
    }

    private static PublicSymbolTable Build(byte[] map, byte[] records, ImageSection[] sections, bool x86, string file)
    {
        int count = map.Length / 4;
        var keys = new ulong[count]; // RVA << 32 | position in the map: sorts by address, ties in map order
        var nameStart = new int[count];
        var nameLength = new int[count];
        int kept = 0;
        for (int i = 0; i < count; i++)
        {
            uint offset = BinaryPrimitives.ReadUInt32LittleEndian(map.AsSpan(4 * i));
            var (segment, sectionOffset, start, length) = ParseRecord(records, offset, i, file);
            if (segment == 0 || segment > sections.Length) continue; // absolute symbols have no section
            var section = sections[segment - 1];
            if (!section.Executable || sectionOffset >= section.Size) continue;
            (start, length) = x86 ? Undecorate(records, start, length) : (start, length);
            keys[kept] = (ulong)(section.VirtualAddress + sectionOffset) << 32 | (uint)kept;
            nameStart[kept] = start;
            nameLength[kept] = length;
            kept++;
        }
        Array.Sort(keys, 0, kept);
        // Aliases (folded functions) share an address: the first in the map names it. Sized exactly, in two passes.
        int distinct = 0, nameBytes = 0;
        for (int k = 0; k < kept; k++)
        {
            if (k > 0 && keys[k] >> 32 == keys[k - 1] >> 32) continue;
            distinct++;
            nameBytes += nameLength[(int)(uint)keys[k]];
        }
        var rvas = new uint[distinct];
        var starts = new int[distinct + 1];
        var names = new byte[nameBytes];
        int n = 0, at = 0;
        for (int k = 0; k < kept; k++)
        {
            if (k > 0 && keys[k] >> 32 == keys[k - 1] >> 32) continue;
            int i = (int)(uint)keys[k];
            Buffer.BlockCopy(records, nameStart[i], names, at, nameLength[i]);
            rvas[n] = (uint)(keys[k] >> 32);
            starts[n++] = at;
            at += nameLength[i];
        }
        starts[n] = at;
        return new PublicSymbolTable(rvas, starts, names, sections, count);
    }

    private static (ushort Segment, uint Offset, int NameStart, int NameLength) ParseRecord(byte[] records, uint offset, int index, string file)
    {
        if (offset > records.Length - PubFixedSize)
            throw new SymbolFormatException(file, $"public {index} of the address map points at offset {offset}, outside the symbol records ({records.Length} bytes)");
        var r = records.AsSpan((int)offset);
        int recordLength = BinaryPrimitives.ReadUInt16LittleEndian(r) + 2;
        ushort kind = BinaryPrimitives.ReadUInt16LittleEndian(r[2..]);
        if (kind != SPub32)
            throw new SymbolFormatException(file, $"public {index} of the address map points at a record of kind 0x{kind:X4}, not S_PUB32", offset);
        if (recordLength < PubFixedSize || recordLength > r.Length)
            throw new SymbolFormatException(file, $"the S_PUB32 record of public {index} is {recordLength} bytes, outside its stream", offset);
        var name = r[PubFixedSize..recordLength];
        int end = name.IndexOf((byte)0);
        return (BinaryPrimitives.ReadUInt16LittleEndian(r[12..]), BinaryPrimitives.ReadUInt32LittleEndian(r[8..]),
            (int)offset + PubFixedSize, end < 0 ? name.Length : end);
    }

    /// <summary>x86 C names as the compiler decorates them: <c>_name</c> (cdecl), <c>_name@8</c> (stdcall), <c>@name@8</c> (fastcall).</summary>
    internal static (int Start, int Length) Undecorate(byte[] records, int start, int length)
    {
        var name = records.AsSpan(start, length);
        if (name.Length < 2 || name[0] is not ((byte)'_' or (byte)'@')) return (start, length);
        int at = name.LastIndexOf((byte)'@');
        bool sized = at > 1 && at < name.Length - 1 && AllDigits(name[(at + 1)..]);
        if (name[0] == '@' && !sized) return (start, length);
        return (start + 1, (sized ? at : name.Length) - 1);
    }

    private static bool AllDigits(ReadOnlySpan<byte> s)
    {
        foreach (var b in s) if (b is < (byte)'0' or > (byte)'9') return false;
        return true;
    }
}
