namespace Microsoft.Performance.SDK.Processing
{
    public interface ITableBuilderWithRowCount
    {
        ITableBuilderWithRowCount AddColumn(IDataColumn column);
    }
}
