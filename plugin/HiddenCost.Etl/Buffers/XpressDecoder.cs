using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;

namespace HiddenCost.Etl.Buffers;

/// <summary>
/// MS-XCA "Plain LZ77" (XPRESS) decompression, written from the algorithm in [MS-XCA] 2.4. ETW compresses
/// each buffer's payload separately; it decompresses to exactly SavedOffset − 0x48 bytes.
/// Every read and write is bounds-checked: a hostile stream yields an error, never an exception or a hang.
/// </summary>
public static class XpressDecoder
{
    /// <summary>Room a wide copy may write past the bytes it means to (always inside the output, overwritten later).</summary>
    private const int Slack = 16;

    /// <summary>Decompresses <paramref name="input"/> into <paramref name="output"/>.</summary>
    /// <returns>Bytes written, or -1 when the stream is corrupt (bad offset, overrun, truncated token).</returns>
    public static int Decompress(ReadOnlySpan<byte> input, Span<byte> output)
    {
        ref byte src = ref MemoryMarshal.GetReference(input);
        ref byte dst = ref MemoryMarshal.GetReference(output);
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
                // A run is at most 32 bytes: two 16-byte moves when both sides have room, else an exact copy.
                if (inPos + 32 <= input.Length && outPos + 32 <= output.Length)
                {
                    Unsafe.WriteUnaligned(ref Unsafe.Add(ref dst, outPos), Unsafe.ReadUnaligned<Vector128<byte>>(ref Unsafe.Add(ref src, inPos)));
                    if (n > 16)
                        Unsafe.WriteUnaligned(ref Unsafe.Add(ref dst, outPos + 16), Unsafe.ReadUnaligned<Vector128<byte>>(ref Unsafe.Add(ref src, inPos + 16)));
                }
                else input.Slice(inPos, n).CopyTo(output[outPos..]);
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
            if (matchOffset >= Slack && outPos + length + Slack <= output.Length)
            {
                // Most matches: the source ends at least 16 bytes before the destination starts, so 16-byte moves
                // never read bytes this match has yet to write. The last move may write up to 15 bytes past the
                // match; they lie inside the output and the next tokens overwrite them.
                for (int i = 0; i < length; i += Slack)
                    Unsafe.WriteUnaligned(ref Unsafe.Add(ref dst, outPos + i), Unsafe.ReadUnaligned<Vector128<byte>>(ref Unsafe.Add(ref dst, from + i)));
                outPos += length;
                continue;
            }
            if (matchOffset == 1)
            {
                // A run of one byte (zeros, mostly).
                output.Slice(outPos, length).Fill(output[from]);
                outPos += length;
                continue;
            }
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
