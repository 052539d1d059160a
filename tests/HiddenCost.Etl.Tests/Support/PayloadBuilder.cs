using System.Buffers.Binary;
using System.Text;

namespace HiddenCost.Etl.Tests.Support;

/// <summary>Builds synthetic payload bytes field by field, little-endian, from the documented layouts.</summary>
internal sealed class PayloadBuilder
{
    private readonly List<byte> _bytes = new();
    private readonly int _pointerSize;

    public PayloadBuilder(int pointerSize = 8) => _pointerSize = pointerSize;

    public int Length => _bytes.Count;

    public PayloadBuilder U8(byte v) { _bytes.Add(v); return this; }
    public PayloadBuilder U16(ushort v) { Span<byte> b = stackalloc byte[2]; BinaryPrimitives.WriteUInt16LittleEndian(b, v); _bytes.AddRange(b.ToArray()); return this; }
    public PayloadBuilder U32(uint v) { Span<byte> b = stackalloc byte[4]; BinaryPrimitives.WriteUInt32LittleEndian(b, v); _bytes.AddRange(b.ToArray()); return this; }
    public PayloadBuilder I32(int v) => U32((uint)v);
    public PayloadBuilder U64(ulong v) { Span<byte> b = stackalloc byte[8]; BinaryPrimitives.WriteUInt64LittleEndian(b, v); _bytes.AddRange(b.ToArray()); return this; }
    public PayloadBuilder I64(long v) => U64((ulong)v);
    public PayloadBuilder F64(double v) => U64((ulong)BitConverter.DoubleToInt64Bits(v));
    public PayloadBuilder Ptr(ulong v) => _pointerSize == 8 ? U64(v) : U32((uint)v);
    public PayloadBuilder Guid(Guid g) { _bytes.AddRange(g.ToByteArray()); return this; }
    public PayloadBuilder Utf16z(string s) { _bytes.AddRange(Encoding.Unicode.GetBytes(s + "\0")); return this; }
    public PayloadBuilder Ansiz(string s) { _bytes.AddRange(Encoding.UTF8.GetBytes(s + "\0")); return this; }
    public PayloadBuilder Bytes(params byte[] b) { _bytes.AddRange(b); return this; }

    public byte[] ToArray() => _bytes.ToArray();
}
