using System.Buffers.Binary;
using HiddenCost.Symbols.Msf;

namespace HiddenCost.Symbols.Pdb;

/// <summary>
/// A Windows PDB opened for its identity (PDB info stream: GUID and age; DBI stream: its age, which an image's
/// RSDS record repeats) and its public symbols. Reads only the streams it needs, through the seekable stream it
/// was given; any inconsistency is a <see cref="SymbolFormatException"/> naming the file.
/// </summary>
public sealed class PdbFile : IDisposable
{
    private const int InfoStream = 1, DbiStream = 3;
    private const int InfoHeaderSize = 28; // version, signature, age, GUID
    private const int SectionHeaderSlot = 5; // in the optional debug header: FPO, exception, fixup, OMAP to/from source, section headers…

    private readonly MsfFile _msf;
    private readonly DbiHeader _dbi;

    private PdbFile(MsfFile msf, Guid guid, uint infoAge, DbiHeader dbi)
    {
        _msf = msf;
        Guid = guid;
        InfoAge = infoAge;
        _dbi = dbi;
    }

    /// <summary>The path or name the PDB was opened under (used in every error).</summary>
    public string Name => _msf.Name;

    public Guid Guid { get; }

    /// <summary>The DBI stream's age: the one an image's RSDS record must match.</summary>
    public uint Age => _dbi.Age;

    /// <summary>The PDB info stream's age (counts writes of the PDB; usually equal to <see cref="Age"/>).</summary>
    public uint InfoAge { get; }

    /// <summary>The IMAGE_FILE_MACHINE value of the image (0x8664 x64, 0x14C x86, 0xAA64 ARM64).</summary>
    public ushort Machine => _dbi.Machine;

    public int BlockSize => _msf.BlockSize;

    public static PdbFile Open(string path)
    {
        var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read | FileShare.Delete, bufferSize: 1, FileOptions.RandomAccess);
        return Open(stream, path, leaveOpen: false);
    }

    /// <summary>Opens a PDB read through <paramref name="stream"/> (readable and seekable); <paramref name="name"/> names it in errors.</summary>
    public static PdbFile Open(Stream stream, string name, bool leaveOpen = true)
    {
        var msf = MsfFile.Open(stream, name, ownsFile: !leaveOpen);
        try
        {
            if (msf.StreamCount <= DbiStream)
                throw new SymbolFormatException(name, $"the MSF holds {msf.StreamCount} streams, too few for a PDB (info stream 1, DBI stream 3)");
            if (msf.StreamSize(InfoStream) < InfoHeaderSize)
                throw new SymbolFormatException(name, $"the PDB info stream is {msf.StreamSize(InfoStream)} bytes, shorter than its header");
            var info = msf.ReadStream(InfoStream, 0, InfoHeaderSize);
            if (msf.StreamSize(DbiStream) < DbiHeader.Size)
                throw new SymbolFormatException(name, $"the DBI stream is {msf.StreamSize(DbiStream)} bytes, shorter than its header");
            var dbi = DbiHeader.Parse(msf.ReadStream(DbiStream, 0, DbiHeader.Size), msf.StreamSize(DbiStream), name);
            return new PdbFile(msf, new Guid(info.AsSpan(12, 16)), BinaryPrimitives.ReadUInt32LittleEndian(info.AsSpan(8)), dbi);
        }
        catch
        {
            msf.Dispose();
            throw;
        }
    }

    /// <summary>True when this is the PDB an image's RSDS record (GUID, age) names.</summary>
    public bool Matches(Guid guid, uint age) => Guid == guid && Age == age;

    /// <summary>The image's sections: the PDB's copy of the section headers, else (NGen'd images) laid out from the DBI section map.</summary>
    public ImageSection[] ReadSections()
    {
        int stream = SectionHeaderStream();
        if (stream != DbiHeader.NoStream)
        {
            if (stream >= _msf.StreamCount)
                throw new SymbolFormatException(Name, $"the DBI debug header names section-header stream {stream}, but the PDB has {_msf.StreamCount} streams");
            return ImageSection.FromSectionHeaders(_msf.ReadStream(stream));
        }
        return ImageSection.FromSectionMap(_msf.ReadStream(DbiStream, _dbi.SectionMapOffset, _dbi.SectionMapSize), Name);
    }

    /// <summary>Reads the publics and indexes those in executable sections by RVA.</summary>
    public PublicSymbolTable ReadPublics()
    {
        var sections = ReadSections();
        foreach (var stream in new[] { _dbi.PublicsStream, _dbi.SymbolRecordStream })
            if (stream != DbiHeader.NoStream && stream >= _msf.StreamCount)
                throw new SymbolFormatException(Name, $"the DBI header names stream {stream}, but the PDB has {_msf.StreamCount} streams");
        return PublicsReader.Read(_msf, _dbi, sections);
    }

    private int SectionHeaderStream()
    {
        if (_dbi.DebugHeaderSize < 2 * (SectionHeaderSlot + 1)) return DbiHeader.NoStream;
        var slot = _msf.ReadStream(DbiStream, _dbi.DebugHeaderOffset + 2 * SectionHeaderSlot, 2);
        return BinaryPrimitives.ReadUInt16LittleEndian(slot);
    }

    public void Dispose() => _msf.Dispose();
}
