using System.Buffers;
using System.Text;
using System.Xml;

namespace HiddenCost.Etl.Decoding.Manifest;

/// <summary>
/// An element of a manifest as the parser reads it: its local name, its attributes without a namespace, and its
/// child elements (text, comments and namespace declarations are not kept; a manifest says everything in attributes).
/// Children are linked, each to its next sibling, rather than held in lists, and attributes are kept in an array of
/// the size the element declared: a hostile manifest of millions of tiny elements costs 48 bytes each.
/// </summary>
internal sealed class ManifestElement
{
    // Slots for every attribute the element declared; namespace declarations leave theirs empty (a null name).
    private readonly (string? Name, string Value)[] _attributes;
    private ManifestElement? _firstChild, _nextSibling;

    public ManifestElement(string name, int attributeCapacity)
    {
        Name = name;
        _attributes = attributeCapacity == 0 ? Array.Empty<(string?, string)>() : new (string?, string)[attributeCapacity];
    }

    public string Name { get; }

    /// <summary>The child elements, in document order.</summary>
    public IEnumerable<ManifestElement> Elements
    {
        get
        {
            for (var child = _firstChild; child is not null; child = child._nextSibling) yield return child;
        }
    }

    /// <summary>The attribute's value, or null when the element has none of that name.</summary>
    public string? AttributeOrNull(string name)
    {
        foreach (var (n, value) in _attributes)
            if (n == name) return value;
        return null;
    }

    /// <summary>The attribute's value, or "" when the element has none of that name.</summary>
    public string Attribute(string name) => AttributeOrNull(name) ?? "";

    /// <summary>The child elements called <paramref name="name"/>, in document order.</summary>
    public IEnumerable<ManifestElement> Children(string name)
    {
        for (var child = _firstChild; child is not null; child = child._nextSibling)
            if (child.Name == name) yield return child;
    }

    /// <summary>The first child element called <paramref name="name"/>, or null.</summary>
    public ManifestElement? Child(string name)
    {
        for (var child = _firstChild; child is not null; child = child._nextSibling)
            if (child.Name == name) return child;
        return null;
    }

    /// <summary>The first element called <paramref name="name"/>, this one or below it, in document order.</summary>
    public ManifestElement? FirstDescendant(string name)
    {
        // Depth first without recursion: where a walk goes down, the sibling it would have gone on to waits here.
        var later = new Stack<ManifestElement>();
        var element = this;
        while (true)
        {
            if (element.Name == name) return element;
            var next = ReferenceEquals(element, this) ? null : element._nextSibling;
            if (element._firstChild is not null)
            {
                if (next is not null) later.Push(next);
                element = element._firstChild;
            }
            else if (next is not null) element = next;
            else if (!later.TryPop(out element!)) return null;
        }
    }

    internal void SetAttribute(int slot, string name, string value) => _attributes[slot] = (name, value);

    /// <summary>Adds <paramref name="child"/> after <paramref name="lastChild"/>, the child added before it (null for the first).</summary>
    internal void AddChild(ManifestElement? lastChild, ManifestElement child)
    {
        if (lastChild is null) _firstChild = child;
        else lastChild._nextSibling = child;
    }
}

