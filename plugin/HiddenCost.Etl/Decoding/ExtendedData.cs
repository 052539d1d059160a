using System.Buffers.Binary;

namespace HiddenCost.Etl.Decoding;

/// <summary>EVENT_HEADER_EXTENDED_DATA_ITEM.ExtType values (evntcons.h).</summary>
public static class ExtendedDataType
{
    public const ushort RelatedActivityId = 1, Sid = 2, TerminalSessionId = 3, InstanceInfo = 4,
        StackTrace32 = 5, StackTrace64 = 6, PebsIndex = 7, PmcCounters = 8, PsmKey = 9, EventKey = 10,
        EventSchemaTraceLogging = 11, ProviderTraits = 12, ProcessStartKey = 13, ControlGuid = 14,
        QpcDelta = 15, ContainerId = 16, StackKey32 = 17, StackKey64 = 18;
}

/// <summary>
/// Walks an event's extended data items ({u16 Reserved1; u16 ExtType; u16 Linkage:1; u16 DataSize} + data,
/// 8-aligned) without allocating: <c>foreach (var item in new ExtendedData(e.ExtendedData))</c>.
/// An item that runs past the end stops the walk.
/// </summary>
public ref struct ExtendedData
{
    private readonly ReadOnlySpan<byte> _items;
    private int _next;
    private bool _done;

    public ExtendedData(ReadOnlySpan<byte> items)
    {
        _items = items;
        _next = 0;
        _done = items.Length < 8;
        Current = default;
    }

    public ExtendedDataItem Current { get; private set; }

    public readonly ExtendedData GetEnumerator() => this;

    public bool MoveNext()
    {
        if (_done || _next + 8 > _items.Length) return false;
        var header = _items[_next..];
        ushort type = BinaryPrimitives.ReadUInt16LittleEndian(header[2..]);
        bool linked = (BinaryPrimitives.ReadUInt16LittleEndian(header[4..]) & 1) != 0;
        int size = BinaryPrimitives.ReadUInt16LittleEndian(header[6..]);
        int start = _next + 8;
        if (start + size > _items.Length)
        {
            _done = true;
            return false;
        }
        Current = new ExtendedDataItem(type, _items.Slice(start, size));
        _next = (start + size + 7) & ~7;
        _done = !linked;
        return true;
    }

    /// <summary>The data of the first item of <paramref name="type"/>, or empty.</summary>
    public static ReadOnlySpan<byte> Find(ReadOnlySpan<byte> items, ushort type)
    {
        foreach (var item in new ExtendedData(items))
            if (item.Type == type) return item.Data;
        return default;
    }
}

/// <summary>One extended data item: its ExtType and its bytes.</summary>
public readonly ref struct ExtendedDataItem
{
    public ExtendedDataItem(ushort type, ReadOnlySpan<byte> data)
    {
        Type = type;
        Data = data;
    }

    public ushort Type { get; }
    public ReadOnlySpan<byte> Data { get; }
}
