using System.Text;
using HiddenCost.Analysis.Catalogs;
using HiddenCost.Analysis.Tables.SyscallHook;

namespace HiddenCost.PackTool.StackTags;

/// <summary>
/// Writes the driver section of stacktags/HiddenCost.stacktags from the security-driver catalogue: one tag per
/// module (<c>Security and Filter Drivers\Category\Vendor\module (product)</c>) claiming <c>module!*</c>, except the
/// Microsoft inbox drivers of <see cref="InboxKernelModules"/>. The
/// section sits between two marker comments; everything outside them is written by hand.
/// </summary>
public static class DriverTagsGenerator
{
    public const string BeginMarker = "<!-- BEGIN GENERATED: security driver tags from plugin/HiddenCost.Analysis/Catalogs/SecurityDrivers.tsv (pack tool command: stacktags). Do not edit by hand. -->";
    public const string EndMarker = "<!-- END GENERATED: security driver tags -->";

    /// <summary>The tag every generated tag sits under.</summary>
    public const string RootTagName = "Security and Filter Drivers";

    /// <summary>
    /// Same as the syscall logging path: when both are in one stack the deeper frame (the driver called from the
    /// logging path) wins; higher than spin code, so a driver under Sleep(0) or SwitchToThread gets the sample.
    /// </summary>
    public const int Priority = 200;

    /// <summary>Categories listed first, security products before storage and backup filters.</summary>
    private static readonly string[] CategoryOrder =
        ["EDR", "anti-virus", "anti-exploit", "activity monitor", "application control", "device control", "firewall",
         "security enhancer", "content screener", "encryption", "anti-cheat"];

    /// <summary>
    /// The catalogue entries that get a tag: all but parts of Windows (the altitude list also allocates Microsoft's
    /// own inbox filters — wof, cldflt, luafv …), which the Syscall Hook table never names as culprits either.
    /// </summary>
    public static IEnumerable<SecurityDriverEntry> Tagged(SecurityDriverCatalog catalog) =>
        catalog.Entries.Where(e => !InboxKernelModules.Contains(e.Module));

    /// <summary>The generated section, markers included, indented for a place directly under the root tag.</summary>
    public static string Generate(SecurityDriverCatalog catalog)
    {
        var sb = new StringBuilder();
        sb.Append("  ").Append(BeginMarker).Append('\n');
        sb.Append($"  <Tag Name=\"{RootTagName}\" Priority=\"{Priority}\">\n");
        var byCategory = Tagged(catalog).GroupBy(e => e.Category)
            .OrderBy(g => Array.IndexOf(CategoryOrder, g.Key) is var i and >= 0 ? i : CategoryOrder.Length)
            .ThenBy(g => g.Key, StringComparer.OrdinalIgnoreCase);
        foreach (var category in byCategory)
        {
            sb.Append($"    <Tag Name=\"{Escape(category.Key)}\" Priority=\"{Priority}\">\n");
            foreach (var vendor in category.GroupBy(e => e.Vendor).OrderBy(g => g.Key, StringComparer.OrdinalIgnoreCase))
            {
                sb.Append($"      <Tag Name=\"{Escape(vendor.Key)}\" Priority=\"{Priority}\">\n");
                foreach (var e in vendor.OrderBy(e => e.Module, StringComparer.OrdinalIgnoreCase))
                {
                    var name = e.Product.Length > 0 ? $"{e.Module} ({e.Product})" : e.Module;
                    sb.Append($"        <Tag Name=\"{Escape(name)}\" Priority=\"{Priority}\"><Entrypoint Module=\"{Escape(e.Module)}\" Method=\"*\" /></Tag>\n");
                }
                sb.Append("      </Tag>\n");
            }
            sb.Append("    </Tag>\n");
        }
        sb.Append("  </Tag>\n");
        sb.Append("  ").Append(EndMarker).Append('\n');
        return sb.ToString();
    }

    /// <summary>The generated section of a file (markers and their lines included), or null when the markers are missing.</summary>
    public static string? Extract(string fileText)
    {
        var (start, end) = Bounds(fileText);
        return start < 0 ? null : fileText[start..end];
    }

    /// <summary>The file with its generated section replaced by <paramref name="section"/>.</summary>
    public static string Replace(string fileText, string section)
    {
        var (start, end) = Bounds(fileText);
        if (start < 0) throw new InvalidOperationException($"the stacktags file has no '{BeginMarker}' ... '{EndMarker}' section");
        return fileText[..start] + section + fileText[end..];
    }

    private static (int Start, int End) Bounds(string text)
    {
        var begin = text.IndexOf(BeginMarker, StringComparison.Ordinal);
        var end = text.IndexOf(EndMarker, StringComparison.Ordinal);
        if (begin < 0 || end < begin) return (-1, -1);
        var lineStart = text.LastIndexOf('\n', begin) + 1;
        var lineEnd = text.IndexOf('\n', end);
        return (lineStart, lineEnd < 0 ? text.Length : lineEnd + 1);
    }

    /// <summary>XML attribute escaping; a backslash would split a tag name into levels, so it becomes '/'.</summary>
    private static string Escape(string s) => s.Replace("&", "&amp;").Replace("<", "&lt;").Replace(">", "&gt;")
        .Replace("\"", "&quot;").Replace('\\', '/');
}
