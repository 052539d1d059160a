using System.Buffers.Binary;

namespace HiddenCost.Symbols.Msf;

/// <summary>
/// An MSF 7.0 container (the PDB's file system): fixed-size blocks, a stream directory listing each stream's size
/// and blocks, and the blocks holding the directory listed in blocks named by the super block (the "block map",
/// which spans several blocks when the directory is large). Streams are read on demand through a seekable stream;
/// nothing else of the file is read. Every index and size is checked against the file before it is used, so a
/// corrupt or hostile file gives a <see cref="SymbolFormatException"/>, never a crash or an allocation larger
/// than the file.
/// </summary>
internal sealed class MsfFile : IDisposable
{
    private const int SuperBlockSize = 52; // magic 32, block size, free map, block count, directory bytes, unknown, then the map's blocks
    private const uint NilStreamSize = 0xFFFFFFFF;

    private readonly Stream _file;
    private readonly bool _ownsFile;
    private readonly BlockReader _reader;
    private readonly uint[] _streamSizes;
    private readonly uint[][] _streamBlocks;

    private MsfFile(Stream file, bool ownsFile, BlockReader reader, uint[] sizes, uint[][] blocks)
    {
        _file = file;
        _ownsFile = ownsFile;
        _reader = reader;
        _streamSizes = sizes;
        _streamBlocks = blocks;
    }

    /// <summary>The file's path or name, used in every error.</summary>
    public string Name => _reader.Name;
    public int BlockSize => _reader.BlockSize;
    public uint BlockCount => _reader.BlockCount;
    public int StreamCount => _streamSizes.Length;

    public int StreamSize(int stream) => (int)_streamSizes[stream];

    /// <summary>Opens the container: reads the super block, the block map and the stream directory, and checks them.</summary>
    public static MsfFile Open(Stream file, string name, bool ownsFile = false)
    {
        try
        {
            return Read(file, name, ownsFile);
        }
        catch
        {
            if (ownsFile) file.Dispose();
            throw;
        }
    }

    private static MsfFile Read(Stream file, string name, bool ownsFile)
    {
        if (!file.CanSeek || !file.CanRead) throw new ArgumentException("a PDB is read through a readable, seekable stream", nameof(file));
        long length = file.Length;
        Span<byte> head = stackalloc byte[SuperBlockSize];
        int got = ReadAt(file, 0, head);
        if (got >= MsfSignature.ProbeLength && MsfSignature.Check(head) is { } wrong)
            throw new SymbolFormatException(name, wrong.Message, 0, wrong.Unsupported);
        if (got < SuperBlockSize)
        {
            if (got < MsfSignature.ProbeLength && !head[..got].SequenceEqual(MsfSignature.Msf70[..Math.Min(got, MsfSignature.Msf70.Length)]))
                throw new SymbolFormatException(name, "not a PDB: no MSF 7.0 signature", 0);
            throw new SymbolFormatException(name, $"truncated: {length} bytes, shorter than the MSF super block", length);
        }
        int blockSize = (int)Math.Min(BinaryPrimitives.ReadUInt32LittleEndian(head[32..]), int.MaxValue);
        uint blockCount = BinaryPrimitives.ReadUInt32LittleEndian(head[40..]);
        uint directoryBytes = BinaryPrimitives.ReadUInt32LittleEndian(head[44..]);
        if (blockSize is < 512 or > 32768 || (blockSize & (blockSize - 1)) != 0)
            throw new SymbolFormatException(name, $"block size {blockSize} is not a power of two from 512 to 32768", 32);
        if ((long)blockCount * blockSize > length)
            throw new SymbolFormatException(name,
                $"truncated: the super block counts {blockCount} blocks of {blockSize} bytes ({(long)blockCount * blockSize} bytes) but the file has {length}", length);
        if (directoryBytes < 4 || directoryBytes > (long)blockCount * blockSize)
            throw new SymbolFormatException(name, $"stream directory size {directoryBytes} is out of range for a file of {blockCount} blocks", 44);

        var reader = new BlockReader(file, name, blockSize, blockCount);
        int directoryBlocks = (int)((directoryBytes + blockSize - 1) / blockSize);
        int mapBlocks = (directoryBlocks * 4 + blockSize - 1) / blockSize;
        if (SuperBlockSize + 4L * mapBlocks > blockSize)
            throw new SymbolFormatException(name, $"the stream directory ({directoryBytes} bytes) needs {mapBlocks} block-map blocks, more than the super block lists", 44);
        var mapIndices = new byte[4 * mapBlocks];
        reader.ReadExact(SuperBlockSize, mapIndices, "the block map's block list");
        var map = reader.ReadBlocks(ToBlocks(mapIndices, mapBlocks), 4 * directoryBlocks, "the block map");
        var directory = reader.ReadBlocks(ToBlocks(map, directoryBlocks), (int)directoryBytes, "the stream directory");
        var (sizes, blocks) = ParseDirectory(directory, name, blockSize, blockCount, length);
        return new MsfFile(file, ownsFile, reader, sizes, blocks);
    }

