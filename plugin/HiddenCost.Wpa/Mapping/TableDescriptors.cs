using HiddenCost.Analysis.Model;
using Microsoft.Performance.SDK.Processing;
using ColumnRole = HiddenCost.Analysis.Model.ColumnRole;

namespace HiddenCost.Wpa.Mapping;

/// <summary>Our table spec as WPA's table list shows it: same GUID, name, description and category.</summary>
internal static class TableDescriptors
{
    public static TableDescriptor For(TableSpec spec) => new(
        spec.Id,
        spec.Name,
        string.IsNullOrWhiteSpace(spec.Description) ? spec.Name : spec.Description,
        string.IsNullOrWhiteSpace(spec.Category) ? TableDescriptor.DefaultCategory : spec.Category,
        isMetadataTable: false,
        defaultLayout: Graphs(spec) ? TableLayoutStyle.GraphAndTable : TableLayoutStyle.Table);

    /// <summary>
    /// A table graphs when it has a figure to plot and a start time to plot it along; one without either opens as its
    /// table alone, not under an empty graph (WPA's graphs are over time).
    /// </summary>
    public static bool Graphs(TableSpec spec) =>
        (spec.DefaultView.GraphColumn is not null || spec.Columns.Any(c => c.Role == ColumnRole.GraphValue))
        && spec.Columns.Any(c => c.Role == ColumnRole.StartTime);
}
