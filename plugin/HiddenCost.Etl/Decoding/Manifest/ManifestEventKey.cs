using HiddenCost.Etl.Records;

namespace HiddenCost.Etl.Decoding.Manifest;

/// <summary>
/// Selects manifest (EVENT_HEADER) events by provider and id, for analyses that read a payload themselves
/// (<see cref="EtwEvent.Payload"/>) or hand it to a decoder. Ids overlap between providers, so both are compared.
/// </summary>
public readonly record struct ManifestEventKey(Guid ProviderId, ushort EventId)
{
    public bool Matches(in EtwEvent e) => e.Kind == RecordHeaderKind.EventHeader && e.EventId == EventId && e.ProviderId == ProviderId;

    public static ManifestEventKey Of(in EtwEvent e) => new(e.ProviderId, e.EventId);
}
