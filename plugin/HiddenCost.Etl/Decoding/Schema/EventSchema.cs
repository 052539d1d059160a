namespace HiddenCost.Etl.Decoding.Schema;

/// <summary>How many elements a field has.</summary>
public enum FieldCountKind : byte
{
    /// <summary>One value.</summary>
    Single,
    /// <summary>An array of <see cref="SchemaField.Count"/> elements.</summary>
    Fixed,
    /// <summary>An array whose length is the value of the field at <see cref="SchemaField.CountFieldIndex"/> (manifest).</summary>
    FromField,
    /// <summary>An array prefixed by a u16 element count in the payload (TraceLogging variable count).</summary>
    Prefixed,
}

/// <summary>How long one element of a string or binary field is.</summary>
public enum FieldLengthKind : byte
{
    /// <summary>The in-type decides (fixed size, NUL terminator, or its own count prefix).</summary>
    Natural,
    /// <summary><see cref="SchemaField.Length"/> characters (strings) or bytes (binary).</summary>
    Fixed,
    /// <summary>The value of the field at <see cref="SchemaField.LengthFieldIndex"/>.</summary>
    FromField,
    /// <summary>A u16 byte count first in the payload (TraceLogging binary).</summary>
    Prefixed,
}

/// <summary>
/// One field of an event's schema (a TDH EVENT_PROPERTY_INFO or a TraceLogging field). Structs hold their
/// members. <see cref="Index"/> is the field's position in the schema's flat field list, which is what
/// count and length references point at.
/// </summary>
public sealed class SchemaField
{
    public SchemaField(string name, int index, FieldInType inType, ushort outType)
    {
        Name = name;
        Index = index;
        InType = inType;
        OutType = outType;
        FixedSize = inType switch
        {
            FieldInType.Int8 or FieldInType.UInt8 or FieldInType.AnsiChar => 1,
            FieldInType.Int16 or FieldInType.UInt16 or FieldInType.UnicodeChar => 2,
            FieldInType.Int32 or FieldInType.UInt32 or FieldInType.HexInt32 or FieldInType.Float or FieldInType.Boolean => 4,
            FieldInType.Int64 or FieldInType.UInt64 or FieldInType.HexInt64 or FieldInType.Double or FieldInType.FileTime => 8,
            FieldInType.Guid or FieldInType.SystemTime => 16,
            FieldInType.Pointer or FieldInType.SizeT => PointerSized,
            _ => 0,
        };
    }

    public string Name { get; }
    public int Index { get; }

    /// <summary>
    /// Bytes of one element when the in-type alone decides it (numbers, GUIDs, times); <see cref="PointerSized"/>
    /// for pointers and sizes (the event's pointer size); 0 otherwise.
    /// </summary>
    internal int FixedSize { get; }

    internal const int PointerSized = -1;
    public FieldInType InType { get; }
    public ushort OutType { get; }
    public FieldCountKind CountKind { get; init; }
    public int Count { get; init; } = 1;
    public int CountFieldIndex { get; init; } = -1;
    public FieldLengthKind LengthKind { get; init; }
    public int Length { get; init; }
    public int LengthFieldIndex { get; init; } = -1;

    /// <summary>Name of the value map (manifest valueMap/bitMap) that names this field's values, or null.</summary>
    public string? MapName { get; init; }

    /// <summary>Members of a struct field (empty otherwise).</summary>
    public IReadOnlyList<SchemaField> Members
    {
        get => MemberArray;
        init => MemberArray = value as SchemaField[] ?? value.ToArray();
    }

    /// <summary><see cref="Members"/> as an array: the decoder walks it for every event, without interface calls.</summary>
    internal SchemaField[] MemberArray { get; private init; } = Array.Empty<SchemaField>();

    public bool IsStruct => MemberArray.Length > 0 || InType == FieldInType.Struct;
    public bool IsArray => CountKind != FieldCountKind.Single;

    /// <summary>One number, pointer, GUID or time without a value map: read as it is, with no count and no measuring.</summary>
    internal bool IsPlainScalar => CountKind == FieldCountKind.Single && FixedSize != 0 && MapName is null && !IsStruct;

    public override string ToString() => $"{Name}: {InType}{(IsArray ? "[]" : "")}";
}

