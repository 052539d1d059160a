using System.Globalization;
using System.Text.RegularExpressions;
using System.Xml.Linq;
using HiddenCost.PackTool.Common;

namespace HiddenCost.PackTool.StackTags;

/// <summary>One Entrypoint of a .stacktags file with the tag path that owns it.</summary>
public sealed record StackTagEntrypoint(string TagPath, string Module, string Method, int Priority, int Line);

/// <summary>
/// Rules for a WPA .stacktags file: root <c>&lt;Tag Name=""&gt;</c>; only Tag, HintTag and Entrypoint elements;
/// every tag named and not empty; integer priorities; every Entrypoint a well-formed module (file name, <c>*</c>
/// and <c>?</c> wildcards allowed) and method inside a tag; no module!method claimed by two tags.
/// </summary>
public static partial class StackTagsValidator
{
    public static IReadOnlyList<PackIssue> Validate(XDocument doc, string fileName)
    {
        var issues = new List<PackIssue>();
        void Add(XObject at, string rule, string message) => issues.Add(new PackIssue(fileName, SafeXml.LineOf(at), rule, message));
        var root = doc.Root!;
        if (root.Name.LocalName != "Tag")
        {
            Add(root, "root", $"root element is <{root.Name.LocalName}>, expected <Tag Name=\"\">");
            return issues;
        }

        var claimed = new Dictionary<string, (int Line, string Tag)>(StringComparer.OrdinalIgnoreCase);
        foreach (var e in root.Descendants())
        {
            switch (e.Name.LocalName)
            {
                case "Tag" or "HintTag":
                    CheckTag(e, Add);
                    break;
                case "Entrypoint":
                    if (e.Parent == root)
                        Add(e, "entrypoint-placement", "an Entrypoint directly under the root tag belongs to no tag");
                    var module = e.Attribute("Module")?.Value;
                    var method = e.Attribute("Method")?.Value;
                    if (module is null || !ModulePattern().IsMatch(module))
                        Add(e, "entrypoint", $"Module=\"{module}\" is not a module file name (letters, digits, _ . - and * ? wildcards)");
                    else if (method is null || method.Length == 0 || method.Trim() != method)
                        Add(e, "entrypoint", $"Entrypoint {module} has no Method (use Method=\"*\" for the whole module) or one with surrounding spaces");
                    else
                    {
                        var key = module + "!" + method;
                        var tag = PathOf(e.Parent!);
                        if (claimed.TryGetValue(key, out var first))
                            Add(e, "duplicate-entrypoint", $"{key} is claimed by '{tag}' and by '{first.Tag}' (line {first.Line}); WPA would pick one silently");
                        else
                            claimed.Add(key, (SafeXml.LineOf(e), tag));
                    }
                    break;
                default:
                    Add(e, "unknown-element", $"<{e.Name.LocalName}> is not a stack tag element (Tag, HintTag, Entrypoint)");
                    break;
            }
        }
        return issues;
    }

    private static void CheckTag(XElement tag, Action<XObject, string, string> add)
    {
        var name = tag.Attribute("Name")?.Value;
        if (string.IsNullOrWhiteSpace(name))
            add(tag, "tag-name", "a tag below the root needs a Name");
        if (tag.Attribute("Priority")?.Value is { } p && !int.TryParse(p, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out _))
            add(tag, "priority", $"Priority=\"{p}\" is not an integer");
        if (!tag.Elements().Any())
            add(tag, "empty-tag", $"tag '{name}' has no Entrypoint and no child tag");
        var siblings = tag.Parent?.Elements().Where(s => s != tag && s.Name == tag.Name && s.Attribute("Name")?.Value == name);
        if (siblings?.Any(s => SafeXml.LineOf(s) < SafeXml.LineOf(tag)) == true)
            add(tag, "duplicate-tag", $"tag '{name}' appears twice under the same parent");
    }

    /// <summary>Every Entrypoint with its tag path and effective priority (own or nearest ancestor's, else 0).</summary>
    public static IReadOnlyList<StackTagEntrypoint> Entrypoints(XDocument doc) =>
        doc.Root!.Descendants().Where(e => e.Name.LocalName == "Entrypoint").Select(e => new StackTagEntrypoint(
            PathOf(e.Parent!), e.Attribute("Module")?.Value ?? "", e.Attribute("Method")?.Value ?? "",
            PriorityOf(e.Parent!), SafeXml.LineOf(e))).ToArray();

    /// <summary>The tag path WPA shows, e.g. <c>Spin Wait\Yield (SwitchToThread)</c>.</summary>
    public static string PathOf(XElement tag) => string.Join("\\", tag.AncestorsAndSelf()
        .Select(t => t.Attribute("Name")?.Value ?? "").Where(n => n.Length > 0).Reverse());

    private static int PriorityOf(XElement tag)
    {
        foreach (var t in tag.AncestorsAndSelf())
            if (int.TryParse(t.Attribute("Priority")?.Value, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var p)) return p;
        return 0;
    }

    [GeneratedRegex(@"^[A-Za-z0-9_.\-*?]+$")]
    private static partial Regex ModulePattern();
}
