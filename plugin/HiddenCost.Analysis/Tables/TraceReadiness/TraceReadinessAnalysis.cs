using System.Globalization;
using HiddenCost.Analysis.Catalogs;
using HiddenCost.Analysis.Common;
using HiddenCost.Analysis.Model;
using HiddenCost.Analysis.Pipeline;
using HiddenCost.Analysis.Tables.EventCounts;
using HiddenCost.Etl;

namespace HiddenCost.Analysis.Tables.TraceReadiness;

/// <summary>
/// Trace Readiness: for each problem table, whether the trace holds the events it needs (from the requirement
/// catalogue, the same data the profile-pack tests check MultiProfile.wprp against), what is missing, samples,
/// stacks, lost data, and the `wpr -start` line that would record what is missing. A table's StackWalk requirement
/// counts stacks on the events it wants them on (CPU samples, syscall entries, ...), not StackWalk events anywhere:
/// a trace with context-switch stacks only is not ready for a table that reads sample stacks.
/// </summary>
public sealed class TraceReadinessAnalysis : ITraceAnalysis
{
    public static readonly TableDefinition<TraceReadinessRow> Definition = new TableDefinitionBuilder<TraceReadinessRow>(TableIds.TraceReadiness, "Trace Readiness",
            "For each problem table: the events it needs that the trace holds (with counts), what is missing, samples and stacks, " +
            "lost data, and the wpr line that records what is missing.", "HiddenCost/Trace")
        .Column("Table", ColumnType.Text, r => r.Table)
        .Column("Ready", ColumnType.Boolean, r => r.Ready, description: "every required event kind is present, and some of each decodable")
        .Column("Present", ColumnType.Text, r => r.Present, description: "required and optional event kinds found, with counts (and how many could not be decoded)")
        .Column("Missing", ColumnType.Text, r => r.Missing, description: "required event kinds absent with the WPR keyword that records them, or recorded but none decodable (optional ones in brackets)")
        .Column("CPU Samples", ColumnType.Integer, r => r.CpuSamples, ColumnUnit.Count)
        .Column("Stacks", ColumnType.Integer, r => r.Stacks, ColumnUnit.Count, description: "events in the trace with a stack attached")
        .Column("Events Lost", ColumnType.Integer, r => r.EventsLost, ColumnUnit.Count)
        .Column("Buffers Lost", ColumnType.Integer, r => r.BuffersLost, ColumnUnit.Count)
        .Column("Profile", ColumnType.Text, r => r.Profile, description: "the MultiProfile.wprp profile that records this table's events")
        .Column("Record With", ColumnType.Text, r => r.RecordWith, description: "the wpr line that records what is missing; empty when ready")
        .Build(new TableView(new[] { "Table" }));

    private readonly TraceSession _session;
    private readonly long[] _kernel = new long[1 << 16];
    // The manifest events the catalogue's requirements name, numbered up front, and each one's count: the only ones
    // Complete asks about, so the others are passed over (most events of a trace are of none of them).
    private readonly ProviderEventIndex _providerEvents = new();
    private readonly List<long> _provider = new(); // by _providerEvents' number
    private long _pdbRecords;

    public TraceReadinessAnalysis(TraceSession session)
    {
        _session = session;
        foreach (var problem in RequirementCatalog.Problems)
            foreach (var requirement in problem.Events)
                if (requirement.Events.Origin != EventOrigin.Kernel)
                    foreach (var id in requirement.Events.Ids)
                        if (_providerEvents.Add(requirement.Events.ProviderId, (ushort)id) == _provider.Count) _provider.Add(0);
    }

    public IReadOnlyList<TableSpec> Tables { get; } = new[] { Definition.Spec };

