namespace HiddenCost.Analysis.Catalogs;

/// <summary>
/// What one problem table needs from a trace and the MultiProfile.wprp profile that records it.
/// </summary>
public sealed class ProblemRequirements
{
    internal ProblemRequirements(string tableName, string profileName, string summary, IReadOnlyList<EventRequirement> events)
    {
        TableName = tableName;
        ProfileName = profileName;
        Summary = summary;
        Events = events;
    }

    /// <summary>The table's public name, e.g. <c>Syscall Hook Overhead</c>.</summary>
    public string TableName { get; }

    /// <summary>The profile's name in MultiProfile.wprp, e.g. <c>SysCall</c>.</summary>
    public string ProfileName { get; }

    /// <summary>One sentence on what the profile records and why.</summary>
    public string Summary { get; }

    /// <summary>Every event kind the table reads, required ones first.</summary>
    public IReadOnlyList<EventRequirement> Events { get; }

    /// <summary><c>MultiProfile.wprp!SysCall</c>: the profile reference for wpr.</summary>
    public string ProfileReference => $"{RequirementCatalog.ProfileFileName}!{ProfileName}";

    /// <summary><c>wpr -start MultiProfile.wprp!SysCall</c> (memory mode, WPR's default).</summary>
    public string WprStartCommand => $"wpr -start {ProfileReference}";

    /// <summary><c>wpr -start MultiProfile.wprp!SysCall -filemode</c>.</summary>
    public string WprStartCommandFileMode => WprStartCommand + " -filemode";

    /// <summary>The profile Ids WPR resolves the name to: <c>SysCall.Verbose.File</c> and <c>SysCall.Verbose.Memory</c>.</summary>
    public IReadOnlyList<string> ProfileIds => [$"{ProfileName}.Verbose.File", $"{ProfileName}.Verbose.Memory"];

    public IEnumerable<EventRequirement> Required => Events.Where(e => e.Necessity == Necessity.Required);

    public IEnumerable<EventRequirement> Optional => Events.Where(e => e.Necessity == Necessity.Optional);

    /// <summary>Every WPR stack value the table wants (required or optional), in first-mention order.</summary>
    public IReadOnlyList<string> WantedStacks => Events.SelectMany(e => e.RecordedBy.Stacks).Distinct().ToArray();
}
