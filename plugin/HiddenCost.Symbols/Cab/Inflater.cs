namespace HiddenCost.Symbols.Cab;

/// <summary>
/// A deflate (RFC 1951) decoder whose history survives from one call to the next, as MSZIP needs: each cabinet
/// block is a deflate stream of its own, but its matches may reach back into the previous block's output (the
/// previous block is the preset dictionary). <see cref="System.IO.Compression.DeflateStream"/> cannot be given a
/// dictionary, hence this decoder. Canonical Huffman codes are decoded a bit at a time (after zlib's "puff"):
/// simple, and every malformed input is an <see cref="InvalidDataException"/>, never a read outside its buffers.
/// </summary>
internal sealed class Inflater
{
    private const int WindowSize = 32768;
    private const int MaxBits = 15;

    private static readonly ushort[] LengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
    private static readonly byte[] LengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
    private static readonly ushort[] DistanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
    private static readonly byte[] DistanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
    private static readonly byte[] CodeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
    private static readonly Huffman FixedLengths, FixedDistances;

    // The window: up to 32 KiB of history, then the block being decoded (blocks are at most 32 KiB, per MSZIP).
    private readonly byte[] _buffer = new byte[2 * WindowSize + 258];
    private int _history;

    private byte[] _input = [];
    private int _inputPosition, _inputEnd, _bitBuffer, _bitCount;
    private int _position, _limit;

    static Inflater()
    {
        var lengths = new byte[288];
        for (int i = 0; i < 288; i++) lengths[i] = (byte)(i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8);
        FixedLengths = new Huffman(lengths);
        FixedDistances = new Huffman(Enumerable.Repeat((byte)5, 30).ToArray());
    }

    /// <summary>
    /// Inflates one deflate stream (its blocks up to the final one) from <paramref name="input"/> into
    /// <paramref name="output"/>, which must receive exactly <paramref name="output"/>.Length bytes; the output then
    /// becomes the history of the next call.
    /// </summary>
    public void Inflate(byte[] input, int offset, int count, Span<byte> output)
    {
        if (output.Length > WindowSize) throw new InvalidDataException($"an MSZIP block of {output.Length} bytes, more than 32 KiB");
        _input = input;
        _inputPosition = offset;
        _inputEnd = offset + count;
        _bitBuffer = _bitCount = 0;
        _position = _history;
        _limit = _history + output.Length;
        bool last;
        do
        {
            last = Bits(1) == 1;
            switch (Bits(2))
            {
                case 0: Stored(); break;
                case 1: Codes(FixedLengths, FixedDistances); break;
                case 2: Dynamic(); break;
                default: throw new InvalidDataException("deflate block type 3 (reserved)");
            }
        }
        while (!last);
        if (_position != _limit)
            throw new InvalidDataException($"a deflate stream gave {_position - _history} bytes where its block holds {output.Length}");
        _buffer.AsSpan(_history, output.Length).CopyTo(output);
        // Keep the last 32 KiB as the next block's history.
        int keep = Math.Min(WindowSize, _limit);
        Buffer.BlockCopy(_buffer, _limit - keep, _buffer, 0, keep);
        _history = keep;
    }

    /// <summary>Forgets the history (a new folder starts a new dictionary).</summary>
    public void Reset() => _history = 0;

    private int Bits(int need)
    {
        int value = _bitBuffer;
        while (_bitCount < need)
        {
            if (_inputPosition >= _inputEnd) throw new InvalidDataException("a deflate stream ends early");
            value |= _input[_inputPosition++] << _bitCount;
            _bitCount += 8;
        }
        _bitBuffer = value >> need;
        _bitCount -= need;
        return value & ((1 << need) - 1);
    }

    private void Stored()
    {
        _bitBuffer = _bitCount = 0;
        if (_inputPosition + 4 > _inputEnd) throw new InvalidDataException("a stored deflate block ends early");
        int length = _input[_inputPosition] | _input[_inputPosition + 1] << 8;
        int check = _input[_inputPosition + 2] | _input[_inputPosition + 3] << 8;
        _inputPosition += 4;
        if (length != (~check & 0xFFFF)) throw new InvalidDataException("a stored deflate block's length and its complement disagree");
        if (_inputPosition + length > _inputEnd) throw new InvalidDataException("a stored deflate block ends early");
        Room(length);
        Buffer.BlockCopy(_input, _inputPosition, _buffer, _position, length);
        _inputPosition += length;
        _position += length;
    }

