using System.Buffers.Binary;

namespace HiddenCost.Analysis.Pipeline;

/// <summary>Walks EVENT_HEADER extended data items: {u16 Reserved1; u16 ExtType; u16 Linkage; u16 DataSize} + data, 8-aligned.</summary>
internal ref struct ExtendedItems
{
    private readonly ReadOnlySpan<byte> _ext;
    private int _at;
    private bool _done;

    public ExtendedItems(ReadOnlySpan<byte> ext)
    {
        _ext = ext;
        _at = 0;
        _done = ext.Length < 8;
        Current = default;
    }

    public ExtendedItem Current { get; private set; }

    public readonly ExtendedItems GetEnumerator() => this;

    public bool MoveNext()
    {
        if (_done || _at + 8 > _ext.Length) return false;
        ushort type = BinaryPrimitives.ReadUInt16LittleEndian(_ext[(_at + 2)..]);
        bool more = (BinaryPrimitives.ReadUInt16LittleEndian(_ext[(_at + 4)..]) & 1) != 0;
        int size = BinaryPrimitives.ReadUInt16LittleEndian(_ext[(_at + 6)..]);
        int start = _at + 8;
        if (start + size > _ext.Length) return false;
        Current = new ExtendedItem(type, _ext.Slice(start, size));
        _at = (start + size + 7) & ~7;
        _done = !more;
        return true;
    }
}

/// <summary>One extended data item.</summary>
internal readonly ref struct ExtendedItem
{
    public ExtendedItem(ushort type, ReadOnlySpan<byte> data)
    {
        Type = type;
        Data = data;
    }

    public ushort Type { get; }
    public ReadOnlySpan<byte> Data { get; }

    public void Deconstruct(out ushort type, out ReadOnlySpan<byte> data)
    {
        type = Type;
        data = Data;
    }
}
