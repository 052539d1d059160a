using System.Buffers.Binary;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;

namespace HiddenCost.Etl.Decoding.Schema;

/// <summary>
/// One decoded field value, as a view over the payload: its schema entry and exactly its value bytes (string
/// terminators and count prefixes stripped). Valid while the event is. Scalar reads do not allocate;
/// <see cref="GetString"/> and <see cref="Format"/> do.
/// </summary>
public readonly ref struct EventField
{
    public EventField(SchemaField field, SchemaField? parent, int elementIndex, int parentElementIndex, ReadOnlySpan<byte> raw, int valueOffset, int pointerSize, ValueMap? map,
        int elementCount = 1)
    {
        ElementCount = elementCount;
        ValueOffset = valueOffset;
        Field = field;
        Parent = parent;
        ElementIndex = elementIndex;
        ParentElementIndex = parentElementIndex;
        Raw = raw;
        PointerSize = pointerSize;
        Map = map;
    }

    public SchemaField Field { get; }
    public string Name => Field.Name;
    public FieldInType InType => Field.InType;

    /// <summary>The struct this field is a member of, or null at top level.</summary>
    public SchemaField? Parent { get; }

    /// <summary>Index within an array field; -1 for a single value (or a whole array).</summary>
    public int ElementIndex { get; }

    /// <summary>
    /// How many values <see cref="Raw"/> holds: 1, except for a whole array of fixed-size values delivered in one
    /// visit (<c>wholeArrays</c> decoding), whose elements <see cref="Element"/> gives one by one.
    /// </summary>
    public int ElementCount { get; }

    /// <summary>Element <paramref name="index"/> of a whole array, as the view an element-by-element visit gives.</summary>
    public EventField Element(int index)
    {
        int size = ElementCount > 0 ? Raw.Length / ElementCount : 0;
        return new EventField(Field, Parent, index, ParentElementIndex, Raw.Slice(index * size, size), ValueOffset + index * size, PointerSize, Map);
    }

    /// <summary>Index of the enclosing struct within its array; -1 when the struct is not an array.</summary>
    public int ParentElementIndex { get; }

    public ReadOnlySpan<byte> Raw { get; }

    /// <summary>Offset of <see cref="Raw"/> within the payload.</summary>
    public int ValueOffset { get; }
    public int PointerSize { get; }
    public ValueMap? Map { get; }

    /// <summary>Dotted path: <c>Struct.Member</c>, with <c>[i]</c> for array elements.</summary>
    public string Path
    {
        get
        {
            var own = ElementIndex >= 0 ? $"{Name}[{ElementIndex}]" : Name;
            if (Parent is null) return own;
            var parent = ParentElementIndex >= 0 ? $"{Parent.Name}[{ParentElementIndex}]" : Parent.Name;
            return parent + "." + own;
        }
    }

    public bool IsString => InType is FieldInType.UnicodeString or FieldInType.AnsiString or FieldInType.CountedString
        or FieldInType.CountedAnsiString or FieldInType.TdhCountedString or FieldInType.TdhCountedAnsiString
        or FieldInType.ReversedCountedString or FieldInType.ReversedCountedAnsiString
        or FieldInType.NonNullTerminatedString or FieldInType.NonNullTerminatedAnsiString;

    private bool IsUtf16 => InType is FieldInType.UnicodeString or FieldInType.CountedString or FieldInType.TdhCountedString
        or FieldInType.ReversedCountedString or FieldInType.NonNullTerminatedString;

    /// <summary>An integer-like value (ints, hex ints, pointers, booleans, chars), sign-extended for signed types.</summary>
    public bool TryGetInt64(out long value)
    {
        var r = Raw;
        switch (InType)
        {
            case FieldInType.Int8 when r.Length >= 1: value = (sbyte)r[0]; return true;
            case FieldInType.UInt8 or FieldInType.AnsiChar when r.Length >= 1: value = r[0]; return true;
            case FieldInType.Int16 when r.Length >= 2: value = BinaryPrimitives.ReadInt16LittleEndian(r); return true;
            case FieldInType.UInt16 or FieldInType.UnicodeChar when r.Length >= 2: value = BinaryPrimitives.ReadUInt16LittleEndian(r); return true;
            case FieldInType.Int32 when r.Length >= 4: value = BinaryPrimitives.ReadInt32LittleEndian(r); return true;
            case FieldInType.UInt32 or FieldInType.HexInt32 or FieldInType.Boolean when r.Length >= 4:
                value = BinaryPrimitives.ReadUInt32LittleEndian(r); return true;
            case FieldInType.Int64 or FieldInType.UInt64 or FieldInType.HexInt64 or FieldInType.FileTime when r.Length >= 8:
                value = BinaryPrimitives.ReadInt64LittleEndian(r); return true;
            case FieldInType.Pointer or FieldInType.SizeT:
                if (r.Length >= 8) { value = BinaryPrimitives.ReadInt64LittleEndian(r); return true; }
                if (r.Length >= 4) { value = BinaryPrimitives.ReadUInt32LittleEndian(r); return true; }
                break;
        }
        value = 0;
        return false;
    }

    public bool TryGetUInt64(out ulong value)
    {
        bool ok = TryGetInt64(out long signed);
        value = (ulong)signed;
        return ok;
    }

    public bool TryGetDouble(out double value)
    {
        if (InType == FieldInType.Double && Raw.Length >= 8) { value = BinaryPrimitives.ReadDoubleLittleEndian(Raw); return true; }
        if (InType == FieldInType.Float && Raw.Length >= 4) { value = BinaryPrimitives.ReadSingleLittleEndian(Raw); return true; }
        value = 0;
        return false;
    }

    public bool TryGetGuid(out Guid value)
    {
        if (InType == FieldInType.Guid && Raw.Length >= 16) { value = new Guid(Raw[..16]); return true; }
        value = Guid.Empty;
        return false;
    }

    /// <summary>The text of a UTF-16 string field without allocating (empty for other types).</summary>
    public ReadOnlySpan<char> Utf16Text =>
        IsUtf16 ? MemoryMarshal.Cast<byte, char>(Raw[..(Raw.Length & ~1)]) : default;

    /// <summary>The text of a string field (UTF-16 or 8-bit), or null for other types.</summary>
    public string? GetString()
    {
        if (!IsString) return null;
        if (IsUtf16) return new string(Utf16Text);
        return Encoding.UTF8.GetString(Raw);
    }

    /// <summary>The value as an object: long/ulong/double/bool/Guid/DateTime/string/byte[] (allocates; for display and tests).</summary>
    public object? ToObject()
    {
        if (IsString) return GetString();
        switch (InType)
        {
            case FieldInType.Boolean: return TryGetInt64(out var b) ? b != 0 : null;
            case FieldInType.Float or FieldInType.Double: return TryGetDouble(out var d) ? d : null;
            case FieldInType.Guid: return TryGetGuid(out var g) ? g : null;
            case FieldInType.FileTime:
                return TryGetInt64(out var ft) && ft > 0 && ft < DateTime.MaxValue.ToFileTimeUtc() ? DateTime.FromFileTimeUtc(ft) : null;
            case FieldInType.SystemTime: return ReadSystemTime(Raw);
            case FieldInType.UInt8 when Field.OutType == FieldOutType.Boolean: return Raw.Length > 0 && Raw[0] != 0;
            case FieldInType.UInt8 or FieldInType.UInt16 or FieldInType.UInt32 or FieldInType.UInt64 or FieldInType.HexInt32
                or FieldInType.HexInt64 or FieldInType.Pointer or FieldInType.SizeT:
                return TryGetUInt64(out var u) ? u : null;
            case FieldInType.Int8 or FieldInType.Int16 or FieldInType.Int32 or FieldInType.Int64:
                return TryGetInt64(out var i) ? i : null;
            case FieldInType.UnicodeChar: return Raw.Length >= 2 ? (char)BinaryPrimitives.ReadUInt16LittleEndian(Raw) : null;
            case FieldInType.AnsiChar: return Raw.Length >= 1 ? (char)Raw[0] : null;
            default: return Raw.ToArray();
        }
    }

    /// <summary>The value as display text: map names when the field has a map, hex for hex and pointer types.</summary>
    public string Format()
    {
        if (Map is not null && TryGetUInt64(out var mapped) && Map.Format(mapped) is { } name) return name;
        if (InType is FieldInType.UInt8 && Field.OutType == FieldOutType.String && Raw.Length > 0) return ((char)Raw[0]).ToString();
        if (InType is FieldInType.UInt16 && Field.OutType == FieldOutType.String && Raw.Length > 1)
            return ((char)BinaryPrimitives.ReadUInt16LittleEndian(Raw)).ToString();
        bool hex = InType is FieldInType.HexInt32 or FieldInType.HexInt64 or FieldInType.Pointer
            || Field.OutType is FieldOutType.HexInt8 or FieldOutType.HexInt16 or FieldOutType.HexInt32 or FieldOutType.HexInt64
                or FieldOutType.NtStatus or FieldOutType.HResult or FieldOutType.Win32Error or FieldOutType.CodePointer;
        if (hex && TryGetUInt64(out var h)) return "0x" + h.ToString("X", CultureInfo.InvariantCulture);
        return ToObject() switch
        {
            null => "",
            string s => s,
            byte[] bytes => Convert.ToHexString(bytes),
            DateTime t => t.ToString("o", CultureInfo.InvariantCulture),
            double d => d.ToString("R", CultureInfo.InvariantCulture),
            IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
            var other => other.ToString() ?? "",
        };
    }

    private static DateTime? ReadSystemTime(ReadOnlySpan<byte> r)
    {
        if (r.Length < 16) return null;
        int year = BinaryPrimitives.ReadUInt16LittleEndian(r), month = BinaryPrimitives.ReadUInt16LittleEndian(r[2..]),
            day = BinaryPrimitives.ReadUInt16LittleEndian(r[6..]), hour = BinaryPrimitives.ReadUInt16LittleEndian(r[8..]),
            minute = BinaryPrimitives.ReadUInt16LittleEndian(r[10..]), second = BinaryPrimitives.ReadUInt16LittleEndian(r[12..]),
            ms = BinaryPrimitives.ReadUInt16LittleEndian(r[14..]);
        if (year is < 1 or > 9999 || month is < 1 or > 12 || day < 1 || day > DateTime.DaysInMonth(year, month)
            || hour > 23 || minute > 59 || second > 59 || ms > 999) return null;
        return new DateTime(year, month, day, hour, minute, second, ms, DateTimeKind.Unspecified);
    }
}
