using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.InteropServices;

namespace HiddenCost.Etl.Decoding.Schema;

/// <summary>Receives the fields of a payload in order; return false to stop early.</summary>
public interface IEventFieldVisitor
{
    bool Visit(in EventField field);
}

/// <summary>How far a payload decoded against its schema.</summary>
public enum DecodeStatus : byte
{
    /// <summary>Every field decoded.</summary>
    Complete,
    /// <summary>The visitor asked to stop.</summary>
    Stopped,
    /// <summary>The payload ended before the schema did; the fields before that point were delivered.</summary>
    Truncated,
    /// <summary>A count or length was impossible (hostile or mismatched schema); decoding stopped there.</summary>
    Invalid,
}

/// <summary>
/// Walks a payload against an <see cref="EventSchema"/>, handing each value to a visitor as an
/// <see cref="EventField"/> view (no allocation with a struct visitor). Fields after the payload's end are not
/// reported (<see cref="DecodeStatus.Truncated"/>); extra trailing bytes are ignored.
/// </summary>
public static class SchemaDecoder
{
    private const int MaxDepth = 8;
    private const int MaxElements = 1 << 16;
    private const int MaxVisits = 1 << 18;

    /// <param name="wholeArrays">
    /// Deliver each array of fixed-size values (numbers, pointers, GUIDs, times) without a value map in one visit
    /// (<see cref="EventField.ElementCount"/> values in <see cref="EventField.Raw"/>) instead of one visit an
    /// element: stack-walk frames and IL maps run to hundreds of elements.
    /// </param>
    public static DecodeStatus Decode<TVisitor>(EventSchema schema, ReadOnlySpan<byte> payload, int pointerSize, ref TVisitor visitor, IValueMapSource? maps = null,
        bool wholeArrays = false)
        where TVisitor : IEventFieldVisitor
    {
        long[]? rented = null;
        // Values are kept only for fields that size others; a schema with none keeps nothing, so decoding costs in
        // proportion to the payload, not to the schema (a manifest's template may hold thousands of fields).
        int flat = schema.HasReferencedFields ? Math.Max(schema.FlatFieldCount, 0) : 0;
        // Sized to the schema: the runtime zeroes stack space, and most schemas have a handful of fields.
        Span<long> values = flat <= 128
            ? stackalloc long[flat]
            : (rented = ArrayPool<long>.Shared.Rent(flat));
        values = values[..flat];
        values.Clear();
        var state = new State(schema, payload, pointerSize, maps, wholeArrays);
        try
        {
            return DecodeFields(schema.FieldArray, null, -1, ref state, values, ref visitor, 0);
        }
        finally
        {
            if (rented is not null) ArrayPool<long>.Shared.Return(rented);
        }
    }

    /// <summary>Finds the first field called <paramref name="name"/> (top-level or struct member name).</summary>
    public static bool TryFind(EventSchema schema, ReadOnlySpan<byte> payload, int pointerSize, string name, out FieldLocation location)
    {
        var finder = new Finder(name);
        Decode(schema, payload, pointerSize, ref finder);
        location = finder.Found;
        return finder.Found.Field is not null;
    }

    private ref struct State
    {
        public readonly EventSchema Schema;
        public readonly ReadOnlySpan<byte> Payload;
        public readonly int PointerSize;
        public readonly IValueMapSource? Maps;
        public readonly bool WholeArrays;
        public int Offset;
        public int Visits;

        public State(EventSchema schema, ReadOnlySpan<byte> payload, int pointerSize, IValueMapSource? maps, bool wholeArrays)
        {
            Schema = schema;
            Payload = payload;
            PointerSize = pointerSize;
            Maps = maps;
            WholeArrays = wholeArrays;
            Offset = 0;
            Visits = 0;
        }
    }

