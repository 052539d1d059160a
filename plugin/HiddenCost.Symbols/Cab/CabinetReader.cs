using System.Buffers.Binary;
using System.Text;

namespace HiddenCost.Symbols.Cab;

/// <summary>
/// Expands the one file of a cabinet (MS-CAB), as <c>symstore /compress</c> and <c>makecab</c> write a PDB into
/// <c>name.pd_</c>: the header, the folders (each a run of CFDATA blocks with one compression), the files (each a
/// range of its folder's uncompressed bytes). MSZIP and uncompressed folders are read; LZX and Quantum are
/// reported as unsupported. Every size is checked; a corrupt cabinet is a <see cref="SymbolFormatException"/>.
/// </summary>
internal static class CabinetReader
{
    private const int HeaderSize = 36, FolderSize = 8, FileSize = 16, DataSize = 8;
    private const ushort PreviousCabinet = 1, NextCabinet = 2, ReservePresent = 4;
    private const int MaxBlockBytes = 32768;

    private readonly record struct Folder(uint FirstData, ushort DataCount, ushort Compression);
    private readonly record struct CabFile(uint Size, uint FolderOffset, ushort Folder, string Name);

    /// <summary>
    /// Writes the file named <paramref name="wanted"/> (any case; or the only file) from the cabinet in
    /// <paramref name="cabinet"/> to <paramref name="output"/>, and returns its name as stored.
    /// </summary>
    public static string Expand(Stream cabinet, string name, string? wanted, Stream output)
    {
        var header = ReadExact(cabinet, 0, HeaderSize, name, "the cabinet header");
        if (!header.AsSpan(0, 4).SequenceEqual("MSCF"u8)) throw new SymbolFormatException(name, "not a cabinet: no MSCF signature", 0);
        if (header[25] != 1) throw new SymbolFormatException(name, $"cabinet version {header[25]}.{header[24]}, not 1.x", 24, unsupported: true);
        uint filesAt = BinaryPrimitives.ReadUInt32LittleEndian(header.AsSpan(16));
        int folderCount = BinaryPrimitives.ReadUInt16LittleEndian(header.AsSpan(26));
        int fileCount = BinaryPrimitives.ReadUInt16LittleEndian(header.AsSpan(28));
        ushort flags = BinaryPrimitives.ReadUInt16LittleEndian(header.AsSpan(30));
        if ((flags & (PreviousCabinet | NextCabinet)) != 0)
            throw new SymbolFormatException(name, "a cabinet spanning several files (a set), which this reader does not support", 30, unsupported: true);
        long position = HeaderSize;
        int folderReserve = 0, dataReserve = 0;
        if ((flags & ReservePresent) != 0)
        {
            var reserve = ReadExact(cabinet, position, 4, name, "the reserve sizes");
            int headerReserve = BinaryPrimitives.ReadUInt16LittleEndian(reserve);
            folderReserve = reserve[2];
            dataReserve = reserve[3];
            position += 4 + headerReserve;
        }
        var folders = new Folder[folderCount];
        for (int i = 0; i < folderCount; i++, position += FolderSize + folderReserve)
        {
            var f = ReadExact(cabinet, position, FolderSize, name, $"folder {i}");
            folders[i] = new Folder(BinaryPrimitives.ReadUInt32LittleEndian(f), BinaryPrimitives.ReadUInt16LittleEndian(f.AsSpan(4)),
                BinaryPrimitives.ReadUInt16LittleEndian(f.AsSpan(6)));
        }
        var files = ReadFiles(cabinet, filesAt, fileCount, name);
        var file = files.Count == 1 && wanted is null ? files[0]
            : files.FirstOrDefault(f => string.Equals(f.Name, wanted, StringComparison.OrdinalIgnoreCase));
        if (file.Name is null)
            throw new SymbolFormatException(name, $"the cabinet holds no file {wanted ?? "(it holds several)"}; it holds {string.Join(", ", files.Select(f => f.Name))}");
        if (file.Folder >= folderCount) throw new SymbolFormatException(name, $"file {file.Name} is in folder {file.Folder}, but the cabinet has {folderCount}");
        ExpandFolder(cabinet, name, folders[file.Folder], dataReserve, file, output);
        return file.Name;
    }

    private static List<CabFile> ReadFiles(Stream cabinet, uint at, int count, string name)
    {
        var files = new List<CabFile>();
        long position = at;
        for (int i = 0; i < count; i++)
        {
            var f = ReadExact(cabinet, position, FileSize, name, $"file entry {i}");
            var fileName = ReadName(cabinet, position + FileSize, name);
            files.Add(new CabFile(BinaryPrimitives.ReadUInt32LittleEndian(f), BinaryPrimitives.ReadUInt32LittleEndian(f.AsSpan(4)),
                BinaryPrimitives.ReadUInt16LittleEndian(f.AsSpan(8)), fileName));
            position += FileSize + Encoding.UTF8.GetByteCount(fileName) + 1;
        }
        return files;
    }

