namespace HiddenCost.Analysis.Model;

/// <summary>
/// The default view of a table: the columns to group by (left of WPA's gold bar), the columns shown, and
/// the figure graphed. Names refer to <see cref="ColumnSpec.Name"/>.
/// </summary>
public sealed record TableView(
    IReadOnlyList<string> PivotColumns,
    string? GraphColumn = null,
    /// <summary>Columns to sort by, descending; empty keeps row order.</summary>
    IReadOnlyList<string>? SortDescending = null);
