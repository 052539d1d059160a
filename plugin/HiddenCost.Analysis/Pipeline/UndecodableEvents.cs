using HiddenCost.Analysis.Catalogs;
using HiddenCost.Etl;
using HiddenCost.Etl.Decoding;

namespace HiddenCost.Analysis.Pipeline;

/// <summary>
/// Events of a kind the tables read that the typed decoders could not decode (<see cref="TypedDecoders.Rejects"/>),
/// by kind, with where the first of each was. Every table that reads the kind left them out; without this count a
/// table emptied by them would read like a recording that lacked the events, and Trace Readiness would call it ready.
/// </summary>
public sealed class UndecodableEvents
{
    private readonly Dictionary<Kind, (long Count, long FirstOffset)> _kinds = new();

    /// <summary>Events left out, all kinds.</summary>
    public long Total { get; private set; }

    /// <summary>Counts the event when its decoder rejects it.</summary>
    public void Observe(in EtwEvent e, StringPool strings)
    {
        if (!TypedDecoders.Rejects(e, strings)) return;
        var kind = e.IsKernel ? new Kind(Guid.Empty, e.Group, e.Opcode)
            : new Kind(e.ProviderId, 0, e.Kind == Etl.Records.RecordHeaderKind.EventHeader ? e.EventId : e.Opcode);
        _kinds[kind] = _kinds.TryGetValue(kind, out var seen) ? (seen.Count + 1, seen.FirstOffset) : (1, e.FileOffset);
        Total++;
    }

    /// <summary>How many of the events <paramref name="selector"/> names were left out.</summary>
    public long Count(EventSelector selector)
    {
        long n = 0;
        foreach (int id in selector.Ids) n += Count(selector, id);
        return n;
    }

    /// <summary>How many events of one of <paramref name="selector"/>'s kinds (opcode or event id <paramref name="id"/>) were left out.</summary>
    public long Count(EventSelector selector, int id) => _kinds.GetValueOrDefault(selector.Origin == EventOrigin.Kernel
        ? new Kind(Guid.Empty, selector.Group, (byte)id)
        : new Kind(selector.ProviderId, 0, (ushort)id)).Count;

    /// <summary>How many kernel events of <paramref name="group"/> and <paramref name="opcode"/> were left out.</summary>
    public long Kernel(byte group, byte opcode) => _kinds.GetValueOrDefault(new Kind(Guid.Empty, group, opcode)).Count;

    /// <summary>
    /// Each kind with events left out, most first: kernel kinds by group byte and opcode (provider <see cref="Guid.Empty"/>),
    /// others by provider and event id (classic events: opcode), with the buffer offset of the first.
    /// </summary>
    public IReadOnlyList<(Guid Provider, byte Group, ushort Id, long Count, long FirstOffset)> Kinds =>
        _kinds.OrderByDescending(k => k.Value.Count).ThenBy(k => k.Value.FirstOffset)
            .Select(k => (k.Key.Provider, k.Key.Group, k.Key.Id, k.Value.Count, k.Value.FirstOffset)).ToArray();

    private readonly record struct Kind(Guid Provider, byte Group, ushort Id);
}
