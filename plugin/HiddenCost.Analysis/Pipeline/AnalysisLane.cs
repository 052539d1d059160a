using HiddenCost.Etl;

namespace HiddenCost.Analysis.Pipeline;

/// <summary>
/// Some of a pass's analyses over a session of their own (<see cref="AnalysisPlan.Lanes"/>): one thread feeds it every
/// event, the session first, then each analysis. Lanes share nothing while the pass runs, so each can run on a core of
/// its own (<see cref="EtlReader.Dispatch"/>).
/// </summary>
public sealed class AnalysisLane : IEventSink
{
    // An array, walked as one: a foreach over the interface list allocated an enumerator for every event.
    private readonly ITraceAnalysis[] _analyses;

    public AnalysisLane(TraceSession session, IReadOnlyList<AnalysisEntry> entries)
    {
        Session = session;
        Entries = entries;
        _analyses = entries.Select(e => e.Create(session)).ToArray();
    }

    public TraceSession Session { get; }

    /// <summary>The lane's analyses' catalog entries, in the order of <see cref="Analyses"/>.</summary>
    public IReadOnlyList<AnalysisEntry> Entries { get; }

    public IReadOnlyList<ITraceAnalysis> Analyses => _analyses;

    /// <summary>Events the lane has seen.</summary>
    public long Count { get; private set; }

    /// <summary>The earliest and latest event time seen (long.MaxValue / long.MinValue before any).</summary>
    public long FirstNs { get; private set; } = long.MaxValue;

    public long LastNs { get; private set; } = long.MinValue;

    public void OnEvent(in EtwEvent e)
    {
        Count++;
        if (e.TimeNs < FirstNs) FirstNs = e.TimeNs;
        if (e.TimeNs > LastNs) LastNs = e.TimeNs;
        Session.Observe(e);
        foreach (var analysis in _analyses) analysis.OnEvent(e);
    }
}
