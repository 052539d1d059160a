namespace HiddenCost.Analysis.Catalogs;

/// <summary>Whether events are classic kernel events or events of a registered provider.</summary>
public enum EventOrigin
{
    /// <summary>NT kernel logger events, identified by group byte (HookId high byte) and opcode (type).</summary>
    Kernel,

    /// <summary>Manifest/EventSource provider events, identified by provider GUID and event id.</summary>
    Provider,
}

/// <summary>
/// A set of events as the reader sees them: kernel events by <see cref="Group"/> + opcodes, provider events by
/// <see cref="ProviderId"/> + event ids (the fields <c>EtwEvent.Group/Opcode</c> and <c>EtwEvent.ProviderId/EventId</c>).
/// </summary>
public sealed class EventSelector
{
    private EventSelector(EventOrigin origin, byte group, Guid providerId, string sourceName, int[] ids)
    {
        Origin = origin;
        Group = group;
        ProviderId = providerId;
        SourceName = sourceName;
        Ids = ids;
    }

    public EventOrigin Origin { get; }

    /// <summary>Kernel group byte (e.g. 0x05 Thread); 0 for provider events.</summary>
    public byte Group { get; }

    /// <summary>Provider GUID; <see cref="Guid.Empty"/> for kernel events.</summary>
    public Guid ProviderId { get; }

    /// <summary>Group name (<c>Thread</c>, <c>PerfInfo</c>) or provider name (<c>Microsoft-Windows-RPC</c>).</summary>
    public string SourceName { get; }

    /// <summary>Opcodes (kernel) or event ids (provider), ascending.</summary>
    public IReadOnlyList<int> Ids { get; }

    /// <summary>Kernel events of <paramref name="group"/> with any of <paramref name="opcodes"/>.</summary>
    public static EventSelector Kernel(byte group, string groupName, params byte[] opcodes) =>
        new(EventOrigin.Kernel, group, Guid.Empty, groupName, Sorted(opcodes.Select(o => (int)o)));

    /// <summary>Events of <paramref name="provider"/> with any of <paramref name="eventIds"/>.</summary>
    public static EventSelector Provider(Guid provider, string providerName, params ushort[] eventIds) =>
        new(EventOrigin.Provider, 0, provider, providerName, Sorted(eventIds.Select(i => (int)i)));

    /// <summary>True when a kernel event (group, opcode) is one of these.</summary>
    public bool Matches(byte group, byte opcode) =>
        Origin == EventOrigin.Kernel && group == Group && Contains(opcode);

    /// <summary>True when a provider event (provider, id) is one of these.</summary>
    public bool Matches(Guid provider, ushort eventId) =>
        Origin == EventOrigin.Provider && provider == ProviderId && Contains(eventId);

    public override string ToString() => Origin == EventOrigin.Kernel
        ? $"{SourceName} (0x{Group:X2}) opcode {string.Join("/", Ids)}"
        : $"{SourceName} {{{ProviderId}}} event {string.Join("/", Ids)}";

    private bool Contains(int id)
    {
        foreach (var i in Ids) if (i == id) return true;
        return false;
    }

    private static int[] Sorted(IEnumerable<int> ids)
    {
        var a = ids.Distinct().Order().ToArray();
        if (a.Length == 0) throw new ArgumentException("an event selector needs at least one id");
        return a;
    }
}