    private void Dynamic()
    {
        int lengthCount = Bits(5) + 257, distanceCount = Bits(5) + 1, codeCount = Bits(4) + 4;
        if (lengthCount > 286 || distanceCount > 30) throw new InvalidDataException("a dynamic deflate block counts too many codes");
        var lengths = new byte[320];
        for (int i = 0; i < codeCount; i++) lengths[CodeLengthOrder[i]] = (byte)Bits(3);
        var codeLengths = new Huffman(lengths.AsSpan(0, 19).ToArray());
        int index = 0;
        while (index < lengthCount + distanceCount)
        {
            int symbol = Decode(codeLengths);
            if (symbol < 16)
            {
                lengths[index++] = (byte)symbol;
                continue;
            }
            byte repeat = 0;
            int times;
            if (symbol == 16)
            {
                if (index == 0) throw new InvalidDataException("a deflate code length repeats before any length");
                repeat = lengths[index - 1];
                times = 3 + Bits(2);
            }
            else times = symbol == 17 ? 3 + Bits(3) : 11 + Bits(7);
            if (index + times > lengthCount + distanceCount) throw new InvalidDataException("deflate code lengths overrun their count");
            while (times-- > 0) lengths[index++] = repeat;
        }
        if (lengths[256] == 0) throw new InvalidDataException("a dynamic deflate block has no end-of-block code");
        Codes(new Huffman(lengths.AsSpan(0, lengthCount).ToArray()), new Huffman(lengths.AsSpan(lengthCount, distanceCount).ToArray()));
    }

    private void Codes(Huffman lengthCode, Huffman distanceCode)
    {
        while (true)
        {
            int symbol = Decode(lengthCode);
            if (symbol < 256)
            {
                Room(1);
                _buffer[_position++] = (byte)symbol;
                continue;
            }
            if (symbol == 256) return;
            symbol -= 257;
            if (symbol >= 29) throw new InvalidDataException("a deflate length code out of range");
            int length = LengthBase[symbol] + Bits(LengthExtra[symbol]);
            int d = Decode(distanceCode);
            if (d >= 30) throw new InvalidDataException("a deflate distance code out of range");
            int distance = DistanceBase[d] + Bits(DistanceExtra[d]);
            if (distance > _position) throw new InvalidDataException($"a deflate match reaches {distance} bytes back, before the start of the history");
            Room(length);
            int from = _position - distance;
            for (int i = 0; i < length; i++) _buffer[_position++] = _buffer[from + i];
        }
    }

    private void Room(int bytes)
    {
        if (_position + bytes > _limit) throw new InvalidDataException("a deflate stream gives more bytes than its block holds");
    }

    private int Decode(Huffman h)
    {
        int code = 0, first = 0, index = 0;
        for (int length = 1; length <= MaxBits; length++)
        {
            code |= Bits(1);
            int count = h.Counts[length];
            if (code - count < first) return h.Symbols[index + (code - first)];
            index += count;
            first += count;
            first <<= 1;
            code <<= 1;
        }
        throw new InvalidDataException("an invalid deflate Huffman code");
    }

    /// <summary>A canonical Huffman code: how many codes of each length, and the symbols in code order.</summary>
    private sealed class Huffman
    {
        public readonly short[] Counts = new short[MaxBits + 1];
        public readonly short[] Symbols;

        public Huffman(byte[] lengths)
        {
            Symbols = new short[lengths.Length];
            foreach (var l in lengths) Counts[l]++;
            int left = 1;
            for (int length = 1; length <= MaxBits; length++)
            {
                left = (left << 1) - Counts[length];
                if (left < 0) throw new InvalidDataException("an over-subscribed deflate Huffman code");
            }
            var offsets = new short[MaxBits + 2];
            for (int length = 1; length < MaxBits; length++) offsets[length + 1] = (short)(offsets[length] + Counts[length]);
            for (short symbol = 0; symbol < lengths.Length; symbol++)
                if (lengths[symbol] != 0) Symbols[offsets[lengths[symbol]]++] = symbol;
        }
    }
}
