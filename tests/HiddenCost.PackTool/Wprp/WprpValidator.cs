using System.Globalization;
using System.Text.RegularExpressions;
using System.Xml.Linq;
using HiddenCost.PackTool.Common;

namespace HiddenCost.PackTool.Wprp;

/// <summary>
/// Structural rules for a .wprp file: unique, well-named Ids; every Base and every …Id reference resolves to a
/// definition of the right kind; keywords and stacks come from the documented WPR enumerations; operations,
/// levels and keyword masks are well-formed; every profile exists in a File and a Memory variant.
/// </summary>
public static partial class WprpValidator
{
    private static readonly string[] Operations = ["Set", "Add", "Remove"];

    /// <summary>Kinds of definitions and the Id prefix our naming rule gives each.</summary>
    private static readonly Dictionary<string, string> Prefixes = new()
    {
        ["SystemCollector"] = "SystemCollector_",
        ["EventCollector"] = "EventCollector_",
        ["HeapEventCollector"] = "HeapEventCollector_",
        ["SystemProvider"] = "SystemProvider_",
        ["EventProvider"] = "EventProvider_",
        ["HardwareCounter"] = "HardwareCounters_",
    };

    /// <summary>Which definition kind each reference element points at.</summary>
    private static readonly Dictionary<string, string> References = new()
    {
        ["SystemCollectorId"] = "SystemCollector",
        ["EventCollectorId"] = "EventCollector",
        ["HeapEventCollectorId"] = "HeapEventCollector",
        ["SystemProviderId"] = "SystemProvider",
        ["EventProviderId"] = "EventProvider",
        ["HardwareCounterId"] = "HardwareCounter",
    };

    public static IReadOnlyList<PackIssue> Validate(WprpDocument doc, IReadOnlySet<string> keywords, IReadOnlySet<string> stacks)
    {
        var issues = new List<PackIssue>();
        void Add(XObject at, string rule, string message) => issues.Add(new PackIssue(doc.FileName, at.Line(), rule, message));

        if (doc.Root.Name.LocalName != "WindowsPerformanceRecorder")
            Add(doc.Root, "root", $"root element is <{doc.Root.Name.LocalName}>, expected <WindowsPerformanceRecorder>");
        if (doc.Root.Attr("Version") is not { } version || !float.TryParse(version, NumberStyles.Float, CultureInfo.InvariantCulture, out _))
            Add(doc.Root, "version", "WindowsPerformanceRecorder needs a numeric Version attribute");
        if (!doc.Root.Children("Profiles").Any())
        {
            Add(doc.Root, "profiles", "no <Profiles> element");
            return issues;
        }

        CheckIds(doc, Add);
        CheckBases(doc, Add);
        CheckReferences(doc, Add);
        CheckSystemProviders(doc, keywords, stacks, Add);
        CheckEventProviders(doc, Add);
        CheckProfiles(doc, Add);
        foreach (var e in doc.Root.Descendants())
            if (e.Attr("Operation") is { } op && !Operations.Contains(op))
                Add(e, "operation", $"Operation=\"{op}\" on <{e.Name.LocalName}> is not Set, Add or Remove");
        return issues;
    }

    private static void CheckIds(WprpDocument doc, Action<XObject, string, string> add)
    {
        var seen = new Dictionary<string, int>(StringComparer.Ordinal);
        foreach (var d in doc.Definitions)
        {
            var kind = d.Name.LocalName;
            if (d.Attr("Id") is not { Length: > 0 } id)
            {
                add(d, "id-missing", $"<{kind}> has no Id");
                continue;
            }
            if (!IdSyntax().IsMatch(id))
                add(d, "id-syntax", $"Id '{id}' contains whitespace or ':' (WPRControlProfiles.xsd IdType)");
            if (seen.TryGetValue(id, out var first))
                add(d, "duplicate-id", $"Id '{id}' is already defined on line {first}");
            else
                seen.Add(id, d.Line());
            if (Prefixes.TryGetValue(kind, out var prefix) && !id.StartsWith(prefix, StringComparison.Ordinal))
                add(d, "id-naming", $"{kind} Id '{id}' should start with '{prefix}'");
        }
    }

    private static void CheckBases(WprpDocument doc, Action<XObject, string, string> add)
    {
        foreach (var d in doc.Definitions)
        {
            if (d.Attr("Base") is not { Length: > 0 } baseId) continue;
            var kind = d.Name.LocalName;
            if (doc.Find(kind, baseId) is null)
            {
                var other = doc.ById.TryGetValue(baseId, out var o) ? $" (it is a {o.Name.LocalName})" : "";
                add(d.Attribute("Base")!, "dangling-base", $"{kind} '{d.Attr("Id")}' has Base=\"{baseId}\" but no {kind} has that Id{other}");
                continue;
            }
            var chain = new List<string> { d.Attr("Id") ?? "" };
            for (var cur = doc.Find(kind, baseId); cur is not null; cur = cur.Attr("Base") is { Length: > 0 } b ? doc.Find(kind, b) : null)
            {
                var id = cur.Attr("Id") ?? "";
                if (chain.Contains(id))
                {
                    add(d.Attribute("Base")!, "base-cycle", $"Base chain loops: {string.Join(" -> ", chain)} -> {id}");
                    break;
                }
                chain.Add(id);
            }
        }
    }

