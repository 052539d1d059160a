using HiddenCost.Etl.Decoding.Manifest;
using HiddenCost.Etl.Decoding.Schema;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests.Decoding;

/// <summary>
/// Whole-array delivery is a faster way to the same values: every schema-decoded event of the samples gives, array
/// element by array element, exactly the fields and bytes that element-by-element decoding gives.
/// </summary>
[TestClass]
public sealed class WholeArrayDecodingTests
{
    [TestMethod]
    [DataRow(Samples.NetX64)]
    [DataRow(Samples.NetX86)]
    [DataRow(Samples.TraceLoggingTester)]
    [DataRow(Samples.PrimitiveTypes)]
    [DataRow(Samples.SelfDescribingSingleEvent)]
    public void Whole_arrays_carry_the_values_element_by_element_decoding_gives(string sample)
    {
        using var reader = EtlReader.Open(Samples.PathOf(sample));
        var generic = new GenericEventDecoder();
        long events = 0, wholeArrays = 0, values = 0;
        foreach (var e in reader.ReadEvents())
        {
            if (generic.Observe(e) || !generic.TryGetSchema(e, out _)) continue;
            var perElement = new Recorder(expand: false);
            var whole = new Recorder(expand: true);
            var statusPerElement = generic.Decode(e, ref perElement);
            var statusWhole = generic.Decode(e, ref whole, wholeArrays: true);
            Assert.AreEqual(statusPerElement, statusWhole);
            CollectionAssert.AreEqual(perElement.Values, whole.Values, $"event {e.EventId} at {e.TimeNs} ns");
            events++;
            wholeArrays += whole.WholeArrays;
            values += perElement.Values.Count;
        }
        Assert.IsTrue(events > 0, "the sample has schema-decoded events");
        Console.WriteLine($"{sample}: {events} events, {values} values, {wholeArrays} arrays delivered whole");
        if (sample is Samples.NetX64 or Samples.NetX86) Assert.IsTrue(wholeArrays > 10_000, "CLR stack walks and IL maps are arrays");
    }

    /// <summary>Each value as (path, offset, bytes), whole arrays expanded into their elements.</summary>
    private struct Recorder : IEventFieldVisitor
    {
        private readonly bool _expand;
        public readonly List<string> Values = new();
        public int WholeArrays;

        public Recorder(bool expand) => _expand = expand;

        public bool Visit(in EventField field)
        {
            if (field.ElementCount != 1 || (field.Field.IsArray && field.ElementIndex < 0))
            {
                Assert.IsTrue(_expand, "whole arrays come only when asked for");
                WholeArrays++;
                for (int i = 0; i < field.ElementCount; i++) Add(field.Element(i));
            }
            else Add(field);
            return true;
        }

        private readonly void Add(in EventField field) => Values.Add($"{field.Path}@{field.ValueOffset}={Convert.ToHexString(field.Raw)}");
    }
}