/// <summary>Where a schema came from.</summary>
public enum SchemaSource : byte
{
    /// <summary>TRACE_EVENT_INFO embedded by KernelTraceControl (DecodingSourceXMLFile / Wbem).</summary>
    EmbeddedManifest,
    /// <summary>The event's own TraceLogging metadata (EVENT_SCHEMA_TL extended item).</summary>
    TraceLogging,
    /// <summary>The instrumentation manifest an EventSource logs in its ManifestData events (id 0xFFFE).</summary>
    EventSourceManifest,
}

/// <summary>
/// The field layout of one event (provider, id, version), enough to decode its payload by name. Immutable and
/// shared by every event it describes.
/// </summary>
public sealed class EventSchema
{
    public EventSchema(SchemaSource source, Guid providerId, string providerName, string eventName, IReadOnlyList<SchemaField> fields, int flatFieldCount)
        : this(source, providerId, providerName, eventName, fields as SchemaField[] ?? fields.ToArray(), flatFieldCount, null)
    {
    }

    /// <param name="referenced">
    /// <see cref="ReferencedFields"/> of these fields, when several schemas share one field list (a manifest's
    /// template serves many events): worked out once, not once an event.
    /// </param>
    internal EventSchema(SchemaSource source, Guid providerId, string providerName, string eventName, SchemaField[] fields, int flatFieldCount, bool[]? referenced)
    {
        Source = source;
        ProviderId = providerId;
        ProviderName = providerName;
        EventName = eventName;
        FieldArray = fields;
        FlatFieldCount = flatFieldCount;
        _referenced = referenced ?? ReferencedFields(fields, flatFieldCount);
        HasReferencedFields = _referenced.Length > 0;
    }

    // Which fields give another field its count or length: only their values need keeping while decoding.
    private readonly bool[] _referenced;

    public SchemaSource Source { get; }
    public Guid ProviderId { get; }
    public string ProviderName { get; }

    /// <summary>Event name (TraceLogging), or the manifest's event/task+opcode name.</summary>
    public string EventName { get; }

    public ushort EventId { get; init; }
    public byte Version { get; init; }
    public byte Opcode { get; init; }
    public ushort Task { get; init; }
    public string TaskName { get; init; } = "";
    public string OpcodeName { get; init; } = "";

    /// <summary>Top-level fields in payload order.</summary>
    public IReadOnlyList<SchemaField> Fields => FieldArray;

    internal SchemaField[] FieldArray { get; }

    /// <summary>Whether any field is another field's count or length (only then are values kept while decoding).</summary>
    internal bool HasReferencedFields { get; }

    /// <summary>Whether the field at flat index <paramref name="index"/> is another field's count or length.</summary>
    internal bool IsReferenced(int index) => (uint)index < (uint)_referenced.Length && _referenced[index];

    /// <summary>Number of fields including struct members (the size of the field index space).</summary>
    public int FlatFieldCount { get; }

    public bool IsTraceLogging => Source == SchemaSource.TraceLogging;

    public override string ToString() => $"{ProviderName}/{EventName} ({Fields.Count} fields)";

    /// <summary>
    /// Which of <paramref name="flatFieldCount"/> fields give another field its count or length; empty when none does
    /// (most schemas), so that the schemas sharing it answer <see cref="HasReferencedFields"/> without a search.
    /// </summary>
    internal static bool[] ReferencedFields(SchemaField[] fields, int flatFieldCount)
    {
        var referenced = new bool[Math.Max(flatFieldCount, 0)];
        MarkReferenced(fields, referenced, new HashSet<SchemaField>(ReferenceEqualityComparer.Instance));
        return Array.IndexOf(referenced, true) >= 0 ? referenced : Array.Empty<bool>();
    }

    // Each field once: embedded schemas may share struct members between structs, and walking every path
    // through such a schema could take exponential time.
    private static void MarkReferenced(SchemaField[] fields, bool[] referenced, HashSet<SchemaField> seen)
    {
        foreach (var field in fields)
        {
            if (!seen.Add(field)) continue;
            if (field.CountKind == FieldCountKind.FromField && (uint)field.CountFieldIndex < (uint)referenced.Length) referenced[field.CountFieldIndex] = true;
            if (field.LengthKind == FieldLengthKind.FromField && (uint)field.LengthFieldIndex < (uint)referenced.Length) referenced[field.LengthFieldIndex] = true;
            MarkReferenced(field.MemberArray, referenced, seen);
        }
    }
}