    public void OnEvent(in EtwEvent e)
    {
        if (e.IsKernel) _kernel[e.Group << 8 | e.Opcode]++;
        else if (e.Kind == Etl.Records.RecordHeaderKind.EventHeader)
        {
            if (_providerEvents.Find(e.ProviderId, e.EventId) is var n and >= 0) _provider[n]++;
        }
        else if (Etl.Decoding.KernelTraceControl.DbgIdRsds.Matches(e)) _pdbRecords++;
    }

    public IReadOnlyList<Table> Complete(AnalysisContext context)
    {
        var rows = new List<TraceReadinessRow>();
        // Samples the table can use: an undecodable one names no thread.
        long samples = _kernel[KernelGroups.PerfInfo << 8 | 46] - _session.Undecodable.Kernel(KernelGroups.PerfInfo, 46);
        long stacks = _session.Stacks.Completed;
        long eventsLost = context.Header.EventsLost;
        long buffersLost = context.Header.BuffersLost;
        foreach (var problem in RequirementCatalog.Problems)
        {
            var present = new List<string>();
            var missing = new List<string>();
            bool stacksListed = false;
            foreach (var requirement in problem.Events)
            {
                if (StackedOn(requirement) is not null)
                {
                    // A table may want stacks for two purposes (Spin-Wait: samples required, switches optional): one entry.
                    if (!stacksListed) ListStacks(problem, present, missing);
                    stacksListed = true;
                    continue;
                }
                long count = Count(requirement.Events), undecodable = _session.Undecodable.Count(requirement.Events);
                if (count > undecodable)
                    present.Add(undecodable == 0 ? $"{requirement.Name} {N(count)}" : $"{requirement.Name} {N(count)} ({N(undecodable)} undecodable)");
                // A kind recorded with none of its events decodable is missing to the table, whatever its siblings in the
                // requirement hold (SysClExit without SysClEnter times nothing), and recording again is no answer.
                foreach (var (kind, n) in AllUndecodable(requirement.Events))
                {
                    var what = $"{kind}: all {N(n)} undecodable ({UndecodableReport.Reason})";
                    missing.Add(requirement.Necessity == Necessity.Required ? what : $"[{what}]");
                }
                if (count == 0)
                {
                    var what = $"{requirement.Name} ({HowRecorded(requirement.RecordedBy)})";
                    missing.Add(requirement.Necessity == Necessity.Required ? what : $"[{what}]");
                }
            }
            bool ready = problem.Required.All(Met);
            rows.Add(new TraceReadinessRow(
                Table: problem.TableName,
                Ready: ready,
                Present: string.Join("; ", present),
                Missing: string.Join("; ", missing),
                CpuSamples: samples,
                Stacks: stacks,
                EventsLost: eventsLost,
                BuffersLost: buffersLost,
                Profile: problem.ProfileReference,
                RecordWith: ready ? "" : problem.WprStartCommand
            ));
        }
        var table = Definition.Table(rows);
        if (eventsLost > 0 || buffersLost > 0)
            table.AddNote(TableNote.Warning("trace-readiness.events-lost", $"ETW lost {eventsLost:N0} events and {buffersLost:N0} buffers: counts are lower bounds."));
        if (_pdbRecords > 0 && !_session.Symbols.Available)
            table.AddNote(TableNote.Info("trace-readiness.symbols-would-name",
                $"{N(_pdbRecords)} DbgID_RSDS records name the images' PDBs: with a symbol path (_NT_SYMBOL_PATH, or --symbols PATH) " +
                "native frames would be named (Syscall Hook Overhead's Syscall, CPU by Function) instead of module+0xRVA; the Symbols table lists them."));
        return new[] { table };
    }

    private bool Met(EventRequirement r) =>
        StackedOn(r) is { } kinds
            ? kinds.Sum(k => Stacked(k.Kind)) > 0
            : Count(r.Events) > _session.Undecodable.Count(r.Events) && AllUndecodable(r.Events).Count == 0;

