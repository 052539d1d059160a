using System.Buffers.Binary;

namespace HiddenCost.Benchmarks;

/// <summary>
/// A small greedy MS-XCA "Plain LZ77" (XPRESS) compressor, written from the format in [MS-XCA] 2.3/2.4, so the
/// large compressed trace can be rebuilt with shifted timestamps. Only the benchmark uses it; every buffer it
/// writes is checked by decompressing it with the reader's decoder.
/// </summary>
internal static class XpressEncoder
{
    private const int MinMatch = 3;
    private const int MaxOffset = 8192;
    private const int HashBits = 15;

    public static byte[] Compress(ReadOnlySpan<byte> input)
    {
        var output = new byte[input.Length + input.Length / 8 + 64];
        var head = new int[1 << HashBits];
        Array.Fill(head, -1);
        int outPos = 4, flagPos = 0, flagCount = 0, pendingNibble = -1, inPos = 0;
        uint flags = 0;

        while (inPos < input.Length)
        {
            int bestLength = 0, bestOffset = 0;
            if (inPos + MinMatch <= input.Length)
            {
                int hash = Hash(input[inPos..]);
                int candidate = head[hash];
                head[hash] = inPos;
                if (candidate >= 0 && inPos - candidate <= MaxOffset)
                {
                    int length = CommonLength(input, candidate, inPos);
                    if (length >= MinMatch) (bestLength, bestOffset) = (length, inPos - candidate);
                }
            }

            if (bestLength == 0)
            {
                output[outPos++] = input[inPos++];
            }
            else
            {
                flags |= 1u << (31 - flagCount);
                WriteMatch(output, ref outPos, ref pendingNibble, bestOffset, bestLength);
                for (int i = 1; i < bestLength && inPos + i + MinMatch <= input.Length; i++) head[Hash(input[(inPos + i)..])] = inPos + i;
                inPos += bestLength;
            }

            if (++flagCount == 32)
            {
                BinaryPrimitives.WriteUInt32LittleEndian(output.AsSpan(flagPos), flags);
                flags = 0;
                flagCount = 0;
                flagPos = outPos;
                outPos += 4;
            }
        }
        // The unused flags are 1s: a match flag with no input left ends the stream.
        flags |= flagCount == 0 ? uint.MaxValue : (1u << (32 - flagCount)) - 1;
        BinaryPrimitives.WriteUInt32LittleEndian(output.AsSpan(flagPos), flags);
        return output.AsSpan(0, outPos).ToArray();
    }

    private static void WriteMatch(byte[] output, ref int outPos, ref int pendingNibble, int offset, int length)
    {
        int rest = length - MinMatch;
        int token = (offset - 1) << 3;
        if (rest < 7)
        {
            BinaryPrimitives.WriteUInt16LittleEndian(output.AsSpan(outPos), (ushort)(token | rest));
            outPos += 2;
            return;
        }
        BinaryPrimitives.WriteUInt16LittleEndian(output.AsSpan(outPos), (ushort)(token | 7));
        outPos += 2;
        int afterSeven = rest - 7;
        int nibble = Math.Min(afterSeven, 15);
        if (pendingNibble < 0)
        {
            pendingNibble = outPos;
            output[outPos++] = (byte)nibble;
        }
        else
        {
            output[pendingNibble] |= (byte)(nibble << 4);
            pendingNibble = -1;
        }
        if (afterSeven < 15) return;
        int afterFifteen = afterSeven - 15;
        if (afterFifteen < 255)
        {
            output[outPos++] = (byte)afterFifteen;
            return;
        }
        output[outPos++] = 255;
        if (rest <= ushort.MaxValue)
        {
            BinaryPrimitives.WriteUInt16LittleEndian(output.AsSpan(outPos), (ushort)rest);
            outPos += 2;
        }
        else
        {
            BinaryPrimitives.WriteUInt16LittleEndian(output.AsSpan(outPos), 0);
            BinaryPrimitives.WriteInt32LittleEndian(output.AsSpan(outPos + 2), rest);
            outPos += 6;
        }
    }

    private static int Hash(ReadOnlySpan<byte> at) => (int)((uint)(at[0] | at[1] << 8 | at[2] << 16) * 2654435761u >> (32 - HashBits));

    private static int CommonLength(ReadOnlySpan<byte> input, int from, int at)
    {
        int max = input.Length - at;
        return input.Slice(from, max).CommonPrefixLength(input.Slice(at, max));
    }
}
