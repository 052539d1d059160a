namespace HiddenCost.Analysis.Tables.EventLog;

/// <summary>One row of Event Log Render Cost: one client process (on behalf of whom) reading one log.</summary>
public sealed record RenderCostRow
{
    /// <summary>Process.</summary>
    public required string Process { get; init; }

    /// <summary>PID.</summary>
    public required long? Pid { get; init; }

    /// <summary>On Behalf Of.</summary>
    public required string? OnBehalfOf { get; init; }

    /// <summary>On Behalf Of PID.</summary>
    public required long? OnBehalfOfPid { get; init; }

    /// <summary>Log.</summary>
    public required string Log { get; init; }

    /// <summary>Renders.</summary>
    public required long Renders { get; init; }

    /// <summary>Queries.</summary>
    public required long Queries { get; init; }

    /// <summary>Service CPU (ms).</summary>
    public required double? ServiceCpuMs { get; init; }

    /// <summary>CPU per Message (ms).</summary>
    public required double? CpuPerMessageMs { get; init; }

    /// <summary>Registry Ops.</summary>
    public required long? RegistryOps { get; init; }

    /// <summary>Registry Ops per Message.</summary>
    public required double? RegistryOpsPerMessage { get; init; }

    /// <summary>Evtx Read (MB).</summary>
    public required double? EvtxReadMb { get; init; }

    /// <summary>Messages per Second.</summary>
    public required double? MessagesPerSecond { get; init; }

    /// <summary>WMI Query.</summary>
    public required string? WmiQuery { get; init; }

    /// <summary>First (ns since trace start).</summary>
    public required long First { get; init; }

    /// <summary>Last (ns since trace start).</summary>
    public required long Last { get; init; }
}
