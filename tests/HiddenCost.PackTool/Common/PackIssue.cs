namespace HiddenCost.PackTool.Common;

/// <summary>
/// One rule a profile-pack file breaks, located by file and line: printed as <c>file(line): rule: message</c>,
/// the form editors and CI logs turn into links.
/// </summary>
public sealed record PackIssue(string File, int Line, string Rule, string Message)
{
    public override string ToString() => $"{File}({Line}): {Rule}: {Message}";
}
