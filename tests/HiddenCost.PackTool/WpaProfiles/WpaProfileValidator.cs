using System.Xml.Linq;
using HiddenCost.Analysis.Model;
using HiddenCost.PackTool.Common;

namespace HiddenCost.PackTool.WpaProfiles;

/// <summary>
/// Rules for a .wpaProfile of the pack: WPA's current container format; every Graph Guid is one of our tables
/// (hiddencost-tables.txt) or a documented WPA table (wpa-builtin-tables.txt); for our tables every column
/// GUID is the plugin's stable id of its name and the name is a column of the table; metadata entries point at
/// columns of the preset; referenced files (the stack tags) exist.
/// </summary>
public static class WpaProfileValidator
{
    public static IReadOnlyList<PackIssue> Validate(XDocument doc, string fileName, string profileDirectory, TableList ours, TableList wpa)
    {
        var issues = new List<PackIssue>();
        void Add(XObject at, string rule, string message) => issues.Add(new PackIssue(fileName, SafeXml.LineOf(at), rule, message));
        var ns = PresetWriter.Ns;
        var root = doc.Root!;
        if (root.Name != ns + "WpaProfileContainer" || root.Attribute("Version")?.Value != "2")
        {
            Add(root, "profile-format", "expected <WpaProfileContainer Version=\"2\" xmlns=\"http://tempuri.org/SerializableElement.xsd\">");
            return issues;
        }
        if (root.Element(ns + "Content") is not { } content || content.Attribute(XName.Get("type", "http://www.w3.org/2001/XMLSchema-instance"))?.Value != "WpaProfile2")
        {
            Add(root, "profile-format", "expected <Content xsi:type=\"WpaProfile2\">");
            return issues;
        }

        foreach (var fr in content.Descendants(ns + "FileReference"))
        {
            var name = fr.Attribute("FileName")?.Value ?? "";
            var path = Path.Combine(profileDirectory, name.Replace('\\', Path.DirectorySeparatorChar));
            if (!File.Exists(path))
                Add(fr, "missing-file", $"FileReference '{name}' does not exist relative to the profile");
            if (name.EndsWith(".stacktags", StringComparison.OrdinalIgnoreCase) && fr.Attribute("ServiceMoniker")?.Value != PresetWriter.StackTagMoniker)
                Add(fr, "stacktag-moniker", $"a stack tag file needs ServiceMoniker=\"{PresetWriter.StackTagMoniker}\"");
        }

        foreach (var graph in content.Descendants(ns + "Graph"))
        {
            if (!Guid.TryParse(graph.Attribute("Guid")?.Value, out var tableId))
            {
                Add(graph, "table-guid", $"Graph Guid '{graph.Attribute("Guid")?.Value}' is not a GUID");
                continue;
            }
            var mine = ours.ById(tableId);
            if (mine is null && wpa.ById(tableId) is null)
            {
                Add(graph, "unknown-table", $"Graph Guid {tableId} is neither a HiddenCost table (hiddencost-tables.txt) nor a documented WPA table (wpa-builtin-tables.txt)");
                continue;
            }
            foreach (var preset in graph.Elements(ns + "Preset"))
                CheckPreset(preset, mine, Add);
        }
        return issues;
    }

    private static void CheckPreset(XElement preset, TableEntry? mine, Action<XObject, string, string> add)
    {
        var ns = PresetWriter.Ns;
        var columns = preset.Element(ns + "Columns")?.Elements(ns + "Column").ToArray() ?? [];
        if (columns.Length == 0) add(preset, "preset-columns", $"preset '{preset.Attribute("Name")?.Value}' lists no columns");
        if (int.TryParse(preset.Attribute("KeyColumnCount")?.Value, out var keys) && keys > columns.Length)
            add(preset, "preset-columns", $"KeyColumnCount {keys} exceeds the {columns.Length} columns");
        var ids = columns.Select(c => c.Attribute("Guid")?.Value).ToHashSet(StringComparer.OrdinalIgnoreCase);
        foreach (var m in preset.Descendants(ns + "MetadataEntry"))
            if (!ids.Contains(m.Attribute("Guid")?.Value))
                add(m, "metadata-column", $"MetadataEntry '{m.Attribute("Name")?.Value}' names a column the preset does not list");
        if (mine is null) return;

        var shape = PresetDefinitions.ShapeOf(mine.Name);
        foreach (var c in columns)
        {
            var name = c.Attribute("Name")?.Value ?? "";
            if (shape.Columns.All(s => s.Name != name))
                add(c, "unknown-column", $"'{name}' is not a column of '{mine.Name}'");
            else if (!Guid.TryParse(c.Attribute("Guid")?.Value, out var g) || g != StableIds.Column(mine.Id, name))
                add(c, "column-guid", $"column '{name}' of '{mine.Name}' must have Guid {StableIds.Column(mine.Id, name)} (table GUID + column name)");
        }
    }
}