    private static string ReadName(Stream cabinet, long at, string name)
    {
        const int MaxName = 256;
        if (at >= cabinet.Length) throw new SymbolFormatException(name, "truncated in a file name", at);
        cabinet.Position = at;
        var bytes = new List<byte>();
        int b;
        while ((b = cabinet.ReadByte()) > 0)
        {
            if (bytes.Count == MaxName) throw new SymbolFormatException(name, "a file name in the cabinet longer than 256 bytes", at);
            bytes.Add((byte)b);
        }
        if (b < 0) throw new SymbolFormatException(name, "truncated in a file name", at);
        return Encoding.UTF8.GetString(bytes.ToArray());
    }

    private static void ExpandFolder(Stream cabinet, string name, Folder folder, int dataReserve, CabFile file, Stream output)
    {
        int compression = folder.Compression & 0xF;
        if (compression is 2 or 3)
            throw new SymbolFormatException(name, $"{(compression == 3 ? "LZX" : "Quantum")} compression, which this reader does not decode (MSZIP and stored cabinets are read)", unsupported: true);
        if (compression > 3) throw new SymbolFormatException(name, $"unknown cabinet compression {compression}");
        var inflater = new Inflater();
        var data = new byte[0xFFFF];
        var block = new byte[MaxBlockBytes];
        long position = folder.FirstData, produced = 0, fileEnd = (long)file.FolderOffset + file.Size;
        for (int i = 0; i < folder.DataCount && produced < fileEnd; i++)
        {
            var h = ReadExact(cabinet, position, DataSize, name, $"data block {i}");
            uint checksum = BinaryPrimitives.ReadUInt32LittleEndian(h);
            int packed = BinaryPrimitives.ReadUInt16LittleEndian(h.AsSpan(4));
            int unpacked = BinaryPrimitives.ReadUInt16LittleEndian(h.AsSpan(6));
            if (unpacked > MaxBlockBytes || unpacked == 0) throw new SymbolFormatException(name, $"data block {i} unpacks to {unpacked} bytes (1 to 32768 allowed)", position);
            var reserve = ReadExact(cabinet, position + DataSize, dataReserve, name, $"data block {i}'s reserve");
            position += DataSize + dataReserve;
            ReadInto(cabinet, position, data.AsSpan(0, packed), name, $"data block {i}");
            if (checksum != 0 && Checksum(data.AsSpan(0, packed), h.AsSpan(4, 4), reserve) != checksum)
                throw new SymbolFormatException(name, $"data block {i} fails its checksum", position - DataSize - dataReserve);
            position += packed;
            if (compression == 0)
            {
                if (packed != unpacked) throw new SymbolFormatException(name, $"stored data block {i} packs {packed} bytes but holds {unpacked}");
                data.AsSpan(0, packed).CopyTo(block);
            }
            else
            {
                if (packed < 2 || data[0] != 'C' || data[1] != 'K') throw new SymbolFormatException(name, $"MSZIP data block {i} lacks its CK signature", position - packed);
                try
                {
                    inflater.Inflate(data, 2, packed - 2, block.AsSpan(0, unpacked));
                }
                catch (InvalidDataException e)
                {
                    throw new SymbolFormatException(name, $"MSZIP data block {i}: {e.Message}", position - packed);
                }
            }
            // Only the file's own range of the folder's bytes is written.
            long from = Math.Max(produced, file.FolderOffset), to = Math.Min(produced + unpacked, fileEnd);
            if (to > from) output.Write(block, (int)(from - produced), (int)(to - from));
            produced += unpacked;
        }
        if (produced < fileEnd) throw new SymbolFormatException(name, $"the folder's data blocks hold {produced} bytes; file {file.Name} ends at {fileEnd}");
    }

    /// <summary>MS-CAB's checksum: the XOR of the data as little-endian 32-bit words (a tail of 1–3 bytes taken high byte first), then of the size fields and the reserve.</summary>
    internal static uint Checksum(ReadOnlySpan<byte> data, ReadOnlySpan<byte> sizes, ReadOnlySpan<byte> reserve)
    {
        uint sum = Fold(data, 0);
        // The sizes (4 bytes) and the reserve follow the data in the checksum, as if contiguous.
        Span<byte> tail = stackalloc byte[4 + reserve.Length];
        sizes.CopyTo(tail);
        reserve.CopyTo(tail[4..]);
        return Fold(tail, sum);
    }

    private static uint Fold(ReadOnlySpan<byte> data, uint sum)
    {
        int words = data.Length / 4;
        for (int i = 0; i < words; i++) sum ^= BinaryPrimitives.ReadUInt32LittleEndian(data[(4 * i)..]);
        uint tail = 0;
        var rest = data[(4 * words)..];
        for (int i = 0; i < rest.Length; i++) tail = tail << 8 | rest[i];
        return sum ^ tail;
    }

    private static byte[] ReadExact(Stream s, long at, int count, string name, string what)
    {
        var buffer = new byte[count];
        ReadInto(s, at, buffer, name, what);
        return buffer;
    }

    private static void ReadInto(Stream s, long at, Span<byte> buffer, string name, string what)
    {
        if (Msf.MsfFile.ReadAt(s, at, buffer) < buffer.Length) throw new SymbolFormatException(name, $"truncated in {what}", at);
    }
}