/// <summary>
/// Reads a manifest's XML into <see cref="ManifestElement"/>s in one streaming pass, refusing XML nested deeper than a
/// bound as soon as it gets there. The XML comes from the trace: no DTD, entity or external reference is read.
/// </summary>
internal static class ManifestXml
{
    /// <returns>The document's root element, or null with a reason (not UTF-8, not well-formed, too deep, too many attributes).</returns>
    public static ManifestElement? Read(byte[] utf8, int maxDepth, int maxAttributes, int maxCharacters, out string? error)
    {
        error = null;
        // ManifestData's format 1 is UTF-8 XML, so the text is read as UTF-8 whatever its declaration says (XmlReader
        // given bytes would switch to a declared UTF-16, UTF-32 or ASCII). That keeps the byte scan below true: in UTF-8,
        // '<', '>', '=' and the quotes are the bytes they are in ASCII, and no other character's bytes are.
        if (WideUnicode(utf8))
        {
            error = "manifest is not UTF-8 XML: its first bytes are those of UTF-16 or UTF-32";
            return null;
        }
        // XmlReader reads an element's attributes in time that grows with the square of their number (one element of
        // a million attributes: 11 s); a manifest's elements have a handful.
        if (MostAttributesInATag(utf8) > maxAttributes)
        {
            error = $"manifest has an element with more than {maxAttributes} attributes";
            return null;
        }
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
        // Each open element with the last child added to it (children are linked, each to the next).
        var open = new Stack<(ManifestElement Element, ManifestElement? LastChild)>();
        try
        {
            using var text = Utf8Text(utf8);
            using var xml = XmlReader.Create(text, settings);
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
                var element = new ManifestElement(xml.LocalName, xml.AttributeCount);
                for (int slot = 0; slot < xml.AttributeCount; slot++)
                {
                    xml.MoveToAttribute(slot);
                    if (xml.NamespaceURI.Length == 0) element.SetAttribute(slot, xml.LocalName, xml.Value);
                }
                xml.MoveToElement();
                if (open.TryPop(out var parent))
                {
                    parent.Element.AddChild(parent.LastChild, element);
                    open.Push((parent.Element, element));
                }
                else root = element; // the reader allows one root element, and reports a document without one
                if (!xml.IsEmptyElement) open.Push((element, null));
            }
        }
        catch (XmlException ex)
        {
            error = $"manifest is not well-formed XML: {ex.Message}";
            return null;
        }
        if (root is null) error = "manifest is not well-formed XML: it holds no element"; // not seen: the reader throws first
        return root;
    }

    // What ends a run of a tag's bytes that matter: an attribute's '=', the tag's end, or a quoted value's start.
    private static readonly SearchValues<byte> TagDelimiters = SearchValues.Create("=>\"'"u8);

    /// <summary>
    /// At least the number of attributes of any one element: the '=' signs outside quoted values in each tag, since an
    /// attribute is a name, '=' and a quoted value. Text, comments, CDATA sections and processing instructions are
    /// passed over (a comment banner of '=' signs, or a message full of them in an attribute's value, is no attribute);
    /// where the XML is not well-formed the count can only come out higher, and XmlReader refuses that XML anyway.
    /// </summary>
    private static int MostAttributesInATag(ReadOnlySpan<byte> xml)
    {
        int most = 0;
        while (true)
        {
            int open = xml.IndexOf((byte)'<');
            if (open < 0) return most;
            xml = xml[(open + 1)..];
            // Each end is looked for after its opener: "<!-->" opens a comment, it does not close one.
            if (xml.StartsWith("!--"u8)) xml = After(xml[3..], "-->"u8);
            else if (xml.StartsWith("![CDATA["u8)) xml = After(xml[8..], "]]>"u8);
            else if (xml.StartsWith("?"u8)) xml = After(xml[1..], "?>"u8);
            else most = Math.Max(most, AttributesOfTag(ref xml));
        }
    }

    /// <summary>The bytes after the first <paramref name="end"/>, or none (XmlReader reports what is left unclosed).</summary>
    private static ReadOnlySpan<byte> After(ReadOnlySpan<byte> xml, ReadOnlySpan<byte> end)
    {
        int at = xml.IndexOf(end);
        return at < 0 ? default : xml[(at + end.Length)..];
    }

    /// <summary>The '=' signs outside quotes up to the tag's closing '&gt;' (a '&gt;' in a quoted value does not close it); moves past it.</summary>
    private static int AttributesOfTag(ref ReadOnlySpan<byte> xml)
    {
        int count = 0;
        while (true)
        {
            int at = xml.IndexOfAny(TagDelimiters);
            if (at < 0)
            {
                xml = default;
                return count;
            }
            byte found = xml[at];
            xml = xml[(at + 1)..];
            if (found == (byte)'>') return count;
            if (found == (byte)'=')
            {
                count++;
                continue;
            }
            int close = xml.IndexOf(found); // the quoted value's end
            xml = close < 0 ? default : xml[(close + 1)..];
        }
    }

    /// <summary>
    /// The bytes as UTF-8 text, a byte-order mark passed over; bytes that are not UTF-8 read as U+FFFD, which is no
    /// character of XML's markup, as no such byte is one to the byte scan.
    /// </summary>
    private static StreamReader Utf8Text(byte[] utf8)
    {
        int start = utf8.AsSpan().StartsWith("\uFEFF"u8) ? 3 : 0;
        return new StreamReader(new MemoryStream(utf8, start, utf8.Length - start, writable: false),
            new UTF8Encoding(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: false), detectEncodingFromByteOrderMarks: false);
    }

    /// <summary>Whether the bytes start as UTF-16 or UTF-32 XML does (a byte-order mark, or a zero among the first four).</summary>
    private static bool WideUnicode(ReadOnlySpan<byte> xml) =>
        xml.StartsWith(stackalloc byte[] { 0xFE, 0xFF }) || xml.StartsWith(stackalloc byte[] { 0xFF, 0xFE })
        || xml[..Math.Min(xml.Length, 4)].IndexOf((byte)0) >= 0;
}
