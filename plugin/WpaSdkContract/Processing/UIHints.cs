namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>How the host first shows a column.</summary>
    public sealed class UIHints
    {
        public UIHints()
        {
        }

        public int Width { get; set; }

        public bool IsVisible { get; set; }

        public TextAlignment TextAlignment { get; set; }

        public string CellFormat { get; set; }

        public SortOrder SortOrder { get; set; }

        public int SortPriority { get; set; }

        public AggregationMode AggregationMode { get; set; }

        public static UIHints Default() => new UIHints { Width = 80, IsVisible = true };
    }
}
