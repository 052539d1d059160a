namespace HiddenCost.Etl.Tests.Support;

/// <summary>
/// [MS-XCA] 2.4 Plain LZ77 decompression, one byte at a time, exactly as the specification's pseudo-code reads:
/// slow and plain, so the reader's fast decoder (wide copies, fills) can be checked against it byte for byte.
/// </summary>
internal static class ReferenceXpress
{
    public static int Decompress(ReadOnlySpan<byte> input, Span<byte> output)
    {
        int inPos = 0, outPos = 0, lastLengthHalfByte = -1;
        uint flags = 0;
        int flagCount = 0;
        while (true)
        {
            if (flagCount == 0)
            {
                if (inPos + 4 > input.Length) return outPos;
                flags = (uint)(input[inPos] | input[inPos + 1] << 8 | input[inPos + 2] << 16 | input[inPos + 3] << 24);
                inPos += 4;
                flagCount = 32;
            }
            flagCount--;
            if ((flags & (1u << flagCount)) == 0)
            {
                if (inPos >= input.Length) return outPos;
                if (outPos >= output.Length) return -1;
                output[outPos++] = input[inPos++];
                continue;
            }
            if (inPos == input.Length) return outPos;
            if (inPos + 2 > input.Length) return -1;
            int matchBytes = input[inPos] | input[inPos + 1] << 8;
            inPos += 2;
            long length = matchBytes & 7;
            int offset = (matchBytes >> 3) + 1;
            if (length == 7)
            {
                if (lastLengthHalfByte < 0)
                {
                    if (inPos >= input.Length) return -1;
                    length = input[inPos] & 0x0F;
                    lastLengthHalfByte = inPos++;
                }
                else
                {
                    length = input[lastLengthHalfByte] >> 4;
                    lastLengthHalfByte = -1;
                }
                if (length == 15)
                {
                    if (inPos >= input.Length) return -1;
                    length = input[inPos++];
                    if (length == 255)
                    {
                        if (inPos + 2 > input.Length) return -1;
                        length = input[inPos] | input[inPos + 1] << 8;
                        inPos += 2;
                        if (length == 0)
                        {
                            if (inPos + 4 > input.Length) return -1;
                            length = (uint)(input[inPos] | input[inPos + 1] << 8 | input[inPos + 2] << 16 | input[inPos + 3] << 24);
                            inPos += 4;
                        }
                        if (length < 22) return -1;
                        length -= 22;
                    }
                    length += 15;
                }
                length += 7;
            }
            length += 3;
            if (offset > outPos || outPos + length > output.Length) return -1;
            for (long i = 0; i < length; i++, outPos++) output[outPos] = output[outPos - offset];
        }
    }
}
