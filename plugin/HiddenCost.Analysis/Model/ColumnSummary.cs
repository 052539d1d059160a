namespace HiddenCost.Analysis.Model;

/// <summary>
/// How a column sums up rows that a viewer collapses into one (WPA's aggregation mode): amounts add, times take
/// their earliest or latest, and per-row figures that do not add — means, rates, shares, maxima, sizes — show the
/// largest, so a collapsed row points at its worst member rather than at a meaningless total.
/// </summary>
public enum ColumnSummary
{
    None,
    Sum,
    Min,
    Max,
}