    private static uint[] ToBlocks(byte[] bytes, int count)
    {
        var blocks = new uint[count];
        for (int i = 0; i < count; i++) blocks[i] = BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(4 * i));
        return blocks;
    }

    private static (uint[] Sizes, uint[][] Blocks) ParseDirectory(byte[] directory, string name, int blockSize, uint blockCount, long fileLength)
    {
        uint count = BinaryPrimitives.ReadUInt32LittleEndian(directory);
        if (count > (directory.Length - 4) / 4)
            throw new SymbolFormatException(name, $"the stream directory counts {count} streams but holds room for {(directory.Length - 4) / 4}");
        var sizes = new uint[count];
        var blocks = new uint[count][];
        int position = 4 + 4 * (int)count;
        long totalBlocks = 0;
        for (int i = 0; i < count; i++)
        {
            uint size = BinaryPrimitives.ReadUInt32LittleEndian(directory.AsSpan(4 + 4 * i));
            if (size == NilStreamSize) size = 0;
            if (size > fileLength)
                throw new SymbolFormatException(name, $"stream {i} is {size} bytes, larger than the file ({fileLength} bytes)");
            int n = (int)((size + (uint)blockSize - 1) / (uint)blockSize);
            totalBlocks += n;
            if (totalBlocks > blockCount || position + 4L * n > directory.Length)
                throw new SymbolFormatException(name, $"the stream directory lists more blocks than the file has (at stream {i})");
            sizes[i] = size;
            blocks[i] = n == 0 ? [] : ToBlocks(directory.AsSpan(position, 4 * n).ToArray(), n);
            position += 4 * n;
        }
        return (sizes, blocks);
    }

    /// <summary>A whole stream (its size was checked against the file when the directory was read).</summary>
    public byte[] ReadStream(int stream) => ReadStream(stream, 0, StreamSize(stream));

    /// <summary>Part of a stream: only the blocks holding it are read.</summary>
    public byte[] ReadStream(int stream, int offset, int count)
    {
        if ((uint)stream >= (uint)_streamSizes.Length)
            throw new SymbolFormatException(Name, $"stream {stream} does not exist (the directory lists {_streamSizes.Length})");
        if (offset < 0 || count < 0 || (long)offset + count > _streamSizes[stream])
            throw new SymbolFormatException(Name, $"stream {stream} holds {_streamSizes[stream]} bytes; bytes {offset}..{(long)offset + count} were asked for");
        var buffer = new byte[count];
        if (count == 0) return buffer;
        var blocks = _streamBlocks[stream];
        int first = offset / BlockSize, last = (offset + count - 1) / BlockSize;
        CheckNoBlockRepeats(stream, blocks.AsSpan(first, last - first + 1));
        _reader.ReadStreamBlocks(blocks, offset, buffer, $"stream {stream}");
        return buffer;
    }

    // A stream whose block list names a block twice is corrupt (the directory "loops"): reading it would hand the
    // same bytes out twice as different parts of the stream.
    private void CheckNoBlockRepeats(int stream, ReadOnlySpan<uint> blocks)
    {
        if (blocks.Length < 2) return;
        var seen = new HashSet<uint>();
        foreach (var block in blocks)
            if (!seen.Add(block)) throw new SymbolFormatException(Name, $"stream {stream} names block {block} twice (a loop in the stream directory)");
    }

    internal static int ReadAt(Stream file, long offset, Span<byte> buffer)
    {
        // Past the end nothing is read (and no seek is made: a MemoryStream refuses positions past 2 GiB).
        if (offset >= file.Length) return 0;
        file.Position = offset;
        int total = 0;
        while (total < buffer.Length)
        {
            int n = file.Read(buffer[total..]);
            if (n == 0) break;
            total += n;
        }
        return total;
    }

    public void Dispose()
    {
        if (_ownsFile) _file.Dispose();
    }
}
