namespace HiddenCost.Analysis.Tables.EventCounts;

/// <summary>
/// One row of Event Counts: one event kind of one provider. Its members are the columns of <see
/// cref="EventCountsAnalysis"/>, in order; rows are built with named arguments, so no two figures can swap places
/// unseen.
/// </summary>
public sealed record EventCountRow(
    string Provider, Guid ProviderId, string Event, long Id, long Opcode, long Version, string Header, long Count, long WithStack);
