using System.Buffers.Binary;
using System.Text;

namespace HiddenCost.Synthetic.Etl;

/// <summary>
/// Builds an event payload: little-endian, packed (no padding between fields), pointer-sized fields as wide as
/// the record's pointer size.
/// </summary>
public sealed class PayloadBuilder
{
    private byte[] _buffer = new byte[64];
    private int _length;

    public PayloadBuilder(int pointerSize)
    {
        if (pointerSize is not (4 or 8)) throw new ArgumentException($"pointer size must be 4 or 8, not {pointerSize}");
        PointerSize = pointerSize;
    }

    public int PointerSize { get; }

    public int Length => _length;

    public PayloadBuilder U8(byte value)
    {
        Reserve(1)[0] = value;
        return this;
    }

    public PayloadBuilder I8(sbyte value) => U8(unchecked((byte)value));

    public PayloadBuilder U16(ushort value)
    {
        BinaryPrimitives.WriteUInt16LittleEndian(Reserve(2), value);
        return this;
    }

    public PayloadBuilder U32(uint value)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(Reserve(4), value);
        return this;
    }

    public PayloadBuilder I32(int value)
    {
        BinaryPrimitives.WriteInt32LittleEndian(Reserve(4), value);
        return this;
    }

    public PayloadBuilder U64(ulong value)
    {
        BinaryPrimitives.WriteUInt64LittleEndian(Reserve(8), value);
        return this;
    }

    public PayloadBuilder I64(long value)
    {
        BinaryPrimitives.WriteInt64LittleEndian(Reserve(8), value);
        return this;
    }

    public PayloadBuilder F64(double value)
    {
        BinaryPrimitives.WriteDoubleLittleEndian(Reserve(8), value);
        return this;
    }

    /// <summary>A pointer-sized field. A 64-bit value that does not fit a 32-bit record is an error, not a truncation.</summary>
    public PayloadBuilder Pointer(ulong value)
    {
        if (PointerSize == 8) return U64(value);
        if (value > uint.MaxValue)
            throw new ArgumentOutOfRangeException(nameof(value), $"0x{value:X} does not fit a 32-bit pointer field");
        return U32((uint)value);
    }

    /// <summary>GUID in Windows field order (Data1..3 little-endian).</summary>
    public PayloadBuilder Guid(Guid value)
    {
        value.TryWriteBytes(Reserve(16));
        return this;
    }

    /// <summary>NUL-terminated UTF-16LE string.</summary>
    public PayloadBuilder WString(string value)
    {
        var bytes = Encoding.Unicode.GetBytes(value);
        bytes.CopyTo(Reserve(bytes.Length));
        return U16(0);
    }

    /// <summary>NUL-terminated 8-bit string (ASCII; other characters are an error).</summary>
    public PayloadBuilder AString(string value)
    {
        foreach (var c in value)
            if (c > 0x7F) throw new ArgumentException($"non-ASCII character in ANSI string field: {value}");
        var span = Reserve(value.Length + 1);
        for (var i = 0; i < value.Length; i++) span[i] = (byte)value[i];
        span[value.Length] = 0;
        return this;
    }

    public PayloadBuilder Bytes(ReadOnlySpan<byte> value)
    {
        value.CopyTo(Reserve(value.Length));
        return this;
    }

    public byte[] ToArray() => _buffer.AsSpan(0, _length).ToArray();

    private Span<byte> Reserve(int count)
    {
        if (_length + count > _buffer.Length)
            Array.Resize(ref _buffer, Math.Max(_buffer.Length * 2, _length + count));
        var span = _buffer.AsSpan(_length, count);
        _length += count;
        return span;
    }
}
