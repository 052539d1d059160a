namespace HiddenCost.Analysis.Catalogs;

/// <summary>Whether a table cannot answer without the events, or only loses detail.</summary>
public enum Necessity
{
    /// <summary>The table's headline figures need these events; Trace Readiness reports them missing.</summary>
    Required,

    /// <summary>They add detail (stack columns, exact intervals); the table still works without them.</summary>
    Optional,
}

/// <summary>
/// One kind of event a problem table reads: which events (<see cref="Events"/>), how WPR records them
/// (<see cref="RecordedBy"/>) and why the table needs them (<see cref="Purpose"/>).
/// </summary>
/// <param name="Name">Short name Trace Readiness shows, e.g. <c>SysClEnter/SysClExit</c>.</param>
public sealed record EventRequirement(
    string Name,
    Necessity Necessity,
    EventSelector Events,
    WprRecording RecordedBy,
    string Purpose);
