namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>What the host hands a processor to build one table: configurations first, then rows and columns.</summary>
    public interface ITableBuilder
    {
        ITableBuilder AddTableConfiguration(TableConfiguration configuration);

        ITableBuilder SetDefaultTableConfiguration(TableConfiguration configuration);

        ITableBuilderWithRowCount SetRowCount(int numberOfRows);
    }
}