    private static DecodeStatus DecodeFields<TVisitor>(SchemaField[] fields, SchemaField? parent, int parentIndex,
        ref State state, scoped Span<long> values, ref TVisitor visitor, int depth) where TVisitor : IEventFieldVisitor
    {
        if (depth > MaxDepth) return DecodeStatus.Invalid;
        for (int f = 0; f < fields.Length; f++)
        {
            var field = fields[f];
            if (field.IsPlainScalar)
            {
                // Most fields: the shortest way through.
                int size = field.FixedSize == SchemaField.PointerSized ? state.PointerSize : field.FixedSize;
                if (size > state.Payload.Length - state.Offset) return DecodeStatus.Truncated;
                var scalar = new EventField(field, parent, -1, parentIndex, state.Payload.Slice(state.Offset, size), state.Offset, state.PointerSize, null);
                KeepIfReferenced(state.Schema, scalar, values);
                state.Offset += size;
                if (++state.Visits > MaxVisits) return DecodeStatus.Invalid;
                if (!visitor.Visit(scalar)) return DecodeStatus.Stopped;
                continue;
            }
            long count;
            switch (field.CountKind)
            {
                case FieldCountKind.Fixed: count = field.Count; break;
                case FieldCountKind.FromField: count = Value(values, field.CountFieldIndex); break;
                case FieldCountKind.Prefixed:
                    if (state.Offset + 2 > state.Payload.Length) return DecodeStatus.Truncated;
                    count = BinaryPrimitives.ReadUInt16LittleEndian(state.Payload[state.Offset..]);
                    state.Offset += 2;
                    break;
                default: count = 1; break;
            }
            if (count < 0 || count > MaxElements) return DecodeStatus.Invalid;
            var map = field.MapName is not null && state.Maps is not null ? state.Maps.FindMap(state.Schema.ProviderId, field.MapName) : null;
            // Read once per field, not per element: arrays (byte buffers, say) run to thousands of elements.
            bool isArray = field.IsArray, isStruct = field.IsStruct;
            int fixedSize = field.FixedSize == SchemaField.PointerSized ? state.PointerSize : field.FixedSize;
            if (state.WholeArrays && isArray && fixedSize > 0 && map is null && count > 0)
            {
                // The elements that fit, in one visit; an array cut short by the payload's end is truncated.
                long fit = Math.Min(count, (state.Payload.Length - state.Offset) / fixedSize);
                int bytes = (int)fit * fixedSize;
                if (fit > 0)
                {
                    var whole = new EventField(field, parent, -1, parentIndex, state.Payload.Slice(state.Offset, bytes), state.Offset, state.PointerSize, null, (int)fit);
                    state.Offset += bytes;
                    if (++state.Visits > MaxVisits) return DecodeStatus.Invalid;
                    if (!visitor.Visit(whole)) return DecodeStatus.Stopped;
                }
                if (fit < count) return DecodeStatus.Truncated;
                continue;
            }
            for (int i = 0; i < count; i++)
            {
                int element = isArray ? i : -1;
                if (isStruct)
                {
                    // Struct elements count as visits too: nested arrays of empty structs must not loop for ever.
                    if (++state.Visits > MaxVisits) return DecodeStatus.Invalid;
                    var status = DecodeFields(field.MemberArray, field, element, ref state, values, ref visitor, depth + 1);
                    if (status != DecodeStatus.Complete) return status;
                    continue;
                }
                var rest = state.Payload[state.Offset..];
                int valueStart = 0, valueLength = fixedSize, consumed = fixedSize;
                if (fixedSize > 0)
                {
                    // Numbers, pointers, GUIDs and times (most fields, and the elements of most arrays) need no measuring.
                    if (fixedSize > rest.Length) return DecodeStatus.Truncated;
                }
                else if (!Measure(field, rest, values, state.PointerSize, out valueStart, out valueLength, out consumed))
                    return consumed < 0 ? DecodeStatus.Invalid : DecodeStatus.Truncated;
                var raw = rest.Slice(valueStart, valueLength);
                var view = new EventField(field, parent, element, parentIndex, raw, state.Offset + valueStart, state.PointerSize, map);
                state.Offset += consumed;
                if (!isArray) KeepIfReferenced(state.Schema, view, values);
                if (++state.Visits > MaxVisits) return DecodeStatus.Invalid;
                if (!visitor.Visit(view)) return DecodeStatus.Stopped;
            }
        }
        return DecodeStatus.Complete;
    }