    /// <summary>The kinds of <paramref name="selector"/> the trace holds that its decoder could decode none of, by name.</summary>
    private List<(string Kind, long Count)> AllUndecodable(EventSelector selector)
    {
        var kinds = new List<(string, long)>();
        if (_session.Undecodable.Total == 0) return kinds;
        foreach (var id in selector.Ids)
        {
            long n = CountOf(selector, id);
            if (n == 0 || _session.Undecodable.Count(selector, id) < n) continue;
            kinds.Add((selector.Origin == EventOrigin.Kernel
                ? EventNames.KernelEvent(selector.Group, (byte)id) ?? $"{selector.SourceName} opcode {id}"
                : EventNames.ManifestEvent(selector.ProviderId, (ushort)id) ?? $"{selector.SourceName} event {id}", n));
        }
        return kinds;
    }

    /// <summary>
    /// A table's StackWalk requirements, as one present entry — "StackWalk N (on SampledProfile n, ...)", naming the
    /// wanted events that have stacks, or "(on other events)" — and one missing entry per wanted event without
    /// stacks: in brackets unless the table needs stacks there and has none on any event it names for that purpose.
    /// </summary>
    private void ListStacks(ProblemRequirements problem, List<string> present, List<string> missing)
    {
        var on = new List<string>();
        long stackEvents = 0;
        string name = "";
        foreach (var r in problem.Events)
        {
            if (StackedOn(r) is not { } kinds) continue;
            name = r.Name;
            stackEvents = Count(r.Events);
            bool none = kinds.All(k => Stacked(k.Kind) == 0);
            foreach (var (value, kind) in kinds)
            {
                if (Stacked(kind) > 0) on.Add($"{value} {N(Stacked(kind))}");
                else
                {
                    var what = $"{r.Name} on {value} (stacks {value})";
                    missing.Add(r.Necessity == Necessity.Required && none ? what : $"[{what}]");
                }
            }
        }
        if (stackEvents > 0) present.Add($"{name} {N(stackEvents)} ({(on.Count > 0 ? "on " + string.Join(", ", on) : "on other events")})");
    }

    /// <summary>The kernel events a StackWalk requirement wants stacks on; null for other requirements (or an unmapped value).</summary>
    private static IReadOnlyList<(string Value, int Kind)>? StackedOn(EventRequirement r)
    {
        if (r.Events.Origin != EventOrigin.Kernel || r.Events.Group != KernelGroups.StackWalk || r.RecordedBy.Stacks.Count == 0) return null;
        var kinds = new List<(string, int)>();
        foreach (var value in r.RecordedBy.Stacks)
        {
            if (WprStackEvents.Of(value) is not { } e) return null;
            kinds.Add((value, e.Group << 8 | e.Opcode));
        }
        return kinds;
    }

    private long Stacked(int groupOpcode) => _session.StackedEvents.WithStack((byte)(groupOpcode >> 8), (byte)groupOpcode);

    private static string N(long n) => n.ToString("N0", CultureInfo.InvariantCulture);

    /// <summary>The WPR setting that records an event kind: kernel keywords, or provider and keyword mask.</summary>
    private static string HowRecorded(WprRecording r)
    {
        if (r.Provider is { } p) return p.Keywords == 0 ? $"{p.Name}, all keywords" : $"{p.Name} keywords 0x{p.Keywords:X}";
        return r.SystemKeywords.Count > 0 ? "kernel keyword " + string.Join("+", r.SystemKeywords) : "stacks " + string.Join("+", r.Stacks);
    }

    private long Count(EventSelector selector)
    {
        long total = 0;
        foreach (var id in selector.Ids) total += CountOf(selector, id);
        return total;
    }

    private long CountOf(EventSelector selector, int id) => selector.Origin == EventOrigin.Kernel
        ? _kernel[selector.Group << 8 | (byte)id]
        : _providerEvents.Find(selector.ProviderId, (ushort)id) is var n and >= 0 ? _provider[n] : 0;
}
