using HiddenCost.Analysis.Model;
using Microsoft.Performance.SDK.Processing;
using ModelColumnRole = HiddenCost.Analysis.Model.ColumnRole;
using SdkColumnRole = Microsoft.Performance.SDK.Processing.ColumnRole;

namespace HiddenCost.Wpa.Mapping;

/// <summary>
/// The preset a table opens with: the view's pivot columns left of the pivot (gold) bar, the other columns
/// in spec order, and the graphed figure right of the graph (blue) bar; time columns fill WPA's
/// StartTime/EndTime/Duration roles so rows land on the timeline. The tables' role columns are always filled; should
/// one have an empty cell in some trace, it fills no role: it is projected as a nullable type, which WPA's timeline
/// does not take for a row's start or end, so the rows graph by the roles whose columns are whole.
/// </summary>
internal static class DefaultTableConfiguration
{
    /// <param name="hasEmptyCells">Whether the column at an index has an empty cell in this trace's table.</param>
    public static TableConfiguration For(TableSpec spec, IReadOnlyList<ColumnConfiguration> columns, Func<int, bool>? hasEmptyCells = null)
    {
        var view = spec.DefaultView;
        var pivots = view.PivotColumns.Select(name => columns[spec.IndexOf(name)]).ToList();
        var graphName = view.GraphColumn ?? spec.Columns.FirstOrDefault(c => c.Role == ModelColumnRole.GraphValue)?.Name;
        var graph = graphName is null ? null : columns[spec.IndexOf(graphName)];
        var rest = columns.Where(c => !pivots.Contains(c) && c != graph);

        var layout = new List<ColumnConfiguration>(pivots) { TableConfiguration.PivotColumn };
        layout.AddRange(rest);
        layout.Add(TableConfiguration.GraphColumn);
        if (graph is not null) layout.Add(graph);

        var configuration = new TableConfiguration(pivots.Count > 0 ? "By " + string.Join(", ", view.PivotColumns) : spec.Name)
        {
            Columns = layout,
        };
        hasEmptyCells ??= _ => false;
        AddRole(configuration, spec, columns, ModelColumnRole.StartTime, SdkColumnRole.StartTime, hasEmptyCells);
        AddRole(configuration, spec, columns, ModelColumnRole.EndTime, SdkColumnRole.EndTime, hasEmptyCells);
        AddRole(configuration, spec, columns, ModelColumnRole.Duration, SdkColumnRole.Duration, hasEmptyCells);
        if (configuration.ColumnRoles.ContainsKey(SdkColumnRole.StartTime))
            configuration.ChartType = ChartType.StackedLine;
        return configuration;
    }

    private static void AddRole(
        TableConfiguration configuration, TableSpec spec, IReadOnlyList<ColumnConfiguration> columns, ModelColumnRole role, string sdkRole,
        Func<int, bool> hasEmptyCells)
    {
        for (int i = 0; i < spec.Columns.Count; i++)
        {
            if (spec.Columns[i].Role != role) continue;
            if (!hasEmptyCells(i)) configuration.AddColumnRole(sdkRole, columns[i]);
            return;
        }
    }
}