    /// <summary>Keeps a single value that sizes a later field (a count or a length); other values are not kept.</summary>
    private static void KeepIfReferenced(EventSchema schema, in EventField field, scoped Span<long> values)
    {
        int index = field.Field.Index;
        if (schema.IsReferenced(index) && (uint)index < (uint)values.Length && field.TryGetInt64(out long value)) values[index] = value;
    }

    private static long Value(Span<long> values, int index) => (uint)index < (uint)values.Length ? values[index] : -1;

    /// <summary>
    /// Where one element's value starts and how long it is within <paramref name="rest"/>, and how many bytes it
    /// consumes (prefixes and terminators included). False when it does not fit (consumed = -1 when its declared
    /// size is impossible rather than merely cut short).
    /// </summary>
    private static bool Measure(SchemaField field, ReadOnlySpan<byte> rest, scoped Span<long> values, int pointerSize,
        out int start, out int length, out int consumed)
    {
        start = 0;
        length = 0;
        consumed = 0;
        long declared = field.LengthKind switch
        {
            FieldLengthKind.Fixed => field.Length,
            FieldLengthKind.FromField => Value(values, field.LengthFieldIndex),
            _ => -1,
        };
        switch (field.InType)
        {
            case FieldInType.UnicodeString or FieldInType.NonNullTerminatedString:
                if (declared >= 0) return Sized(rest, 0, declared * 2, out start, out length, out consumed);
                if (field.InType == FieldInType.NonNullTerminatedString) return Sized(rest, 0, rest.Length & ~1, out start, out length, out consumed);
                return Terminated(rest, 2, out length, out consumed);
            case FieldInType.AnsiString or FieldInType.NonNullTerminatedAnsiString:
                if (declared >= 0) return Sized(rest, 0, declared, out start, out length, out consumed);
                if (field.InType == FieldInType.NonNullTerminatedAnsiString) return Sized(rest, 0, rest.Length, out start, out length, out consumed);
                return Terminated(rest, 1, out length, out consumed);
            case FieldInType.Int8 or FieldInType.UInt8 or FieldInType.AnsiChar: return Sized(rest, 0, 1, out start, out length, out consumed);
            case FieldInType.Int16 or FieldInType.UInt16 or FieldInType.UnicodeChar: return Sized(rest, 0, 2, out start, out length, out consumed);
            case FieldInType.Int32 or FieldInType.UInt32 or FieldInType.HexInt32 or FieldInType.Float or FieldInType.Boolean:
                return Sized(rest, 0, 4, out start, out length, out consumed);
            case FieldInType.Int64 or FieldInType.UInt64 or FieldInType.HexInt64 or FieldInType.Double or FieldInType.FileTime:
                return Sized(rest, 0, 8, out start, out length, out consumed);
            case FieldInType.Guid or FieldInType.SystemTime: return Sized(rest, 0, 16, out start, out length, out consumed);
            case FieldInType.Pointer or FieldInType.SizeT: return Sized(rest, 0, pointerSize, out start, out length, out consumed);
            case FieldInType.Binary:
                if (field.LengthKind == FieldLengthKind.Prefixed) return Prefixed16(rest, 1, false, out start, out length, out consumed);
                return Sized(rest, 0, declared >= 0 ? declared : rest.Length, out start, out length, out consumed);
            case FieldInType.CountedString or FieldInType.CountedAnsiString or FieldInType.CountedBinary
                or FieldInType.TdhCountedString or FieldInType.TdhCountedAnsiString:
                return Prefixed16(rest, 1, false, out start, out length, out consumed);
            case FieldInType.ReversedCountedString or FieldInType.ReversedCountedAnsiString:
                return Prefixed16(rest, 1, true, out start, out length, out consumed);
            case FieldInType.HexDump:
                if (rest.Length < 4) return false;
                return Sized(rest, 4, BinaryPrimitives.ReadUInt32LittleEndian(rest), out start, out length, out consumed);
            case FieldInType.Sid:
                if (rest.Length < 8) return false;
                return Sized(rest, 0, 8 + 4 * rest[1], out start, out length, out consumed);
            case FieldInType.WbemSid:
                if (rest.Length < 4) return false;
                if (BinaryPrimitives.ReadUInt32LittleEndian(rest) == 0) return Sized(rest, 0, 4, out start, out length, out consumed);
                int sid = 2 * pointerSize;
                if (rest.Length < sid + 8) return false;
                return Sized(rest, 0, sid + 8 + 4 * rest[sid + 1], out start, out length, out consumed);
            default:
                consumed = -1;
                return false;
        }
    }

