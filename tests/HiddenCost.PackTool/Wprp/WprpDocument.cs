using System.Xml.Linq;
using HiddenCost.PackTool.Common;

namespace HiddenCost.PackTool.Wprp;

/// <summary>
/// A parsed .wprp file: the definitions under <c>Profiles</c> (collectors, providers, profiles) indexed by Id.
/// Element names are matched without namespace, as WPR does.
/// </summary>
public sealed class WprpDocument
{
    private WprpDocument(string fileName, XElement root, IReadOnlyList<XElement> definitions)
    {
        FileName = fileName;
        Root = root;
        Definitions = definitions;
        var byId = new Dictionary<string, XElement>(StringComparer.Ordinal);
        foreach (var d in definitions)
            if (d.Attribute("Id")?.Value is { } id) byId.TryAdd(id, d);
        ById = byId;
    }

    public string FileName { get; }
    public XElement Root { get; }

    /// <summary>Children of <c>Profiles</c>, in file order.</summary>
    public IReadOnlyList<XElement> Definitions { get; }

    /// <summary>Definitions by Id (first one wins when Ids repeat; the validator reports the repeat).</summary>
    public IReadOnlyDictionary<string, XElement> ById { get; }

    public IEnumerable<XElement> OfKind(string kind) => Definitions.Where(d => d.Name.LocalName == kind);

    public IEnumerable<XElement> Profiles => OfKind("Profile");

    /// <summary>The definition of <paramref name="kind"/> with <paramref name="id"/>, or null.</summary>
    public XElement? Find(string kind, string id) =>
        ById.TryGetValue(id, out var e) && e.Name.LocalName == kind ? e : null;

    /// <summary>Parses a .wprp text; null with the issue when it is not well-formed XML.</summary>
    public static WprpDocument? Parse(string text, string fileName, out PackIssue? issue)
    {
        var xml = SafeXml.TryParse(text, fileName, out issue);
        if (xml?.Root is not { } root) return null;
        var profiles = root.Elements().FirstOrDefault(e => e.Name.LocalName == "Profiles");
        var defs = profiles?.Elements().ToArray() ?? [];
        return new WprpDocument(fileName, root, defs);
    }

    public static WprpDocument? Load(string path, string displayName, out PackIssue? issue) =>
        Parse(File.ReadAllText(path), displayName, out issue);
}

/// <summary>Small helpers for the LocalName-based navigation .wprp files need.</summary>
internal static class WprpXml
{
    public static IEnumerable<XElement> Children(this XElement e, string name) =>
        e.Elements().Where(c => c.Name.LocalName == name);

    public static string? Attr(this XElement e, string name) => e.Attribute(name)?.Value;

    public static int Line(this XObject o) => SafeXml.LineOf(o);
}
