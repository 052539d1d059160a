using System.Xml;
using System.Xml.Linq;

namespace HiddenCost.PackTool.Common;

/// <summary>
/// Reads XML with DTD processing prohibited and no resolver: a profile-pack file can neither expand entities
/// nor make the reader fetch anything. Line numbers are kept for messages.
/// </summary>
public static class SafeXml
{
    private static XmlReaderSettings Settings() => new()
    {
        DtdProcessing = DtdProcessing.Prohibit,
        XmlResolver = null,
        IgnoreComments = false,
        MaxCharactersInDocument = 64L * 1024 * 1024,
    };

    /// <summary>Parses <paramref name="text"/>; on failure returns null and the issue naming the line.</summary>
    public static XDocument? TryParse(string text, string fileName, out PackIssue? issue)
    {
        try
        {
            using var reader = XmlReader.Create(new StringReader(text), Settings());
            issue = null;
            return XDocument.Load(reader, LoadOptions.SetLineInfo | LoadOptions.PreserveWhitespace);
        }
        catch (XmlException e)
        {
            var dtd = e.Message.Contains("DTD", StringComparison.OrdinalIgnoreCase);
            // The reader gives no position when it refuses a DTD: point at the DOCTYPE ourselves.
            var line = e.LineNumber > 0 ? e.LineNumber : dtd ? LineOfText(text, "<!DOCTYPE") : 1;
            issue = new PackIssue(fileName, line, dtd ? "dtd-prohibited" : "xml-well-formed", e.Message);
            return null;
        }
    }

    /// <summary>Reads and parses a file; the issue names the file as given.</summary>
    public static XDocument? TryLoad(string path, string displayName, out PackIssue? issue) =>
        TryParse(File.ReadAllText(path), displayName, out issue);

    private static int LineOfText(string text, string marker)
    {
        var at = text.IndexOf(marker, StringComparison.Ordinal);
        return at < 0 ? 1 : text.AsSpan(0, at).Count('\n') + 1;
    }

    /// <summary>The 1-based line of a node, 0 when unknown.</summary>
    public static int LineOf(XObject node) => node is IXmlLineInfo li && li.HasLineInfo() ? li.LineNumber : 0;
}
