using System.Buffers.Binary;
using HiddenCost.Symbols.Msf;

namespace HiddenCost.Symbols.Tests.Support;

/// <summary>
/// Writes MSF 7.0 files for tests: the streams of a real PDB laid out again with another block size, their blocks
/// in a shuffled order, and a stream directory whose block list (the block map) can span several blocks, as large
/// PDBs have. Layout: block 0 the super block, blocks 1–2 the free-block maps, then data, directory and map blocks.
/// </summary>
internal static class MsfWriter
{
    public static byte[] Write(IReadOnlyList<byte[]> streams, int blockSize, int seed = 1)
    {
        int Blocks(long bytes) => (int)((bytes + blockSize - 1) / blockSize);
        int dataBlocks = streams.Sum(s => Blocks(s.Length));
        long directoryBytes = 4 + 4L * streams.Count + 4L * dataBlocks;
        int directoryBlocks = Blocks(directoryBytes);
        int mapBlocks = Blocks(4L * directoryBlocks);
        int total = 3 + dataBlocks + directoryBlocks + mapBlocks;
        var order = Enumerable.Range(3, dataBlocks + directoryBlocks + mapBlocks).ToArray();
        new Random(seed).Shuffle(order);
        int next = 0;
        var file = new byte[(long)total * blockSize];
        var directory = new byte[directoryBytes];
        BinaryPrimitives.WriteInt32LittleEndian(directory, streams.Count);
        int listAt = 4 + 4 * streams.Count;
        for (int i = 0; i < streams.Count; i++)
        {
            BinaryPrimitives.WriteInt32LittleEndian(directory.AsSpan(4 + 4 * i), streams[i].Length);
            for (int b = 0; b < Blocks(streams[i].Length); b++)
            {
                int block = order[next++];
                BinaryPrimitives.WriteInt32LittleEndian(directory.AsSpan(listAt), block);
                listAt += 4;
                var part = streams[i].AsSpan(b * blockSize, Math.Min(blockSize, streams[i].Length - b * blockSize));
                part.CopyTo(file.AsSpan(block * blockSize));
            }
        }
        var map = new byte[4 * directoryBlocks];
        for (int b = 0; b < directoryBlocks; b++)
        {
            int block = order[next++];
            BinaryPrimitives.WriteInt32LittleEndian(map.AsSpan(4 * b), block);
            directory.AsSpan(b * blockSize, (int)Math.Min(blockSize, directoryBytes - b * blockSize)).CopyTo(file.AsSpan(block * blockSize));
        }
        var super = file.AsSpan(0, blockSize);
        MsfSignature.Msf70.CopyTo(super);
        BinaryPrimitives.WriteInt32LittleEndian(super[32..], blockSize);
        BinaryPrimitives.WriteInt32LittleEndian(super[36..], 1);
        BinaryPrimitives.WriteInt32LittleEndian(super[40..], total);
        BinaryPrimitives.WriteInt32LittleEndian(super[44..], (int)directoryBytes);
        for (int b = 0; b < mapBlocks; b++)
        {
            int block = order[next++];
            BinaryPrimitives.WriteInt32LittleEndian(super[(52 + 4 * b)..], block);
            map.AsSpan(b * blockSize, Math.Min(blockSize, map.Length - b * blockSize)).CopyTo(file.AsSpan(block * blockSize));
        }
        return file;
    }

    /// <summary>Every stream of an MSF file, read with the reader under test.</summary>
    public static List<byte[]> ReadStreams(string path)
    {
        using var msf = MsfFile.Open(File.OpenRead(path), path, ownsFile: true);
        return Enumerable.Range(0, msf.StreamCount).Select(msf.ReadStream).ToList();
    }
}
