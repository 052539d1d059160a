using System.Buffers.Binary;
using System.Text;

namespace HiddenCost.TestSupport;

/// <summary>
/// Writes a minimal synthetic PDB (labelled so: for tests only, never a real build's): an MSF 7.0 file with a PDB info
/// stream (GUID, age), a DBI header naming the publics, symbol-record and section-header streams, one executable
/// .text section at RVA 0x1000, and one S_PUB32 per (name, RVA) in the publics' address map — the parts a publics
/// reader uses. It lets a synthetic trace's synthetic kernel identity have a PDB whose publics sit at its syscalls.
/// </summary>
public static class SyntheticPdbWriter
{
    private const int BlockSize = 4096;

    public static byte[] Write(Guid guid, uint age, IReadOnlyList<(string Name, uint Rva)> publics)
    {
        uint textSize = publics.Max(p => p.Rva) - 0x1000 + 0x1000;
        var info = new byte[28];
        BinaryPrimitives.WriteUInt32LittleEndian(info, 20000404);
        BinaryPrimitives.WriteUInt32LittleEndian(info.AsSpan(8), age);
        guid.TryWriteBytes(info.AsSpan(12));

        var records = new MemoryStream();
        var map = new MemoryStream();
        foreach (var (name, rva) in publics.OrderBy(p => p.Rva))
        {
            var bytes = Encoding.UTF8.GetBytes(name);
            int length = (14 + bytes.Length + 1 + 3) & ~3;
            var record = new byte[length];
            BinaryPrimitives.WriteUInt16LittleEndian(record, (ushort)(length - 2));
            BinaryPrimitives.WriteUInt16LittleEndian(record.AsSpan(2), 0x110E); // S_PUB32
            BinaryPrimitives.WriteUInt32LittleEndian(record.AsSpan(4), 2); // function
            BinaryPrimitives.WriteUInt32LittleEndian(record.AsSpan(8), rva - 0x1000);
            BinaryPrimitives.WriteUInt16LittleEndian(record.AsSpan(12), 1);
            bytes.CopyTo(record, 14);
            map.Write(BitConverter.GetBytes((uint)records.Length));
            records.Write(record);
        }
        var publicsStream = new byte[28 + map.Length];
        BinaryPrimitives.WriteUInt32LittleEndian(publicsStream.AsSpan(4), (uint)map.Length);
        map.ToArray().CopyTo(publicsStream, 28);

        var section = new byte[40];
        ".text"u8.CopyTo(section);
        BinaryPrimitives.WriteUInt32LittleEndian(section.AsSpan(8), textSize);
        BinaryPrimitives.WriteUInt32LittleEndian(section.AsSpan(12), 0x1000);
        BinaryPrimitives.WriteUInt32LittleEndian(section.AsSpan(36), 0x60000020);

        var dbi = new byte[64 + 22];
        BinaryPrimitives.WriteInt32LittleEndian(dbi, -1);
        BinaryPrimitives.WriteUInt32LittleEndian(dbi.AsSpan(4), 19990903);
        BinaryPrimitives.WriteUInt32LittleEndian(dbi.AsSpan(8), age);
        BinaryPrimitives.WriteUInt16LittleEndian(dbi.AsSpan(12), 0xFFFF);
        BinaryPrimitives.WriteUInt16LittleEndian(dbi.AsSpan(16), 4); // publics
        BinaryPrimitives.WriteUInt16LittleEndian(dbi.AsSpan(20), 5); // symbol records
        BinaryPrimitives.WriteInt32LittleEndian(dbi.AsSpan(48), 22); // optional debug header: 11 stream numbers
        BinaryPrimitives.WriteUInt16LittleEndian(dbi.AsSpan(58), 0x8664);
        for (int slot = 0; slot < 11; slot++) BinaryPrimitives.WriteUInt16LittleEndian(dbi.AsSpan(64 + 2 * slot), slot == 5 ? (ushort)6 : (ushort)0xFFFF);

        return Msf([[], info, [], dbi, publicsStream, records.ToArray(), section]);
    }

    /// <summary>Block 0 the super block, 1–2 the free maps, then each stream's blocks, the directory, its block list.</summary>
    private static byte[] Msf(byte[][] streams)
    {
        int Blocks(int bytes) => (bytes + BlockSize - 1) / BlockSize;
        int next = 3;
        var directory = new MemoryStream();
        directory.Write(BitConverter.GetBytes(streams.Length));
        foreach (var s in streams) directory.Write(BitConverter.GetBytes(s.Length));
        var placed = new List<(int Block, byte[] Bytes)>();
        foreach (var s in streams)
            for (int b = 0; b < Blocks(s.Length); b++)
            {
                directory.Write(BitConverter.GetBytes(next));
                placed.Add((next++, s.AsSpan(b * BlockSize, Math.Min(BlockSize, s.Length - b * BlockSize)).ToArray()));
            }
        var dir = directory.ToArray();
        if (dir.Length > BlockSize) throw new InvalidOperationException("a one-block directory only");
        int dirBlock = next++, mapBlock = next++;
        placed.Add((dirBlock, dir));
        placed.Add((mapBlock, BitConverter.GetBytes(dirBlock)));
        var file = new byte[next * BlockSize];
        "Microsoft C/C++ MSF 7.00\r\n\u001aDS\0\0\0"u8.CopyTo(file);
        BinaryPrimitives.WriteInt32LittleEndian(file.AsSpan(32), BlockSize);
        BinaryPrimitives.WriteInt32LittleEndian(file.AsSpan(36), 1);
        BinaryPrimitives.WriteInt32LittleEndian(file.AsSpan(40), next);
        BinaryPrimitives.WriteInt32LittleEndian(file.AsSpan(44), dir.Length);
        BinaryPrimitives.WriteInt32LittleEndian(file.AsSpan(52), mapBlock);
        foreach (var (block, bytes) in placed) bytes.CopyTo(file, block * BlockSize);
        return file;
    }
}
