namespace Microsoft.Performance.SDK.Processing
{
    public enum TableLayoutStyle
    {
        None = 0,
        Graph = 1,
        Table = 2,
        GraphAndTable = 3,
    }
}
