using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Etl;
using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Decoding.Manifest;
using HiddenCost.Etl.Reading;
using HiddenCost.Etl.Records;

namespace HiddenCost.Analysis.Tables.EventCounts;

/// <summary>
/// Event Counts: every distinct event kind in the trace with its count and how many carried a stack,
/// like WPA's Generic Events summary. This is how users (and tests) see what the reader decoded.
/// </summary>
public sealed class EventCountsAnalysis : ITraceAnalysis
{
    public static readonly TableDefinition<EventCountRow> Definition = new TableDefinitionBuilder<EventCountRow>(TableIds.EventCounts, "Event Counts",
            "Every event kind in the trace: provider, event, header kind, count and how many carry a stack.", "HiddenCost/Trace")
        .Column("Provider", ColumnType.Text, r => r.Provider, description: "kernel events: the MOF group name; others: provider name when known (built in, TraceLogging traits, or the schemas the trace embeds: a merged trace's, an EventSource's own manifest), else the GUID")
        .Column("Provider Id", ColumnType.Guid, r => r.ProviderId)
        .Column("Event", ColumnType.Text, r => r.Event, description: "event or opcode name when known (built in, TraceLogging metadata, or the trace's embedded schemas), else the number")
        .Column("Id", ColumnType.Integer, r => r.Id, description: "EVENT_HEADER event id; 0 for kernel and classic events")
        .Column("Opcode", ColumnType.Integer, r => r.Opcode)
        .Column("Version", ColumnType.Integer, r => r.Version)
        .Column("Header", ColumnType.Text, r => r.Header, description: "SYSTEM, PERFINFO, EVENT_HEADER or CLASSIC")
        .Column("Count", ColumnType.Integer, r => r.Count, ColumnUnit.Count, ColumnRole.GraphValue)
        .Column("With Stack", ColumnType.Integer, r => r.WithStack, ColumnUnit.Count, description: "events with a stack (StackWalk event or stack extended item)")
        .Build(new TableView(new[] { "Provider", "Event" }, "Count", new[] { "Count" }));

    private readonly TraceSession _session;
    private readonly Dictionary<RowKey, Counter> _rows = new();
    // Every event looks its row up by numbers (a Guid and a few bytes); the row's names are built once, when its
    // first event comes. Building them for every event hashed three strings an event and allocated for unnamed ones.
    // TraceLogging events take their names from their metadata (and any event naming its provider in provider traits
    // takes that name), so those are looked up by name.
    private readonly Dictionary<EventKey, Counter> _byKind = new();
    // Caches in front of _byKind, which every event asked (a Guid-keyed lookup was 5% of an all-tables pass): kernel
    // events by a flat slot per (group, opcode), the others by a few recent kinds. Both hold what _byKind
    // gives, so counts are the same.
    private readonly Counter?[] _kernelSlots = new Counter?[1 << 16];
    private const int RecentSlotBits = 6;
    private readonly RecentSlot[] _recent = new RecentSlot[1 << RecentSlotBits];
    // A merged trace embeds its manifest events' schemas (KernelTraceControl MetaData), and an EventSource logs its own
    // manifest (ManifestData); both name providers and events as WPA shows them. MetaData comes at the end of the
    // trace, so rows are named from them when built.
    private readonly SchemaCatalog _schemas = new();

    public EventCountsAnalysis(TraceSession session) => _session = session;

    public IReadOnlyList<TableSpec> Tables { get; } = new[] { Definition.Spec };

    public void OnEvent(in EtwEvent e)
    {
        bool withStack = false, traceLogging = false;
        if (e.Kind == RecordHeaderKind.EventHeader)
        {
            Scan(e.ExtendedData, out withStack, out traceLogging);
            if (EventSourceManifestAssembler.IsManifestEvent(e)) _schemas.Observe(e);
        }
        else if (e.Kind is RecordHeaderKind.Classic or RecordHeaderKind.Instance) _schemas.Observe(e);
        var counter = traceLogging ? Row(e) : e.IsKernel ? KernelCounter(e) : RecentCounter(e);
        counter.Count++;
        // Kernel events' stacks are StackWalk events, which the session matches to their events for all analyses.
        if (withStack) counter.WithStack++;
    }