    private static bool Sized(ReadOnlySpan<byte> rest, int start, long size, out int valueStart, out int valueLength, out int consumed)
    {
        valueStart = start;
        valueLength = 0;
        consumed = 0;
        if (size < 0 || size > int.MaxValue - start) { consumed = -1; return false; }
        if (start + size > rest.Length) return false;
        valueLength = (int)size;
        consumed = start + (int)size;
        return true;
    }

    private static bool Prefixed16(ReadOnlySpan<byte> rest, int unit, bool bigEndian, out int start, out int length, out int consumed)
    {
        start = length = consumed = 0;
        if (rest.Length < 2) return false;
        int count = bigEndian ? BinaryPrimitives.ReadUInt16BigEndian(rest) : BinaryPrimitives.ReadUInt16LittleEndian(rest);
        return Sized(rest, 2, (long)count * unit, out start, out length, out consumed);
    }

    private static bool Terminated(ReadOnlySpan<byte> rest, int unit, out int length, out int consumed)
    {
        length = consumed = 0;
        if (rest.Length < unit) return false; // not even a terminator: the field is missing
        int end = unit == 1
            ? rest.IndexOf((byte)0)
            : MemoryMarshal.Cast<byte, char>(rest[..(rest.Length & ~1)]).IndexOf('\0');
        if (end >= 0)
        {
            length = end * unit;
            consumed = length + unit;
            return true;
        }
        // No terminator: the string runs to the end of the payload (a record cut short mid-string).
        length = rest.Length - rest.Length % unit;
        consumed = rest.Length;
        return true;
    }

    private struct Finder : IEventFieldVisitor
    {
        private readonly string _name;
        public FieldLocation Found;

        public Finder(string name)
        {
            _name = name;
            Found = default;
        }

        public bool Visit(in EventField field)
        {
            if (!string.Equals(field.Name, _name, StringComparison.Ordinal)) return true;
            Found = new FieldLocation(field.Field, field.Parent, field.ElementIndex, field.ParentElementIndex, field.Map, field.PointerSize,
                field.ValueOffset, field.Raw.Length);
            return false;
        }
    }
}

/// <summary>A field found by <see cref="SchemaDecoder.TryFind"/>; <see cref="Read"/> re-reads it from the same payload.</summary>
public readonly record struct FieldLocation(
    SchemaField? Field, SchemaField? Parent, int ElementIndex, int ParentElementIndex, ValueMap? Map, int PointerSize, int Offset, int Length)
{
    public EventField Read(ReadOnlySpan<byte> payload) =>
        Field is null || Offset < 0 || Offset + Length > payload.Length
            ? throw new InvalidOperationException("no field found, or not the payload it was found in")
            : new EventField(Field, Parent, ElementIndex, ParentElementIndex, payload.Slice(Offset, Length), Offset, PointerSize, Map);
}
