using HiddenCost.Analysis.Model;
using Microsoft.Performance.SDK.Processing;

namespace HiddenCost.Wpa.Mapping;

/// <summary>The one generic mapping: any table of our model, built through WPA's table builder.</summary>
internal static class TableBuilding
{
    /// <param name="problems">What went wrong or what the trace lacks; shown as the preset's description.</param>
    public static void Build(Table table, ITableBuilder builder, IReadOnlyList<TableNote> problems)
    {
        var spec = table.Spec;
        var columns = spec.Columns.Select(c => ColumnConfigurations.For(c, spec.DefaultView)).ToList();
        var configuration = DefaultTableConfiguration.For(spec, columns, i => table.Columns[i].HasEmptyCells);
        if (problems.Count > 0)
            configuration.Description = string.Join(Environment.NewLine, problems.Select(p => p.Text));

        var rows = builder.AddTableConfiguration(configuration)
            .SetDefaultTableConfiguration(configuration)
            .SetRowCount(table.RowCount);
        for (int i = 0; i < columns.Count; i++)
            ColumnProjections.Add(rows, columns[i], table.Columns[i], table.RowCount);
    }
}
