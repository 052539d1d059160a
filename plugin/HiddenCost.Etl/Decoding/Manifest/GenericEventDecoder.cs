using HiddenCost.Etl.Decoding.Schema;
using HiddenCost.Etl.Decoding.TraceLogging;

namespace HiddenCost.Etl.Decoding.Manifest;

/// <summary>
/// Decodes any event that describes itself (TraceLogging) or whose schema the trace embeds (manifest events of
/// merged traces), by field name. Feed every event to <see cref="Observe"/> so embedded schemas are learned
/// before the events that need them.
/// </summary>
public sealed class GenericEventDecoder
{
    public SchemaCatalog Catalog { get; } = new();
    public TraceLoggingDecoder TraceLogging { get; } = new();

    /// <summary>Learns embedded schemas; true when <paramref name="e"/> was a MetaData event.</summary>
    public bool Observe(in EtwEvent e) => Catalog.Observe(e);

    public bool TryGetSchema(in EtwEvent e, out EventSchema schema) =>
        TraceLoggingDecoder.IsTraceLogging(e) ? TraceLogging.TryGetSchema(e, out schema) : Catalog.TryGetSchema(e, out schema);

    /// <param name="wholeArrays">Arrays of fixed-size values in one visit each (<see cref="SchemaDecoder.Decode{TVisitor}"/>).</param>
    public DecodeStatus Decode<TVisitor>(in EtwEvent e, ref TVisitor visitor, bool wholeArrays = false) where TVisitor : IEventFieldVisitor =>
        TryGetSchema(e, out var schema)
            ? SchemaDecoder.Decode(schema, e.Payload, e.PointerSize, ref visitor, Catalog, wholeArrays)
            : DecodeStatus.Invalid;

    /// <summary>Every field as a list (allocates), or null when no schema is known for the event.</summary>
    public IReadOnlyList<DecodedField>? DecodeToList(in EtwEvent e, out EventSchema? schema, out DecodeStatus status)
    {
        status = DecodeStatus.Invalid;
        if (!TryGetSchema(e, out var found))
        {
            schema = null;
            return null;
        }
        schema = found;
        return FieldCollector.Collect(found, e.Payload, e.PointerSize, Catalog, out status);
    }
}
