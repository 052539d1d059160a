using HiddenCost.Etl.Header;
using HiddenCost.Etl.Reading;

namespace HiddenCost.Analysis.Pipeline;

/// <summary>What every analysis may use when it builds its tables: the trace's header, health and extent.</summary>
public sealed record AnalysisContext(
    string TracePath,
    long FileLength,
    TraceHeader Header,
    TraceHealth Health,
    long EventCount,
    long FirstEventNs,
    long LastEventNs);
