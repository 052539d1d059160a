namespace HiddenCost.Analysis.Tables.TraceReadiness;

/// <summary>One row of Trace Readiness: whether the trace holds what one problem table needs.</summary>
public sealed record TraceReadinessRow
{
    /// <summary>Table.</summary>
    public required string Table { get; init; }

    /// <summary>Ready.</summary>
    public required bool Ready { get; init; }

    /// <summary>Present.</summary>
    public required string Present { get; init; }

    /// <summary>Missing.</summary>
    public required string Missing { get; init; }

    /// <summary>CPU Samples.</summary>
    public required long CpuSamples { get; init; }

    /// <summary>Stacks.</summary>
    public required long Stacks { get; init; }

    /// <summary>Events Lost.</summary>
    public required long EventsLost { get; init; }

    /// <summary>Buffers Lost.</summary>
    public required long BuffersLost { get; init; }

    /// <summary>Profile.</summary>
    public required string Profile { get; init; }

    /// <summary>Record With.</summary>
    public required string RecordWith { get; init; }
}
