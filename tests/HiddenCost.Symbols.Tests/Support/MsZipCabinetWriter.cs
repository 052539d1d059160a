using System.Buffers.Binary;
using System.Text;

namespace HiddenCost.Symbols.Tests.Support;

/// <summary>
/// Writes small MSZIP cabinets by hand, for what gcab does not write: blocks whose matches reach back into the
/// previous block's output (as makecab's and symstore's MSZIP do; gcab compresses each block on its own). Block 1
/// is a stored deflate block; block 2 a fixed-Huffman block of back references into block 1.
/// </summary>
internal static class MsZipCabinetWriter
{
    /// <summary>A cabinet of one file: <paramref name="first"/> (≤ 32 KiB) followed by copies made by (distance, length) matches.</summary>
    public static (byte[] Cabinet, byte[] Expanded) Write(string fileName, byte[] first, IReadOnlyList<(int Distance, int Length)> matches)
    {
        var stored = new List<byte> { (byte)'C', (byte)'K', 1 };
        stored.AddRange(BitConverter.GetBytes((ushort)first.Length));
        stored.AddRange(BitConverter.GetBytes((ushort)~first.Length));
        stored.AddRange(first);

        var expanded = new List<byte>(first);
        var bits = new BitWriter();
        bits.Write(1, 1); // final
        bits.Write(1, 2); // fixed Huffman
        int produced = 0;
        foreach (var (distance, length) in matches)
        {
            WriteLength(bits, length);
            WriteDistance(bits, distance);
            for (int i = 0; i < length; i++) expanded.Add(expanded[expanded.Count - distance]);
            produced += length;
        }
        bits.WriteCode(0, 7); // end of block: symbol 256, code 0000000
        var second = new List<byte> { (byte)'C', (byte)'K' };
        second.AddRange(bits.ToArray());

        var name = Encoding.ASCII.GetBytes(fileName + "\0");
        int dataAt = 36 + 8 + 16 + name.Length;
        var cab = new List<byte>();
        var header = new byte[36];
        "MSCF"u8.CopyTo(header);
        int total = dataAt + 2 * 8 + stored.Count + second.Count;
        BinaryPrimitives.WriteInt32LittleEndian(header.AsSpan(8), total);
        BinaryPrimitives.WriteInt32LittleEndian(header.AsSpan(16), 36 + 8);
        header[24] = 3;
        header[25] = 1;
        BinaryPrimitives.WriteUInt16LittleEndian(header.AsSpan(26), 1);
        BinaryPrimitives.WriteUInt16LittleEndian(header.AsSpan(28), 1);
        cab.AddRange(header);
        var folder = new byte[8];
        BinaryPrimitives.WriteInt32LittleEndian(folder, dataAt);
        BinaryPrimitives.WriteUInt16LittleEndian(folder.AsSpan(4), 2);
        BinaryPrimitives.WriteUInt16LittleEndian(folder.AsSpan(6), 1); // MSZIP
        cab.AddRange(folder);
        var file = new byte[16];
        BinaryPrimitives.WriteInt32LittleEndian(file, expanded.Count);
        cab.AddRange(file);
        cab.AddRange(name);
        foreach (var (data, unpacked) in new[] { (stored, first.Length), (second, produced) })
        {
            var block = new byte[8];
            BinaryPrimitives.WriteUInt16LittleEndian(block.AsSpan(4), (ushort)data.Count);
            BinaryPrimitives.WriteUInt16LittleEndian(block.AsSpan(6), (ushort)unpacked);
            cab.AddRange(block);
            cab.AddRange(data);
        }
        return (cab.ToArray(), expanded.ToArray());
    }

    private static readonly int[] LengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
    private static readonly int[] LengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
    private static readonly int[] DistanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
    private static readonly int[] DistanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

    private static void WriteLength(BitWriter bits, int length)
    {
        int code = Array.FindLastIndex(LengthBase, b => b <= length);
        int symbol = 257 + code;
        if (symbol < 280) bits.WriteCode(symbol - 256, 7);
        else bits.WriteCode(0xC0 + symbol - 280, 8);
        bits.Write(length - LengthBase[code], LengthExtra[code]);
    }

    private static void WriteDistance(BitWriter bits, int distance)
    {
        int code = Array.FindLastIndex(DistanceBase, b => b <= distance);
        bits.WriteCode(code, 5);
        bits.Write(distance - DistanceBase[code], DistanceExtra[code]);
    }

    private sealed class BitWriter
    {
        private readonly List<byte> _bytes = new();
        private int _buffer, _count;

        public void Write(int value, int count)
        {
            for (int i = 0; i < count; i++) Bit((value >> i) & 1);
        }

        /// <summary>Huffman codes go most significant bit first.</summary>
        public void WriteCode(int code, int length)
        {
            for (int i = length - 1; i >= 0; i--) Bit((code >> i) & 1);
        }

        private void Bit(int bit)
        {
            _buffer |= bit << _count++;
            if (_count == 8) Flush();
        }

        private void Flush()
        {
            _bytes.Add((byte)_buffer);
            _buffer = _count = 0;
        }

        public byte[] ToArray()
        {
            if (_count > 0) Flush();
            return _bytes.ToArray();
        }
    }
}
