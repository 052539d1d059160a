namespace HiddenCost.Etl.Decoding.Schema;

/// <summary>A field value copied out of its event (allocates: for display, generic tables and tests).</summary>
public sealed record DecodedField(string Name, string Path, FieldInType InType, object? Value, string Text);

/// <summary>Collects every field of a payload into a list of <see cref="DecodedField"/>.</summary>
public static class FieldCollector
{
    public static IReadOnlyList<DecodedField> Collect(EventSchema schema, ReadOnlySpan<byte> payload, int pointerSize,
        IValueMapSource? maps, out DecodeStatus status)
    {
        // Sized for a usual event, not the schema: a hostile template's thousands of fields would cost every event.
        var collector = new Collector(new List<DecodedField>(Math.Min(schema.FlatFieldCount, 32)));
        status = SchemaDecoder.Decode(schema, payload, pointerSize, ref collector, maps);
        return collector.Fields;
    }

    private readonly struct Collector : IEventFieldVisitor
    {
        public readonly List<DecodedField> Fields;

        public Collector(List<DecodedField> fields) => Fields = fields;

        public bool Visit(in EventField field)
        {
            Fields.Add(new DecodedField(field.Name, field.Path, field.InType, field.ToObject(), field.Format()));
            return true;
        }
    }
}
