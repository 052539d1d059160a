using System.Xml;

namespace HiddenCost.Etl.Decoding.Manifest;

/// <summary>
/// An element of a manifest as the parser reads it: its local name, its attributes without a namespace, and its
/// child elements (text, comments and namespace declarations are not kept; a manifest says everything in attributes).
/// </summary>
internal sealed class ManifestElement
{
    private static readonly List<ManifestElement> NoChildren = new();
    private List<(string Name, string Value)>? _attributes;
    private List<ManifestElement>? _children;

    public ManifestElement(string name) => Name = name;

    public string Name { get; }

    public IReadOnlyList<ManifestElement> Elements => _children ?? NoChildren;

    /// <summary>The attribute's value, or null when the element has none of that name.</summary>
    public string? AttributeOrNull(string name)
    {
        if (_attributes is null) return null;
        foreach (var (n, v) in _attributes)
            if (n == name) return v;
        return null;
    }

    /// <summary>The attribute's value, or "" when the element has none of that name.</summary>
    public string Attribute(string name) => AttributeOrNull(name) ?? "";

    /// <summary>The child elements called <paramref name="name"/>, in document order.</summary>
    public IEnumerable<ManifestElement> Children(string name)
    {
        foreach (var child in Elements)
            if (child.Name == name) yield return child;
    }

    /// <summary>The first child element called <paramref name="name"/>, or null.</summary>
    public ManifestElement? Child(string name)
    {
        foreach (var child in Elements)
            if (child.Name == name) return child;
        return null;
    }

    /// <summary>The first element called <paramref name="name"/> at or below this one, in document order.</summary>
    public ManifestElement? FirstDescendant(string name)
    {
        // Iterative: the XML's depth is bounded when it is read, but the walk should not lean on that.
        var pending = new Stack<(ManifestElement Element, int Next)>();
        pending.Push((this, 0));
        while (pending.Count > 0)
        {
            var (element, next) = pending.Pop();
            if (next == 0 && element.Name == name) return element;
            if (next < element.Elements.Count)
            {
                pending.Push((element, next + 1));
                pending.Push((element.Elements[next], 0));
            }
        }
        return null;
    }

    internal void AddAttribute(string name, string value) => (_attributes ??= new List<(string, string)>(4)).Add((name, value));

    internal void AddChild(ManifestElement child) => (_children ??= new List<ManifestElement>()).Add(child);
}

/// <summary>
/// Reads a manifest's XML into <see cref="ManifestElement"/>s in one streaming pass, refusing XML nested deeper than a
/// bound as soon as it gets there. The XML comes from the trace: no DTD, entity or external reference is read.
/// </summary>
internal static class ManifestXml
{
    /// <returns>The document's root element, or null with a reason (not well-formed, too deep, no element).</returns>
    public static ManifestElement? Read(byte[] utf8, int maxDepth, int maxCharacters, out string? error)
    {
        error = null;
        var settings = new XmlReaderSettings
        {
            DtdProcessing = DtdProcessing.Prohibit,
            XmlResolver = null,
            MaxCharactersFromEntities = 0,
            MaxCharactersInDocument = maxCharacters,
            IgnoreComments = true,
            IgnoreProcessingInstructions = true,
            IgnoreWhitespace = true,
        };
        ManifestElement? root = null;
        var open = new Stack<ManifestElement>();
        try
        {
            using var xml = XmlReader.Create(new MemoryStream(utf8, writable: false), settings);
            while (xml.Read())
            {
                if (xml.Depth > maxDepth)
                {
                    error = $"manifest nests elements deeper than {maxDepth}";
                    return null;
                }
                if (xml.NodeType == XmlNodeType.EndElement)
                {
                    open.Pop();
                    continue;
                }
                if (xml.NodeType != XmlNodeType.Element) continue;
                var element = new ManifestElement(xml.LocalName);
                if (xml.MoveToFirstAttribute())
                {
                    do
                    {
                        if (xml.NamespaceURI.Length == 0) element.AddAttribute(xml.LocalName, xml.Value);
                    }
                    while (xml.MoveToNextAttribute());
                    xml.MoveToElement();
                }
                if (open.TryPeek(out var parent)) parent.AddChild(element);
                else root ??= element;
                if (!xml.IsEmptyElement) open.Push(element);
            }
        }
        catch (XmlException ex)
        {
            error = $"manifest is not well-formed XML: {ex.Message}";
            return null;
        }
        if (root is null) error = "manifest is not well-formed XML: it holds no element";
        return root;
    }
}
