namespace Microsoft.Performance.SDK.Processing
{
    public static class TableBuilderExtensions
    {
        public static ITableBuilderWithRowCount AddColumn<T>(this ITableBuilderWithRowCount self, ColumnConfiguration column, IProjection<int, T> projection)
        {
            return self.AddColumn(new ProjectedColumn<T>(column, projection));
        }
    }
}
