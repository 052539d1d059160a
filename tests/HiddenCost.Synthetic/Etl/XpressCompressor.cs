using System.Buffers.Binary;

namespace HiddenCost.Synthetic.Etl;

/// <summary>
/// MS-XCA "Plain LZ77" (XPRESS) compression, the format of compressed ETL buffers
/// (etl-format-and-traceprocessing.md §2.1; [MS-XCA] §2.3 compression / §2.4 decompression).
/// Output layout: 32-bit flag words (first flag in the most significant bit; 1 = match, 0 = literal) each
/// followed by the 32 items they describe. A match is a u16 ((offset − 1) &lt;&lt; 3 | min(length − 3, 7));
/// longer lengths continue in a shared half byte, then a byte, then a u16 or u32. Unused trailing flag bits are
/// set to 1: a decompressor that meets a match flag at the end of input stops.
/// Greedy matching over a hash chain of bounded depth: deterministic, good enough for trace buffers.
/// </summary>
public static class XpressCompressor
{
    private const int MinMatch = 3;
    private const int MaxOffset = 8192;
    private const int HashBits = 15;
    private const int ChainDepth = 24;

    public static byte[] Compress(ReadOnlySpan<byte> input)
    {
        var output = new Output(input.Length / 2 + 64);
        var head = new int[1 << HashBits];
        Array.Fill(head, -1);
        var previous = new int[input.Length];

        var flagPosition = output.Reserve(4);
        uint flags = 0;
        var flagCount = 0;
        var halfBytePosition = -1;
        var i = 0;
        while (i < input.Length)
        {
            var (length, offset) = FindMatch(input, i, head, previous);
            if (length >= MinMatch)
            {
                WriteMatch(output, offset, length, ref halfBytePosition);
                for (var k = 0; k < length; k++) Insert(input, i + k, head, previous);
                i += length;
                flags = (flags << 1) | 1;
            }
            else
            {
                Insert(input, i, head, previous);
                output.Byte(input[i]);
                i++;
                flags <<= 1;
            }

            if (++flagCount == 32)
            {
                output.PutUInt32(flagPosition, flags);
                flagPosition = output.Reserve(4);
                flags = 0;
                flagCount = 0;
            }
        }

        // Fill the remaining flag bits with 1s (an end-of-input marker for the decompressor).
        var lastFlags = flagCount == 0 ? uint.MaxValue : (flags << (32 - flagCount)) | ((1u << (32 - flagCount)) - 1);
        output.PutUInt32(flagPosition, lastFlags);
        return output.ToArray();
    }

    private static (int Length, int Offset) FindMatch(ReadOnlySpan<byte> input, int position, int[] head, int[] previous)
    {
        if (position + MinMatch > input.Length) return (0, 0);
        var best = 0;
        var bestOffset = 0;
        var candidate = head[Hash(input, position)];
        var maxLength = input.Length - position;
        for (var depth = 0; candidate >= 0 && depth < ChainDepth; depth++)
        {
            var offset = position - candidate;
            if (offset > MaxOffset) break;
            var length = 0;
            while (length < maxLength && input[candidate + length] == input[position + length]) length++;
            if (length > best)
            {
                best = length;
                bestOffset = offset;
                if (length == maxLength) break;
            }
            candidate = previous[candidate];
        }
        return (best, bestOffset);
    }

    private static void Insert(ReadOnlySpan<byte> input, int position, int[] head, int[] previous)
    {
        if (position + MinMatch > input.Length) return;
        var h = Hash(input, position);
        previous[position] = head[h];
        head[h] = position;
    }

    private static int Hash(ReadOnlySpan<byte> input, int position)
    {
        var v = (uint)(input[position] | (input[position + 1] << 8) | (input[position + 2] << 16));
        return (int)((v * 2654435761u) >> (32 - HashBits));
    }

    private static void WriteMatch(Output output, int offset, int length, ref int halfBytePosition)
    {
        var remaining = length - MinMatch;
        var offsetBits = (offset - 1) << 3;
        if (remaining < 7)
        {
            output.UInt16((ushort)(offsetBits | remaining));
            return;
        }

        output.UInt16((ushort)(offsetBits | 7));
        remaining -= 7;
        var nibble = (byte)Math.Min(remaining, 15);
        if (halfBytePosition < 0)
        {
            halfBytePosition = output.Reserve(1);
            output.Put(halfBytePosition, nibble);
        }
        else
        {
            output.Put(halfBytePosition, (byte)(output.Get(halfBytePosition) | (nibble << 4)));
            halfBytePosition = -1;
        }

        if (remaining < 15) return;
        remaining -= 15;
        if (remaining < 255)
        {
            output.Byte((byte)remaining);
            return;
        }

        output.Byte(255);
        var full = length - MinMatch;
        if (full <= ushort.MaxValue)
        {
            output.UInt16((ushort)full);
        }
        else
        {
            output.UInt16(0);
            output.UInt32((uint)full);
        }
    }

    private sealed class Output(int capacity)
    {
        private byte[] _data = new byte[Math.Max(capacity, 16)];
        private int _length;

        public int Reserve(int count)
        {
            Ensure(count);
            var at = _length;
            _data.AsSpan(at, count).Clear();
            _length += count;
            return at;
        }

        public void Byte(byte value) => Put(Reserve(1), value);
        public void UInt16(ushort value) => BinaryPrimitives.WriteUInt16LittleEndian(_data.AsSpan(Reserve(2)), value);
        public void UInt32(uint value) => BinaryPrimitives.WriteUInt32LittleEndian(_data.AsSpan(Reserve(4)), value);
        public void PutUInt32(int at, uint value) => BinaryPrimitives.WriteUInt32LittleEndian(_data.AsSpan(at), value);
        public void Put(int at, byte value) => _data[at] = value;
        public byte Get(int at) => _data[at];
        public byte[] ToArray() => _data.AsSpan(0, _length).ToArray();

        private void Ensure(int count)
        {
            if (_length + count > _data.Length) Array.Resize(ref _data, Math.Max(_data.Length * 2, _length + count));
        }
    }
}
