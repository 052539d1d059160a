using HiddenCost.Etl.Decoding.Schema;

namespace HiddenCost.Etl.Decoding.TraceLogging;

/// <summary>
/// Decodes TraceLogging events from their own metadata. Each event carries its schema; the parsed schema is
/// cached by (provider, metadata bytes), so repeated events cost a hash and a compare, not a parse.
/// The cache holds at most <see cref="MaxSchemas"/> schemas (hostile traces cannot grow it without bound).
/// </summary>
public sealed class TraceLoggingDecoder
{
    public const int MaxSchemas = 1 << 14;

    private readonly Dictionary<int, List<(Guid Provider, byte[] Metadata, EventSchema Schema)>> _cache = new();
    private int _count;

    public int SchemaCount => _count;

    /// <summary>True when the event carries TraceLogging metadata (an EVENT_SCHEMA_TL extended item).</summary>
    public static bool IsTraceLogging(in EtwEvent e) =>
        e.ExtendedData.Length > 0 && !ExtendedData.Find(e.ExtendedData, ExtendedDataType.EventSchemaTraceLogging).IsEmpty;

    public bool TryGetSchema(in EtwEvent e, out EventSchema schema)
    {
        schema = null!;
        var metadata = ExtendedData.Find(e.ExtendedData, ExtendedDataType.EventSchemaTraceLogging);
        if (metadata.IsEmpty) return false;
        var hash = new HashCode();
        hash.Add(e.ProviderId);
        hash.AddBytes(metadata);
        int key = hash.ToHashCode();
        if (_cache.TryGetValue(key, out var bucket))
        {
            foreach (var entry in bucket)
            {
                if (entry.Provider == e.ProviderId && metadata.SequenceEqual(entry.Metadata))
                {
                    schema = entry.Schema;
                    return true;
                }
            }
        }
        var providerName = TraceLoggingMetadata.ProviderName(ExtendedData.Find(e.ExtendedData, ExtendedDataType.ProviderTraits));
        var parsed = TraceLoggingMetadata.Parse(e.ProviderId, providerName, metadata);
        if (parsed is null) return false;
        if (_count < MaxSchemas)
        {
            if (bucket is null) _cache[key] = bucket = new List<(Guid, byte[], EventSchema)>(1);
            bucket.Add((e.ProviderId, metadata.ToArray(), parsed));
            _count++;
        }
        schema = parsed;
        return true;
    }

    public DecodeStatus Decode<TVisitor>(in EtwEvent e, ref TVisitor visitor) where TVisitor : IEventFieldVisitor =>
        TryGetSchema(e, out var schema)
            ? SchemaDecoder.Decode(schema, e.Payload, e.PointerSize, ref visitor)
            : DecodeStatus.Invalid;
}
