using System.Buffers.Binary;
using System.Numerics;

namespace HiddenCost.Etl.Buffers;

/// <summary>
/// MS-XCA "Plain LZ77" (XPRESS) decompression, written from the algorithm in [MS-XCA] 2.4. ETW compresses
/// each buffer's payload separately; it decompresses to exactly SavedOffset − 0x48 bytes.
/// Every read and write is bounds-checked: a hostile stream yields an error, never an exception or a hang.
/// </summary>
public static class XpressDecoder
{
    /// <summary>Decompresses <paramref name="input"/> into <paramref name="output"/>.</summary>
    /// <returns>Bytes written, or -1 when the stream is corrupt (bad offset, overrun, truncated token).</returns>
    public static int Decompress(ReadOnlySpan<byte> input, Span<byte> output)
    {
        int inPos = 0, outPos = 0;
        uint flags = 0;
        int flagCount = 0;
        int lastLengthHalfByte = -1;

        while (true)
        {
            if (flagCount == 0)
            {
                if (inPos + 4 > input.Length) return outPos; // no more tokens
                flags = BinaryPrimitives.ReadUInt32LittleEndian(input[inPos..]);
                inPos += 4;
                flagCount = 32;
            }
            // Literals: the run of 0 flags at the top of the unread ones, copied in one go. When the input ends
            // inside the run, the stream is over.
            int run = Math.Min(BitOperations.LeadingZeroCount(flags << (32 - flagCount)), flagCount);
            if (run > 0)
            {
                int n = Math.Min(run, input.Length - inPos);
                if (outPos + n > output.Length) return -1;
                input.Slice(inPos, n).CopyTo(output[outPos..]);
                inPos += n;
                outPos += n;
                flagCount -= n;
                if (n < run) return outPos;
                continue;
            }
            flagCount--;

            if (inPos == input.Length) return outPos;
            if (inPos + 2 > input.Length) return -1;
            int matchBytes = BinaryPrimitives.ReadUInt16LittleEndian(input[inPos..]);
            inPos += 2;
            long matchLength = matchBytes & 7;
            int matchOffset = (matchBytes >> 3) + 1;
            if (matchLength == 7)
            {
                if (lastLengthHalfByte < 0)
                {
                    if (inPos >= input.Length) return -1;
                    matchLength = input[inPos] & 0x0F;
                    lastLengthHalfByte = inPos;
                    inPos++;
                }
                else
                {
                    matchLength = input[lastLengthHalfByte] >> 4;
                    lastLengthHalfByte = -1;
                }
                if (matchLength == 15)
                {
                    if (inPos >= input.Length) return -1;
                    matchLength = input[inPos++];
                    if (matchLength == 255)
                    {
                        if (inPos + 2 > input.Length) return -1;
                        matchLength = BinaryPrimitives.ReadUInt16LittleEndian(input[inPos..]);
                        inPos += 2;
                        if (matchLength == 0)
                        {
                            if (inPos + 4 > input.Length) return -1;
                            matchLength = BinaryPrimitives.ReadUInt32LittleEndian(input[inPos..]);
                            inPos += 4;
                        }
                        if (matchLength < 15 + 7) return -1;
                        matchLength -= 15 + 7;
                    }
                    matchLength += 15;
                }
                matchLength += 7;
            }
            matchLength += 3;

            if (matchOffset > outPos || outPos + matchLength > output.Length) return -1;
            int length = (int)matchLength;
            int from = outPos - matchOffset;
            // An overlapping match repeats the last matchOffset bytes. Copy it in chunks that double: after
            // each one the bytes from `from` on still repeat with that period, so a chunk as long as everything
            // written since `from` is the right continuation (and never overlaps its source).
            while (length > 0)
            {
                int chunk = Math.Min(length, outPos - from);
                output.Slice(from, chunk).CopyTo(output[outPos..]);
                outPos += chunk;
                length -= chunk;
            }
        }
    }
}
