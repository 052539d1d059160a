namespace HiddenCost.PackTool.Wprp;

/// <summary>Buffer count of a collector: absolute, or a percentage of RAM capped at <see cref="MaximumBufferSpaceMb"/>.</summary>
public sealed record BuffersSetting(int Value, bool PercentageOfTotalMemory, int? MaximumBufferSpaceMb);

/// <summary>A collector as a resolved profile uses it.</summary>
public sealed class CollectorSettings(string id, bool isSystem)
{
    public string Id { get; } = id;
    public bool IsSystem { get; } = isSystem;
    public int? BufferSizeKb { get; set; }
    public BuffersSetting? Buffers { get; set; }
    public List<string> SystemProviderIds { get; } = [];
    public List<string> EventProviderIds { get; } = [];

    public CollectorSettings Clone()
    {
        var c = new CollectorSettings(Id, IsSystem) { BufferSizeKb = BufferSizeKb, Buffers = Buffers };
        c.SystemProviderIds.AddRange(SystemProviderIds);
        c.EventProviderIds.AddRange(EventProviderIds);
        return c;
    }
}

/// <summary>An event provider after its Base chain is applied.</summary>
public sealed record EffectiveEventProvider(
    string Id, string Name, byte Level, ulong Keywords, ulong CaptureStateOnSaveKeywords, bool CaptureStateOnly);

/// <summary>
/// What a profile records once Base profiles, collector operations and provider inheritance are applied: the
/// kernel keywords and stacks, the event providers with their masks, and the buffer settings per collector.
/// </summary>
public sealed class EffectiveProfile
{
    public required string Id { get; init; }
    public required int Line { get; init; }
    public required string LoggingMode { get; init; }
    public required IReadOnlyDictionary<string, CollectorSettings> Collectors { get; init; }
    public required IReadOnlySet<string> SystemKeywords { get; init; }
    public required IReadOnlySet<string> Stacks { get; init; }
    public required IReadOnlyList<EffectiveEventProvider> EventProviders { get; init; }
}
