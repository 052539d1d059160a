using HiddenCost.Analysis.Model;
using Microsoft.Performance.SDK.Processing;
using SdkSortOrder = Microsoft.Performance.SDK.Processing.SortOrder;

namespace HiddenCost.Wpa.Mapping;

/// <summary>
/// One column spec as a WPA column: the spec's GUID (what presets refer to), its name exactly as given (units
/// are part of our names, e.g. <c>Hook CPU (ms)</c>), and display hints derived from type, unit and role.
/// </summary>
internal static class ColumnConfigurations
{
    public static ColumnConfiguration For(ColumnSpec column, TableView view)
    {
        var metadata = new ColumnMetadata(column.Id, column.Name, column.Description);
        var sortDescending = view.SortDescending ?? [];
        int sortRank = IndexOf(sortDescending, column.Name);
        var hints = new UIHints
        {
            IsVisible = true,
            Width = Width(column.Type),
            TextAlignment = IsNumeric(column.Type) ? TextAlignment.Right : TextAlignment.Left,
            AggregationMode = Aggregation(column),
            SortOrder = sortRank >= 0 ? SdkSortOrder.Descending : SdkSortOrder.None,
            SortPriority = sortRank >= 0 ? sortRank : 0,
        };
        return new ColumnConfiguration(metadata, hints);
    }

    /// <summary>The column's own summary (<see cref="ColumnSpec.Summary"/>) as WPA's aggregation mode.</summary>
    public static AggregationMode Aggregation(ColumnSpec column) => column.Summary switch
    {
        ColumnSummary.Sum => AggregationMode.Sum,
        ColumnSummary.Min => AggregationMode.Min,
        ColumnSummary.Max => AggregationMode.Max,
        _ => AggregationMode.None,
    };

    private static bool IsNumeric(ColumnType type) =>
        type is ColumnType.Integer or ColumnType.Decimal or ColumnType.Timestamp or ColumnType.Duration;

    private static int Width(ColumnType type) => type switch
    {
        ColumnType.Text => 200,
        ColumnType.Guid => 260,
        ColumnType.Boolean => 60,
        _ => 110,
    };

    private static int IndexOf(IReadOnlyList<string> names, string name)
    {
        for (int i = 0; i < names.Count; i++)
            if (names[i] == name) return i;
        return -1;
    }
}
