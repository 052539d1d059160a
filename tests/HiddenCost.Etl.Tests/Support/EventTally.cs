using System.Buffers.Binary;
using HiddenCost.Etl.Reading;
using HiddenCost.Etl.Records;

namespace HiddenCost.Etl.Tests.Support;

/// <summary>
/// Counts what one full pass of the reader delivers, under keys a person can read in a failure message:
/// kernel events as <c>Group/Opcode</c> (e.g. <c>PerfInfo/46</c>, any header kind), EVENT_HEADER events as
/// <c>{provider}#id vN</c>, classic events as <c>{guid} opN</c>; plus EVENT_HEADER extended data items by type.
/// </summary>
internal sealed class EventTally
{
    private const ushort ExtSchemaTl = 11, ExtStackTrace64 = 6;

    public Dictionary<string, int> ByKey { get; } = new();
    public Dictionary<RecordHeaderKind, int> ByKind { get; } = new();
    public Dictionary<int, int> ExtendedItemsByType { get; } = new();
    public int Events { get; private set; }
    public int EventHeader32 { get; private set; }
    public int EventHeader64 { get; private set; }
    public int TraceLoggingEvents { get; private set; }
    public int TraceLoggingEventsWithStacks { get; private set; }
    public required TraceHealth Health { get; init; }

    public int this[string key] => ByKey.GetValueOrDefault(key);

    public int Kernel(byte group, byte opcode) => this[$"{KernelGroups.NameOf(group)}/{opcode}"];

    public int Manifest(string provider, int id, int version) => this[$"{{{provider}}}#{id} v{version}"];

    public static EventTally Of(string sample)
    {
        using var reader = EtlReader.Open(Samples.PathOf(sample));
        var counts = new Dictionary<string, int>();
        var kinds = new Dictionary<RecordHeaderKind, int>();
        var ext = new Dictionary<int, int>();
        int events = 0, eh32 = 0, eh64 = 0, tl = 0, tlStacks = 0;
        foreach (var e in reader.ReadEvents())
        {
            events++;
            kinds[e.Kind] = kinds.GetValueOrDefault(e.Kind) + 1;
            string key = e.IsKernel ? $"{KernelGroups.NameOf(e.Group)}/{e.Opcode}"
                : e.Kind == RecordHeaderKind.EventHeader ? $"{{{e.ProviderId}}}#{e.EventId} v{e.Version}"
                : $"{{{e.ProviderId}}} op{e.Opcode}";
            counts[key] = counts.GetValueOrDefault(key) + 1;
            if (e.Kind != RecordHeaderKind.EventHeader) continue;
            if (e.Is64Bit) eh64++; else eh32++;
            bool schema = false, stack = false;
            var items = e.ExtendedData;
            int at = 0;
            while (at + 8 <= items.Length)
            {
                ushort type = BinaryPrimitives.ReadUInt16LittleEndian(items[(at + 2)..]);
                ushort size = BinaryPrimitives.ReadUInt16LittleEndian(items[(at + 6)..]);
                ext[type] = ext.GetValueOrDefault(type) + 1;
                schema |= type == ExtSchemaTl;
                stack |= type == ExtStackTrace64;
                at += (8 + size + 7) & ~7;
            }
            if (schema) tl++;
            if (schema && stack) tlStacks++;
        }
        var tally = new EventTally
        {
            Health = reader.Health,
        };
        foreach (var (k, v) in counts) tally.ByKey[k] = v;
        foreach (var (k, v) in kinds) tally.ByKind[k] = v;
        foreach (var (k, v) in ext) tally.ExtendedItemsByType[k] = v;
        tally.Events = events;
        tally.EventHeader32 = eh32;
        tally.EventHeader64 = eh64;
        tally.TraceLoggingEvents = tl;
        tally.TraceLoggingEventsWithStacks = tlStacks;
        return tally;
    }
}
