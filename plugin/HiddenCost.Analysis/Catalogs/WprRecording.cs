namespace HiddenCost.Analysis.Catalogs;

/// <summary>
/// A WPR event provider setting: the provider (by GUID, as MultiProfile.wprp names it), the keyword bits the
/// events need (0 when the provider defines none) and the minimum level.
/// </summary>
/// <param name="AtCaptureState">The events come from a capture-state (rundown) request when the trace is saved,
/// so the provider is enabled with <c>CaptureStateOnSave</c> keywords rather than session keywords.</param>
public sealed record WprEventProvider(Guid Id, string Name, ulong Keywords, byte Level, bool AtCaptureState = false);

/// <summary>
/// How a WPR profile records a set of events: the SystemProvider keywords (all needed), the SystemProvider
/// stack values that put stacks on them, or an event provider. Values are spelled as in WPRControlProfiles.xsd.
/// </summary>
public sealed class WprRecording
{
    private WprRecording(string[] keywords, string[] stacks, WprEventProvider? provider)
    {
        SystemKeywords = keywords;
        Stacks = stacks;
        Provider = provider;
    }

    /// <summary>SystemProvider <c>Keyword</c> values that must all be on (e.g. <c>SystemCall</c>).</summary>
    public IReadOnlyList<string> SystemKeywords { get; }

    /// <summary>SystemProvider <c>Stack</c> values the table wants for these events (e.g. <c>SystemCallEnter</c>).</summary>
    public IReadOnlyList<string> Stacks { get; }

    /// <summary>The event provider that logs the events, for non-kernel events.</summary>
    public WprEventProvider? Provider { get; }

    /// <summary>Kernel events turned on by <paramref name="keywords"/>, optionally with stacks.</summary>
    public static WprRecording Kernel(string[] keywords, params string[] stacks) => new(keywords, stacks, null);

    /// <summary>StackWalk events: on whenever a SystemProvider asks for one of <paramref name="stacks"/>.</summary>
    public static WprRecording StacksOf(params string[] stacks) => new([], stacks, null);

    /// <summary>Provider events.</summary>
    public static WprRecording EventProvider(WprEventProvider provider) => new([], [], provider);

    public override string ToString()
    {
        var parts = new List<string>();
        if (SystemKeywords.Count > 0) parts.Add("keywords " + string.Join("+", SystemKeywords));
        if (Stacks.Count > 0) parts.Add("stacks " + string.Join("+", Stacks));
        if (Provider is { } p)
            parts.Add($"provider {p.Name} keywords 0x{p.Keywords:X} level {p.Level}" + (p.AtCaptureState ? " (capture state on save)" : ""));
        return string.Join(", ", parts);
    }
}
