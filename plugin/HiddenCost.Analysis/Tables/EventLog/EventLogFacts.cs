using HiddenCost.Analysis.Common;

namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>What the trace held for this table, counted while it was read; the notes are written from it.</summary>
internal sealed record EventLogFacts(
    IReadOnlyList<ProcessRef> Services,
    long RpcCallEvents,
    long Even6Events,
    long ForeignServerCalls,
    long ContextSwitches,
    long RegistryEvents,
    long FileReads,
    long WmiEvents,
    long WmiHostCallsWithoutQuery,
    long ClientOnlyCalls,
    long ServerOnlyCalls,
    long UnfinishedCalls,
    long UnnamedReadBytes,
    long DroppedClientCalls,
    long DroppedServerCalls,
    long LateServerStops,
    long EarlyServiceCalls,
    long WmiAmbiguousCalls,
    long WmiAfterEndCalls,
    long LegacyEvenCalls,
    IReadOnlyList<ProcessRef> LegacyEvenClients,
    long RendersWithGuessedLog,
    long RendersWithCarriedLog);
