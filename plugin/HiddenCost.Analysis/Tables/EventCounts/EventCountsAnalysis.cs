using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Etl;
using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Reading;
using HiddenCost.Etl.Records;

namespace HiddenCost.Analysis.Tables.EventCounts;

/// <summary>
/// Event Counts: every distinct event kind in the trace with its count and how many carried a stack,
/// like WPA's Generic Events summary. This is how users (and tests) see what the reader decoded.
/// </summary>
public sealed class EventCountsAnalysis : ITraceAnalysis
{
    public static readonly TableSpec Spec = new TableSpecBuilder(TableIds.EventCounts, "Event Counts",
            "Every event kind in the trace: provider, event, header kind, count and how many carry a stack.", "HiddenCost/Trace")
        .Column("Provider", ColumnType.Text, description: "kernel events: the MOF group name; others: provider name when known, else the GUID")
        .Column("Provider Id", ColumnType.Guid)
        .Column("Event", ColumnType.Text, description: "event or opcode name when known, else the number")
        .Column("Id", ColumnType.Integer, description: "EVENT_HEADER event id; 0 for kernel and classic events")
        .Column("Opcode", ColumnType.Integer)
        .Column("Version", ColumnType.Integer)
        .Column("Header", ColumnType.Text, description: "SYSTEM, PERFINFO, EVENT_HEADER or CLASSIC")
        .Column("Count", ColumnType.Integer, ColumnUnit.Count, ColumnRole.GraphValue)
        .Column("With Stack", ColumnType.Integer, ColumnUnit.Count, description: "events with a stack (StackWalk event or stack extended item)")
        .Build(new TableView(new[] { "Provider", "Event" }, "Count", new[] { "Count" }));

    private readonly TraceSession _session;
    private readonly Dictionary<RowKey, Counter> _rows = new();

    public EventCountsAnalysis(TraceSession session) => _session = session;

    public IReadOnlyList<TableSpec> Tables { get; } = new[] { Spec };

    public void OnEvent(in EtwEvent e)
    {
        var key = KeyOf(e);
        if (!_rows.TryGetValue(key, out var counter))
            _rows[key] = counter = new Counter(e.IsKernel ? StackedKernelEvents.KindOf(e) : -1);
        counter.Count++;
        // Kernel events' stacks are StackWalk events, which the session matches to their events for all analyses.
        if (e.Kind == RecordHeaderKind.EventHeader && HasStackItem(e.ExtendedData)) counter.WithStack++;
    }

    public IReadOnlyList<Table> Complete(AnalysisContext context)
    {
        var table = new Table(Spec);
        foreach (var (k, c) in _rows.OrderByDescending(r => r.Value.Count).ThenBy(r => r.Key.ProviderName, StringComparer.Ordinal).ThenBy(r => r.Key.EventName, StringComparer.Ordinal))
            table.AddRow(k.ProviderName, k.ProviderId, k.EventName, (long)k.Id, (long)k.Opcode, (long)k.Version, k.Header, c.Count,
                c.KernelKind >= 0 ? _session.StackedEvents.WithStack(c.KernelKind) : c.WithStack);
        return new[] { table };
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
                return new RowKey(provider, e.ProviderId, tlEvent ?? e.EventId.ToString(), e.EventId, e.Opcode, e.Version, "EVENT_HEADER");
            }
            default:
                return new RowKey(EventNames.Provider(e.ProviderId) ?? e.ProviderId.ToString(), e.ProviderId,
                    EventNames.ClassicEvent(e.ProviderId, e.Opcode) ?? e.Opcode.ToString(), 0, e.Opcode, e.Version, "CLASSIC");
        }
    }

    private static bool HasStackItem(ReadOnlySpan<byte> ext)
    {
        foreach (var item in new ExtendedData(ext))
            if (item.Type is ExtendedDataType.StackTrace32 or ExtendedDataType.StackTrace64
                or ExtendedDataType.StackKey32 or ExtendedDataType.StackKey64) return true;
        return false;
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

    private readonly record struct RowKey(string ProviderName, Guid ProviderId, string EventName, ushort Id, byte Opcode, byte Version, string Header);

    private sealed class Counter(int kernelKind)
    {
        /// <summary><see cref="StackedKernelEvents.KindOf"/> for a kernel event's row; -1 for the others.</summary>
        public readonly int KernelKind = kernelKind;
        public long Count;
        public long WithStack;
    }
}