    /// <summary>
    /// A kernel event's counter from its group and opcode's slot (one array read) when that counter is of the event's
    /// kind (version and header too); else the dictionary's, which then takes the slot.
    /// </summary>
    private Counter KernelCounter(in EtwEvent e)
    {
        int kind = StackedKernelEvents.KindOf(e);
        ref var slot = ref _kernelSlots[kind & 0xFFFF];
        if (slot is { } counter && counter.KernelKind == kind) return counter;
        return slot = ByKind(EventKey.Of(e), e);
    }

    /// <summary>Another event's counter from the small cache of recent kinds (direct mapped by the key's hash), else the dictionary.</summary>
    private Counter RecentCounter(in EtwEvent e)
    {
        var kind = EventKey.Of(e);
        ref var slot = ref _recent[kind.CacheSlot(RecentSlotBits)];
        if (slot.Counter is { } counter && slot.Kind.Equals(kind)) return counter;
        counter = ByKind(kind, e);
        slot = new RecentSlot(kind, counter);
        return counter;
    }

    private Counter ByKind(EventKey kind, in EtwEvent e)
    {
        if (!_byKind.TryGetValue(kind, out var counter)) _byKind[kind] = counter = Row(e);
        return counter;
    }

    /// <summary>The row of the event's names, made when the first event of those names comes.</summary>
    private Counter Row(in EtwEvent e)
    {
        var key = KeyOf(e);
        if (!_rows.TryGetValue(key, out var counter))
            _rows[key] = counter = new Counter(e.IsKernel ? StackedKernelEvents.KindOf(e) : -1);
        return counter;
    }

    public IReadOnlyList<Table> Complete(AnalysisContext context)
    {
        var rows = _rows.Select(r => (Key: NamedFromSchema(r.Key), Counter: r.Value)).ToList();
        var table = Definition.Table(rows
            .OrderByDescending(r => r.Counter.Count).ThenBy(r => r.Key.ProviderName, StringComparer.Ordinal).ThenBy(r => r.Key.EventName, StringComparer.Ordinal)
            .Select(r => new EventCountRow(
                Provider: r.Key.ProviderName,
                ProviderId: r.Key.ProviderId,
                Event: r.Key.EventName,
                Id: r.Key.Id,
                Opcode: r.Key.Opcode,
                Version: r.Key.Version,
                Header: r.Key.Header,
                Count: r.Counter.Count,
                WithStack: r.Counter.KernelKind >= 0 ? _session.StackedEvents.WithStack(r.Counter.KernelKind) : r.Counter.WithStack
            )));
        return new[] { table };
    }

    /// <summary>
    /// A manifest event's row with the names its embedded schema gives, where it had none of its own; an event the
    /// schemas do not describe (an EventSource's ManifestData, say) still takes its provider's name from them.
    /// </summary>
    private RowKey NamedFromSchema(RowKey k)
    {
        if (k.Header != "EVENT_HEADER") return k;
        bool unnamedProvider = k.ProviderName == k.ProviderId.ToString(), unnamedEvent = k.EventName == k.Id.ToString();
        if (!_schemas.TryGetSchema(k.ProviderId, k.Id, k.Version, out var schema))
            return unnamedProvider && _schemas.ProviderName(k.ProviderId) is { Length: > 0 } provider ? k with { ProviderName = provider } : k;
        return k with
        {
            ProviderName = unnamedProvider && schema.ProviderName.Length > 0 ? schema.ProviderName : k.ProviderName,
            EventName = unnamedEvent && schema.EventName.Length > 0 ? schema.EventName : k.EventName,
        };
    }

    private static RowKey KeyOf(in EtwEvent e)
    {
        switch (e.Kind)
        {
            case RecordHeaderKind.System or RecordHeaderKind.Compact or RecordHeaderKind.PerfInfo:
                return new RowKey(KernelGroups.NameOf(e.Group), e.ProviderId,
                    EventNames.KernelEvent(e.Group, e.Opcode) ?? e.Opcode.ToString(), 0, e.Opcode, e.Version,
                    e.Kind == RecordHeaderKind.PerfInfo ? "PERFINFO" : "SYSTEM");
            case RecordHeaderKind.EventHeader:
            {
                var (tlProvider, tlEvent) = TraceLoggingNames(e.ExtendedData);
                var provider = tlProvider ?? EventNames.Provider(e.ProviderId) ?? e.ProviderId.ToString();
                string? name = tlEvent ?? EventNames.ManifestEvent(e.ProviderId, e.EventId)
                    ?? (EventSourceManifestAssembler.IsManifestEvent(e) ? "ManifestData" : null);
                return new RowKey(provider, e.ProviderId, name ?? e.EventId.ToString(),
                    e.EventId, e.Opcode, e.Version, "EVENT_HEADER");
            }
            default:
                return new RowKey(EventNames.Provider(e.ProviderId) ?? e.ProviderId.ToString(), e.ProviderId,
                    EventNames.ClassicEvent(e.ProviderId, e.Opcode) ?? e.Opcode.ToString(), 0, e.Opcode, e.Version, "CLASSIC");
        }
    }

