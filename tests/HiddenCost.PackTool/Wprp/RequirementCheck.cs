using HiddenCost.Analysis.Catalogs;
using HiddenCost.PackTool.Common;

namespace HiddenCost.PackTool.Wprp;

/// <summary>
/// Checks a resolved profile against the requirement catalogue: every kernel keyword, stack and event provider
/// (with keyword bits, level and capture-state) that the problem's events need must be on.
/// </summary>
public static class RequirementCheck
{
    public static IReadOnlyList<PackIssue> Check(EffectiveProfile profile, ProblemRequirements problem, string fileName)
    {
        var issues = new List<PackIssue>();
        void Add(string rule, EventRequirement r, string what) => issues.Add(new PackIssue(fileName, profile.Line, rule,
            $"profile '{profile.Id}' does not record {r.Name} ({r.Necessity.ToString().ToLowerInvariant()} by '{problem.TableName}'): {what}"));

        foreach (var r in problem.Events)
        {
            var rec = r.RecordedBy;
            foreach (var k in rec.SystemKeywords.Where(k => !profile.SystemKeywords.Contains(k)))
                Add("missing-keyword", r, $"SystemProvider keyword {k} is off");
            foreach (var s in rec.Stacks.Where(s => !profile.Stacks.Contains(s)))
                Add("missing-stack", r, $"SystemProvider stack {s} is off");
            if (rec.Provider is not { } want) continue;
            var have = profile.EventProviders.FirstOrDefault(p => Names(p.Name, want));
            if (have is null)
            {
                Add("missing-provider", r, $"no EventProvider for {want.Name} {{{want.Id}}}");
                continue;
            }
            if (have.Level < want.Level)
                Add("provider-level", r, $"{want.Name} has Level {have.Level}, needs at least {want.Level}");
            if (want.AtCaptureState)
            {
                if ((have.CaptureStateOnSaveKeywords & want.Keywords) != want.Keywords)
                    Add("provider-keywords", r, $"{want.Name} CaptureStateOnSave keywords 0x{have.CaptureStateOnSaveKeywords:X} lack 0x{want.Keywords & ~have.CaptureStateOnSaveKeywords:X}");
            }
            else if (have.CaptureStateOnly)
                Add("provider-keywords", r, $"{want.Name} is CaptureStateOnly, but these events are logged during the session");
            else if ((have.Keywords & want.Keywords) != want.Keywords)
                Add("provider-keywords", r, $"{want.Name} keywords 0x{have.Keywords:X} lack 0x{want.Keywords & ~have.Keywords:X}");
        }
        return issues;
    }

    /// <summary>True when a WPR provider Name (GUID with or without braces, or a provider name) denotes <paramref name="want"/>.</summary>
    private static bool Names(string name, WprEventProvider want) =>
        Guid.TryParse(name.Trim('{', '}', ' '), out var g) ? g == want.Id : string.Equals(name, want.Name, StringComparison.OrdinalIgnoreCase);
}
