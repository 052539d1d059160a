using System.Buffers.Binary;

namespace HiddenCost.Synthetic.Tests.Support;

/// <summary>
/// MS-XCA Plain LZ77 decompression ([MS-XCA] §2.4), written independently of the compressor under test and of
/// the reader, to check the compressor's output.
/// </summary>
internal static class XpressDecompressor
{
    public static byte[] Decompress(ReadOnlySpan<byte> input, int expectedLength)
    {
        var output = new byte[expectedLength];
        int inPos = 0, outPos = 0, lastLengthHalfByte = 0, flagCount = 0;
        uint flags = 0;
        while (true)
        {
            if (flagCount == 0)
            {
                if (inPos + 4 > input.Length) throw new InvalidDataException("flags run past the input");
                flags = BinaryPrimitives.ReadUInt32LittleEndian(input[inPos..]);
                inPos += 4;
                flagCount = 32;
            }
            flagCount--;
            if ((flags & (1u << flagCount)) == 0)
            {
                if (inPos >= input.Length) break;
                if (outPos >= output.Length) throw new InvalidDataException("literal past the expected length");
                output[outPos++] = input[inPos++];
                continue;
            }
            if (inPos == input.Length) break;
            int matchBytes = BinaryPrimitives.ReadUInt16LittleEndian(input[inPos..]);
            inPos += 2;
            int length = matchBytes % 8;
            int offset = matchBytes / 8 + 1;
            if (length == 7)
            {
                if (lastLengthHalfByte == 0)
                {
                    length = input[inPos] % 16;
                    lastLengthHalfByte = inPos;
                    inPos++;
                }
                else
                {
                    length = input[lastLengthHalfByte] / 16;
                    lastLengthHalfByte = 0;
                }
                if (length == 15)
                {
                    length = input[inPos++];
                    if (length == 255)
                    {
                        length = BinaryPrimitives.ReadUInt16LittleEndian(input[inPos..]);
                        inPos += 2;
                        if (length == 0)
                        {
                            length = checked((int)BinaryPrimitives.ReadUInt32LittleEndian(input[inPos..]));
                            inPos += 4;
                        }
                        if (length < 15 + 7) throw new InvalidDataException("long match length too small");
                        length -= 15 + 7;
                    }
                    length += 15;
                }
                length += 7;
            }
            length += 3;
            if (offset > outPos) throw new InvalidDataException("match reaches before the start of the output");
            if (outPos + length > output.Length) throw new InvalidDataException("match past the expected length");
            for (var i = 0; i < length; i++, outPos++) output[outPos] = output[outPos - offset];
        }
        if (outPos != expectedLength) throw new InvalidDataException($"decompressed {outPos} bytes, expected {expectedLength}");
        return output;
    }
}
