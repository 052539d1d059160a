using HiddenCost.Analysis.Model;
using Microsoft.Performance.SDK.Processing;
using ColumnRole = HiddenCost.Analysis.Model.ColumnRole;
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

    /// <summary>
    /// How collapsed rows summarise a column: times by their earliest or latest value, amounts by their sum,
    /// rates and ratios by their average. Identifiers and plain numbers (ids, opcodes) are not summed.
    /// </summary>
    public static AggregationMode Aggregation(ColumnSpec column) => column.Type switch
    {
        ColumnType.Timestamp => column.Role == ColumnRole.EndTime ? AggregationMode.Max : AggregationMode.Min,
        ColumnType.Duration => AggregationMode.Sum,
        ColumnType.Integer or ColumnType.Decimal => column.Role is ColumnRole.ProcessId or ColumnRole.ThreadId
            ? AggregationMode.None
            : column.Unit switch
            {
                ColumnUnit.Count or ColumnUnit.Bytes or ColumnUnit.Megabytes
                    or ColumnUnit.Nanoseconds or ColumnUnit.Microseconds or ColumnUnit.Milliseconds => AggregationMode.Sum,
                ColumnUnit.Percent or ColumnUnit.PerSecond or ColumnUnit.Ratio or ColumnUnit.Megahertz => AggregationMode.Average,
                _ => AggregationMode.None,
            },
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
