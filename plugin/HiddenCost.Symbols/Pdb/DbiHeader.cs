using System.Buffers.Binary;

namespace HiddenCost.Symbols.Pdb;

/// <summary>
/// The DBI stream's 64-byte header (stream 3): its age (the one an image's RSDS record carries), the streams of
/// the publics and of the symbol records, and the sizes of the substreams that follow it, in this order: module
/// info, section contributions, section map, file info, type server map, EC, optional debug header.
/// </summary>
internal readonly record struct DbiHeader(
    uint Age, ushort PublicsStream, ushort SymbolRecordStream, ushort Machine,
    int ModuleInfoSize, int SectionContributionSize, int SectionMapSize, int FileInfoSize, int TypeServerMapSize,
    int EcSize, int DebugHeaderSize)
{
    public const int Size = 64;
    public const ushort NoStream = 0xFFFF;

    public int SectionMapOffset => Size + ModuleInfoSize + SectionContributionSize;
    public int DebugHeaderOffset => SectionMapOffset + SectionMapSize + FileInfoSize + TypeServerMapSize + EcSize;

    public static DbiHeader Parse(ReadOnlySpan<byte> h, int streamSize, string file)
    {
        if (BinaryPrimitives.ReadInt32LittleEndian(h) != -1)
            throw new SymbolFormatException(file, "the DBI stream has no version signature (-1): an old or corrupt PDB");
        var header = new DbiHeader(
            Age: BinaryPrimitives.ReadUInt32LittleEndian(h[8..]),
            PublicsStream: BinaryPrimitives.ReadUInt16LittleEndian(h[16..]),
            SymbolRecordStream: BinaryPrimitives.ReadUInt16LittleEndian(h[20..]),
            Machine: BinaryPrimitives.ReadUInt16LittleEndian(h[58..]),
            ModuleInfoSize: BinaryPrimitives.ReadInt32LittleEndian(h[24..]),
            SectionContributionSize: BinaryPrimitives.ReadInt32LittleEndian(h[28..]),
            SectionMapSize: BinaryPrimitives.ReadInt32LittleEndian(h[32..]),
            FileInfoSize: BinaryPrimitives.ReadInt32LittleEndian(h[36..]),
            TypeServerMapSize: BinaryPrimitives.ReadInt32LittleEndian(h[40..]),
            EcSize: BinaryPrimitives.ReadInt32LittleEndian(h[52..]),
            DebugHeaderSize: BinaryPrimitives.ReadInt32LittleEndian(h[48..]));
        long total = Size;
        foreach (int part in new[] { header.ModuleInfoSize, header.SectionContributionSize, header.SectionMapSize, header.FileInfoSize,
                     header.TypeServerMapSize, header.EcSize, header.DebugHeaderSize })
        {
            if (part < 0) throw new SymbolFormatException(file, $"the DBI header gives a negative substream size ({part})");
            total += part;
        }
        if (total > streamSize)
            throw new SymbolFormatException(file, $"the DBI header's substreams add up to {total} bytes, more than the stream's {streamSize}");
        return header;
    }
}