    private static void Scan(ReadOnlySpan<byte> ext, out bool withStack, out bool traceLogging)
    {
        withStack = traceLogging = false;
        foreach (var item in new ExtendedData(ext))
        {
            if (item.Type is ExtendedDataType.StackTrace32 or ExtendedDataType.StackTrace64
                or ExtendedDataType.StackKey32 or ExtendedDataType.StackKey64) withStack = true;
            else if (item.Type is ExtendedDataType.EventSchemaTraceLogging or ExtendedDataType.ProviderTraits) traceLogging = true;
        }
    }

    /// <summary>TraceLogging events name their provider (PROV_TRAITS) and themselves (EVENT_SCHEMA_TL).</summary>
    private static (string? Provider, string? Event) TraceLoggingNames(ReadOnlySpan<byte> ext)
    {
        string? provider = null, name = null;
        foreach (var item in new ExtendedData(ext))
        {
            var data = item.Data;
            if (item.Type == ExtendedDataType.ProviderTraits && data.Length > 2)
            {
                int at = 2;
                provider = PayloadReader.ReadAnsiString(data, ref at);
            }
            else if (item.Type == ExtendedDataType.EventSchemaTraceLogging && data.Length > 2)
            {
                int at = 2;
                while (at < data.Length && (data[at] & 0x80) != 0) at++; // event tags: high bit = more follow
                at++;
                name = PayloadReader.ReadAnsiString(data, ref at);
            }
        }
        return (provider, name);
    }

    /// <summary>
    /// What tells event kinds apart before they are named: one key per row's names (System and Compact kernel headers
    /// share theirs, as their rows do), and events with the same key always get the same names.
    /// </summary>
    private readonly struct EventKey(Guid providerId, ushort id, byte opcode, byte version, byte group, byte header) : IEquatable<EventKey>
    {
        private readonly Guid _provider = providerId;
        // The small fields in one number: one comparison and one hash step instead of one per field, for every event.
        private readonly ulong _rest = id | (ulong)opcode << 16 | (ulong)version << 24 | (ulong)group << 32 | (ulong)header << 40;

        public static EventKey Of(in EtwEvent e) => e.Kind switch
        {
            RecordHeaderKind.System or RecordHeaderKind.Compact => new(default, 0, e.Opcode, e.Version, e.Group, 1),
            RecordHeaderKind.PerfInfo => new(default, 0, e.Opcode, e.Version, e.Group, 2),
            RecordHeaderKind.EventHeader => new(e.ProviderId, e.EventId, e.Opcode, e.Version, 0, 3),
            _ => new(e.ProviderId, 0, e.Opcode, e.Version, 0, 4),
        };

        public bool Equals(EventKey other) => _rest == other._rest && _provider == other._provider;

        public override bool Equals(object? obj) => obj is EventKey other && Equals(other);

        public override int GetHashCode() => _provider.GetHashCode() ^ (int)(_rest * 0x9E3779B97F4A7C15 >> 32);

        /// <summary>A slot of a small cache from the small fields alone (one multiply): a trace's frequent kinds differ in them.</summary>
        public int CacheSlot(int bits) => (int)(_rest * 0x9E3779B97F4A7C15 >> (64 - bits));
    }

    private readonly record struct RecentSlot(EventKey Kind, Counter? Counter);

    private readonly record struct RowKey(string ProviderName, Guid ProviderId, string EventName, ushort Id, byte Opcode, byte Version, string Header);

    private sealed class Counter(int kernelKind)
    {
        /// <summary><see cref="StackedKernelEvents.KindOf"/> for a kernel event's row; -1 for the others.</summary>
        public readonly int KernelKind = kernelKind;
        public long Count;
        public long WithStack;
    }
}
