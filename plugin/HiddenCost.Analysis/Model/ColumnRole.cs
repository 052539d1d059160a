namespace HiddenCost.Analysis.Model;

/// <summary>
/// What a column means to a host: WPA maps StartTime/EndTime/Duration to its column roles so rows graph on
/// the timeline; the identity roles let the adapter give the column WPA's usual behaviour.
/// </summary>
public enum ColumnRole
{
    None,
    StartTime,
    EndTime,
    Duration,
    ProcessName,
    ProcessId,
    ThreadId,
    /// <summary>The figure the default graph plots.</summary>
    GraphValue,
}
