namespace HiddenCost.Analysis.Tables.EventCounts;

/// <summary>One row of Event Counts: one event kind of one provider.</summary>
public sealed record EventCountRow
{
    /// <summary>Provider.</summary>
    public required string Provider { get; init; }

    /// <summary>Provider Id.</summary>
    public required Guid ProviderId { get; init; }

    /// <summary>Event.</summary>
    public required string Event { get; init; }

    /// <summary>Id.</summary>
    public required long Id { get; init; }

    /// <summary>Opcode.</summary>
    public required long Opcode { get; init; }

    /// <summary>Version.</summary>
    public required long Version { get; init; }

    /// <summary>Header.</summary>
    public required string Header { get; init; }

    /// <summary>Count.</summary>
    public required long Count { get; init; }

    /// <summary>With Stack.</summary>
    public required long WithStack { get; init; }
}
