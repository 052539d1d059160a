using HiddenCost.Analysis.Catalogs;
using HiddenCost.PackTool.Common;
using HiddenCost.PackTool.StackTags;
using HiddenCost.PackTool.WpaProfiles;
using HiddenCost.PackTool.Wprp;

namespace HiddenCost.PackTool;

/// <summary>Every check of the profile pack, file by file; the check command and the tests run the same code.</summary>
public static class PackChecks
{
    /// <summary>MultiProfile.wprp: structure, enumerations, and every problem profile against the requirement catalogue.</summary>
    public static List<PackIssue> Wprp(RepositoryLayout layout)
    {
        var name = layout.Display(layout.Wprp);
        var doc = WprpDocument.Load(layout.Wprp, name, out var parseIssue);
        if (doc is null) return [parseIssue!];
        var issues = WprpValidator.Validate(doc, WordList.Load(layout.SystemKeywords), WordList.Load(layout.SystemStacks)).ToList();
        if (issues.Count > 0) return issues;
        foreach (var problem in RequirementCatalog.Problems)
            foreach (var id in problem.ProfileIds)
            {
                if (doc.Find("Profile", id) is null)
                {
                    issues.Add(new PackIssue(name, 1, "missing-profile", $"no profile '{id}' for table '{problem.TableName}'"));
                    continue;
                }
                issues.AddRange(RequirementCheck.Check(WprpResolver.Resolve(doc, id), problem, name));
            }
        return issues;
    }

    /// <summary>HiddenCost.stacktags: rules, the generated driver section equal to the catalogue's.</summary>
    public static List<PackIssue> StackTags(RepositoryLayout layout, SecurityDriverCatalog catalog)
    {
        var name = layout.Display(layout.StackTags);
        var text = File.ReadAllText(layout.StackTags);
        var doc = SafeXml.TryParse(text, name, out var parseIssue);
        if (doc is null) return [parseIssue!];
        var issues = StackTagsValidator.Validate(doc, name).ToList();
        var section = DriverTagsGenerator.Extract(text);
        if (section is null)
            issues.Add(new PackIssue(name, 1, "generated-section", "the BEGIN/END GENERATED security driver section is missing"));
        else if (section != DriverTagsGenerator.Generate(catalog))
            issues.Add(new PackIssue(name, LineOf(text, DriverTagsGenerator.BeginMarker), "generated-section",
                "the security driver tags differ from the catalogue; run the pack tool's stacktags command"));
        return issues;
    }

    /// <summary>The table lists and every .wpaProfile: rules, and each file equal to a fresh generation.</summary>
    public static List<PackIssue> Presets(RepositoryLayout layout)
    {
        var issues = new List<PackIssue>();
        var ours = TableList.Load(layout.HiddenCostTables, layout.Display(layout.HiddenCostTables), false, issues);
        var wpa = TableList.Load(layout.WpaBuiltInTables, layout.Display(layout.WpaBuiltInTables), true, issues);
        if (issues.Count > 0) return issues;
        var expected = PresetDefinitions.Build(ours, wpa).ToDictionary(f => f.FileName);
        foreach (var path in Directory.GetFiles(layout.WpaProfiles, "*.wpaProfile").Order(StringComparer.Ordinal))
        {
            var name = layout.Display(path);
            var text = File.ReadAllText(path);
            var doc = SafeXml.TryParse(text, name, out var parseIssue);
            if (doc is null)
            {
                issues.Add(parseIssue!);
                continue;
            }
            issues.AddRange(WpaProfileValidator.Validate(doc, name, layout.WpaProfiles, ours, wpa));
            if (!expected.Remove(Path.GetFileName(path), out var definition))
                issues.Add(new PackIssue(name, 1, "unexpected-profile", "no preset definition writes this file"));
            else if (text != PresetWriter.Write(definition, PresetDefinitions.StackTagsReference))
                issues.Add(new PackIssue(name, 1, "generated-profile", "differs from its definition; run the pack tool's presets command"));
        }
        foreach (var missing in expected.Keys)
            issues.Add(new PackIssue(layout.Display(Path.Combine(layout.WpaProfiles, missing)), 1, "missing-profile", "preset file not generated yet; run the pack tool's presets command"));
        return issues;
    }

    private static int LineOf(string text, string marker)
    {
        var at = text.IndexOf(marker, StringComparison.Ordinal);
        return at < 0 ? 1 : text.AsSpan(0, at).Count('\n') + 1;
    }
}
