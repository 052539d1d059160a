using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Pipeline;

/// <summary>
/// What one pass runs for the tables asked for: the analyses that make them and those that make the tables they read
/// (an analysis making several tables runs once, and the tables not asked for are dropped), and the union of what
/// those analyses read of the session.
/// </summary>
public sealed class AnalysisPlan
{
    private readonly IReadOnlyList<AnalysisEntry> _entries;
    private readonly IReadOnlySet<Guid>? _tables;

    private AnalysisPlan(IReadOnlyList<AnalysisEntry> entries, IReadOnlySet<Guid>? tables)
    {
        _entries = entries;
        _tables = tables;
        Needs = NeedsOf(entries);
    }

    /// <summary>Every analysis of <paramref name="catalog"/>, every table.</summary>
    public static AnalysisPlan Everything(IReadOnlyList<AnalysisEntry> catalog) => new(catalog, null);

    /// <summary>
    /// The analyses of <paramref name="catalog"/> that make the tables <paramref name="tableIds"/> names (ids no entry
    /// makes are ignored); every analysis when <paramref name="tableIds"/> is null.
    /// </summary>
    public static AnalysisPlan For(IReadOnlyList<AnalysisEntry> catalog, IEnumerable<Guid>? tableIds)
    {
        if (tableIds is null) return Everything(catalog);
        var wanted = tableIds.ToHashSet();
        // What the analyses asked for read from other analyses' tables is made too (one level: those read none).
        var made = wanted.Concat(catalog.Where(entry => entry.Makes(wanted)).SelectMany(entry => entry.ReadsTables)).ToHashSet();
        return new AnalysisPlan(catalog.Where(entry => entry.Makes(made)).ToArray(), wanted);
    }

    /// <summary>What the planned analyses read of the session.</summary>
    public SessionNeeds Needs { get; }

    /// <summary>The analyses the pass runs, in catalog order.</summary>
    public IReadOnlyList<AnalysisEntry> Entries => _entries;

    /// <summary>The tables the pass gives back, in catalog order.</summary>
    public IEnumerable<TableSpec> Tables => _entries.SelectMany(e => e.Tables).Where(Wanted);

    /// <summary>Whether the pass gives <paramref name="table"/> back (a planned analysis may make others too).</summary>
    public bool Wanted(TableSpec table) => _tables is null || _tables.Contains(table.Id);

    /// <summary>
    /// The most lanes a pass of this plan runs at once (<see cref="Lanes"/>): by default two on a machine of four cores
    /// or more (the read-ahead and merging threads take two), else one. Lanes cost CPU (the session parts both lanes
    /// read are built twice: about half as much again in all), so on two cores, where every thread's CPU comes out of
    /// the same two, they would only slow a pass down.
    /// </summary>
    public int MaxLanes { get; private init; } = Environment.ProcessorCount >= 4 ? 2 : 1;

    /// <summary>This plan with at most <paramref name="maxLanes"/> lanes (tests run both ways; 1 for a pass on one thread).</summary>
    public AnalysisPlan WithMaxLanes(int maxLanes) => new(_entries, _tables) { MaxLanes = Math.Max(1, maxLanes) };

    /// <summary>
    /// The planned analyses split into lanes (up to <see cref="MaxLanes"/>) that can run on cores of their own, each
    /// over a session of its own: those that resolve frames (images, CLR methods; with them the symbols, which only
    /// they look up and which the Symbols table reports) in one lane, the others in another. One lane when either
    /// part is empty. Every table is the same however the analyses are split: each reads only its own session.
    /// </summary>
    public IReadOnlyList<IReadOnlyList<AnalysisEntry>> Lanes
    {
        get
        {
            var resolving = _entries.Where(ResolvesFrames).ToArray();
            var others = _entries.Where(e => !ResolvesFrames(e)).ToArray();
            return MaxLanes < 2 || resolving.Length == 0 || others.Length == 0 ? [_entries] : [others, resolving];
        }
    }

    private static bool ResolvesFrames(AnalysisEntry entry) => (entry.Needs & (SessionNeeds.Images | SessionNeeds.ClrMethods)) != 0;

    /// <summary>What <paramref name="entries"/> read of the session.</summary>
    public static SessionNeeds NeedsOf(IEnumerable<AnalysisEntry> entries) => entries.Aggregate(SessionNeeds.None, (needs, e) => needs | e.Needs);

    /// <summary>Fresh analyses for one pass over <paramref name="session"/> (which should meet <see cref="Needs"/>).</summary>
    public ITraceAnalysis[] CreateAnalyses(TraceSession session) => _entries.Select(e => e.Create(session)).ToArray();
}
