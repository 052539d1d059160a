using System.Globalization;
using HiddenCost.Analysis.Catalogs;
using HiddenCost.Analysis.Tables.EventCounts;

namespace HiddenCost.Analysis.Pipeline;

/// <summary>How the events the decoders could not decode (<see cref="UndecodableEvents"/>) are said to the user.</summary>
public static class UndecodableReport
{
    /// <summary>Why a decoder gives up on an event of its kind.</summary>
    public const string Reason = "payload shorter than their layout";

    /// <summary>
    /// The note for a problem table whose requirements (the kinds Trace Readiness lists for it) include some of the kinds
    /// left out, named as Trace Readiness names them; null when it lost none or has no requirements. Kinds a table reads
    /// beyond its requirements are named in <see cref="Summary"/>, which every table carries.
    /// </summary>
    public static string? TableNote(string tableName, UndecodableEvents undecodable)
    {
        if (undecodable.Total == 0 || !RequirementCatalog.TryGetForTable(tableName, out var problem)) return null;
        var lost = new List<string>();
        foreach (var requirement in problem.Events.DistinctBy(r => r.Name))
            if (undecodable.Count(requirement.Events) is var n and > 0) lost.Add($"{requirement.Name} {N(n)}");
        return lost.Count == 0 ? null
            : $"Events of the kinds this table needs could not be decoded and are left out: {string.Join(", ", lost)}. Its figures may " +
              "be low, and where it says the trace lacks these events, they were recorded but damaged.";
    }

    /// <summary>One line on every kind left out, for the warning the host shows and every table carries; null when none was.</summary>
    /// <param name="afterDamageNote">
    /// The line follows the note that <paramref name="path"/> is damaged (which names the file): it says the events are
    /// of what could be read, instead of naming the file again.
    /// </param>
    public static string? Summary(string path, UndecodableEvents undecodable, bool afterDamageNote = false)
    {
        if (undecodable.Total == 0) return null;
        var kinds = undecodable.Kinds;
        var listed = kinds.Select(k => $"{KindName(k.Provider, k.Group, k.Id)} {N(k.Count)} (first in the buffer at offset 0x{k.FirstOffset:X})");
        var subject = afterDamageNote ? "Of what could be read, " : $"{path}: ";
        return $"{subject}{N(undecodable.Total)} events could not be decoded ({Reason}) and every table that reads them left them out: " +
               string.Join(", ", listed) + ". A table that says the trace lacks such events shows this damage, not the recording.";
    }

    private static string KindName(Guid provider, byte group, ushort id)
    {
        if (provider == Guid.Empty) return $"{Etl.KernelGroups.NameOf(group)} {EventNames.KernelEvent(group, (byte)id) ?? $"opcode {id}"}";
        var name = EventNames.Provider(provider) ?? provider.ToString();
        return EventNames.ClassicEvent(provider, (byte)id) is { } classic ? $"{name} {classic}"
            : EventNames.ManifestEvent(provider, id) is { } manifest ? $"{name} {manifest}" : $"{name} event {id}";
    }

    private static string N(long n) => n.ToString("N0", CultureInfo.InvariantCulture);
}
