namespace HiddenCost.Analysis.Model;

/// <summary>How much a note matters to whoever reads the table; hosts map it to their own levels without reading the text.</summary>
public enum NoteSeverity
{
    /// <summary>What the trace lacks or how a figure was made: the table is right for what was recorded.</summary>
    Info,
    /// <summary>The table may be wrong or short: events were lost, damaged or could not be decoded.</summary>
    Warning,
    /// <summary>The trace could not be analysed at all: the table is empty because of it.</summary>
    Error,
}

/// <summary>
/// One note on a table, shown above it by the CLI and logged by WPA. <see cref="Code"/> names the kind of note
/// (stable, for scripts and hosts: e.g. <c>trace.damaged</c>, <c>syscall-hook.no-syscall-events</c>); <see cref="Text"/> says
/// it in plain words, figures included.
/// </summary>
public sealed record TableNote(NoteSeverity Severity, string Code, string Text)
{
    public static TableNote Info(string code, string text) => new(NoteSeverity.Info, code, text);

    public static TableNote Warning(string code, string text) => new(NoteSeverity.Warning, code, text);

    public static TableNote Error(string code, string text) => new(NoteSeverity.Error, code, text);

    public override string ToString() => Text;
}