    private static void CheckReferences(WprpDocument doc, Action<XObject, string, string> add)
    {
        foreach (var e in doc.Root.Descendants())
        {
            if (!References.TryGetValue(e.Name.LocalName, out var kind)) continue;
            var value = e.Attr("Value");
            if (string.IsNullOrEmpty(value))
                add(e, "dangling-reference", $"<{e.Name.LocalName}> has no Value");
            else if (doc.Find(kind, value) is null)
                add(e, "dangling-reference", $"<{e.Name.LocalName} Value=\"{value}\"> names no {kind}");
        }
    }

    private static void CheckSystemProviders(WprpDocument doc, IReadOnlySet<string> keywords, IReadOnlySet<string> stacks,
        Action<XObject, string, string> add)
    {
        foreach (var p in doc.Root.Descendants().Where(e => e.Name.LocalName == "SystemProvider"))
        {
            foreach (var k in p.Children("Keywords").SelectMany(ks => ks.Children("Keyword")))
                if (k.Attr("Value") is not { } v || !keywords.Contains(v))
                    add(k, "unknown-keyword", $"SystemProvider keyword '{k.Attr("Value")}' is not in the WPR keyword enumeration (wprp/schema/system-keywords.txt)");
            foreach (var s in p.Children("Stacks").SelectMany(ss => ss.Children("Stack")))
                if (s.Attr("Value") is not { } v || !stacks.Contains(v))
                    add(s, "unknown-stack", $"SystemProvider stack '{s.Attr("Value")}' is not in the WPR stack enumeration (wprp/schema/system-stacks.txt)");
        }
    }

    private static void CheckEventProviders(WprpDocument doc, Action<XObject, string, string> add)
    {
        foreach (var p in doc.Root.Descendants().Where(e => e.Name.LocalName == "EventProvider"))
        {
            // The WPR schema requires Name on every EventProvider, also one that derives from a Base.
            if (string.IsNullOrWhiteSpace(p.Attr("Name")))
                add(p, "provider-name", $"EventProvider '{p.Attr("Id")}' has no Name (provider name or GUID; the WPR schema requires it, also with Base)");
            if (p.Attr("Level") is { } level && !byte.TryParse(level, NumberStyles.None, CultureInfo.InvariantCulture, out _))
                add(p, "level", $"Level=\"{level}\" is not a number 0-255");
            foreach (var k in p.Descendants().Where(e => e.Name.LocalName == "Keyword"))
                if (!TryParseMask(k.Attr("Value"), out _))
                    add(k, "event-keyword", $"event provider keyword '{k.Attr("Value")}' is not a 0x-prefixed 64-bit hex mask");
        }
    }

    private static void CheckProfiles(WprpDocument doc, Action<XObject, string, string> add)
    {
        var modesByName = new Dictionary<string, HashSet<string>>(StringComparer.Ordinal);
        foreach (var p in doc.Profiles)
        {
            string? name = p.Attr("Name"), mode = p.Attr("LoggingMode"), detail = p.Attr("DetailLevel"), id = p.Attr("Id");
            if (mode is not ("File" or "Memory"))
                add(p, "logging-mode", $"Profile '{id}' LoggingMode=\"{mode}\" is not File or Memory");
            if (detail is not ("Light" or "Verbose"))
                add(p, "detail-level", $"Profile '{id}' DetailLevel=\"{detail}\" is not Light or Verbose");
            if (string.IsNullOrEmpty(name))
                add(p, "profile-name", $"Profile '{id}' has no Name");
            if (string.IsNullOrWhiteSpace(p.Attr("Description")))
                add(p, "profile-description", $"Profile '{id}' has no Description (the WPR schema requires one)");
            else if (id != $"{name}.{detail}.{mode}")
                add(p, "profile-id", $"Profile Id '{id}' must be Name.DetailLevel.LoggingMode = '{name}.{detail}.{mode}' (wpr resolves file.wprp!{name} by it)");
            if (name is not null && mode is not null)
            {
                if (!modesByName.TryGetValue(name, out var set)) modesByName[name] = set = new HashSet<string>();
                set.Add(mode);
            }
        }
        foreach (var (name, modes) in modesByName)
            foreach (var missing in new[] { "File", "Memory" }.Where(m => !modes.Contains(m)))
                add(doc.Profiles.First(p => p.Attr("Name") == name), "profile-pair",
                    $"profile '{name}' has no {missing} variant; every profile needs both (wpr picks one by -filemode)");
    }

    /// <summary>Parses a WPR event keyword mask: 0x followed by 1 to 16 hex digits.</summary>
    public static bool TryParseMask(string? value, out ulong mask)
    {
        mask = 0;
        return value is { Length: > 2 and <= 18 } && value.StartsWith("0x", StringComparison.OrdinalIgnoreCase)
            && ulong.TryParse(value.AsSpan(2), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out mask);
    }

    [GeneratedRegex(@"^[^:\s]+$")]
    private static partial Regex IdSyntax();
}
