namespace HiddenCost.Symbols.Msf;

/// <summary>Reads MSF blocks by index, checking each index against the file and coalescing runs of consecutive blocks into one read.</summary>
internal readonly struct BlockReader(Stream file, string name, int blockSize, uint blockCount)
{
    /// <summary>The file's path or name, used in every error.</summary>
    public string Name => name;
    public int BlockSize => blockSize;
    public uint BlockCount => blockCount;

    public void ReadExact(long offset, Span<byte> buffer, string what)
    {
        int got = MsfFile.ReadAt(file, offset, buffer);
        if (got < buffer.Length) throw new SymbolFormatException(name, $"truncated while reading {what}", offset + got);
    }

    /// <summary>The first <paramref name="length"/> bytes of the blocks listed, in order (a directory or the block map).</summary>
    public byte[] ReadBlocks(uint[] blocks, int length, string what)
    {
        var seen = new HashSet<uint>();
        foreach (var block in blocks)
        {
            Check(block, what);
            if (!seen.Add(block)) throw new SymbolFormatException(name, $"{what} names block {block} twice (a loop)");
        }
        var buffer = new byte[length];
        ReadStreamBlocks(blocks, 0, buffer, what);
        return buffer;
    }

    /// <summary>Fills <paramref name="buffer"/> with the bytes of a stream made of <paramref name="blocks"/>, from <paramref name="offset"/> on.</summary>
    public void ReadStreamBlocks(uint[] blocks, int offset, Span<byte> buffer, string what)
    {
        int index = offset / blockSize, within = offset % blockSize, done = 0;
        while (done < buffer.Length)
        {
            uint block = blocks[index];
            Check(block, what);
            // A run of blocks that follow each other in the file is one read.
            int run = 1;
            int want = Math.Min(blockSize - within, buffer.Length - done);
            while (done + want < buffer.Length && index + run < blocks.Length && blocks[index + run] == block + (uint)run)
            {
                Check(blocks[index + run], what);
                want = Math.Min(want + blockSize, buffer.Length - done);
                run++;
            }
            ReadExact((long)block * blockSize + within, buffer.Slice(done, want), what);
            done += want;
            index += run;
            within = 0;
        }
    }

    // Block 0 is the super block: no stream lives there.
    private void Check(uint block, string what)
    {
        if (block == 0 || block >= blockCount)
            throw new SymbolFormatException(name, $"{what} names block {block}, outside the file's blocks 1..{blockCount - 1}");
    }
}
