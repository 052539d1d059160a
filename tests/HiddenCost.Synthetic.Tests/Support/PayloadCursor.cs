using System.Buffers.Binary;
using System.Text;

namespace HiddenCost.Synthetic.Tests.Support;

/// <summary>Sequential little-endian reader of a payload, pointer-size aware, for test-side decoding by documented layouts.</summary>
internal sealed class PayloadCursor(byte[] payload, int pointerSize)
{
    public int Position { get; private set; }
    public int PointerSizeValue => pointerSize;
    public int Remaining => payload.Length - Position;

    public byte U8() => payload[Position++];
    public ushort U16() => BinaryPrimitives.ReadUInt16LittleEndian(Take(2));
    public uint U32() => BinaryPrimitives.ReadUInt32LittleEndian(Take(4));
    public int I32() => BinaryPrimitives.ReadInt32LittleEndian(Take(4));
    public ulong U64() => BinaryPrimitives.ReadUInt64LittleEndian(Take(8));
    public long I64() => BinaryPrimitives.ReadInt64LittleEndian(Take(8));
    public double F64() => BinaryPrimitives.ReadDoubleLittleEndian(Take(8));
    public ulong Pointer() => pointerSize == 8 ? U64() : U32();
    public Guid Guid() => new(Take(16));
    public void Skip(int n) => Take(n);

    public string WString()
    {
        var start = Position;
        while (BinaryPrimitives.ReadUInt16LittleEndian(payload.AsSpan(Position)) != 0) Position += 2;
        var s = Encoding.Unicode.GetString(payload, start, Position - start);
        Position += 2;
        return s;
    }

    public string AString()
    {
        var start = Position;
        while (payload[Position] != 0) Position++;
        var s = Encoding.ASCII.GetString(payload, start, Position - start);
        Position++;
        return s;
    }

    private ReadOnlySpan<byte> Take(int n)
    {
        if (Position + n > payload.Length) throw new InvalidDataException($"payload of {payload.Length} bytes ends before {Position + n}");
        var span = payload.AsSpan(Position, n);
        Position += n;
        return span;
    }
}
