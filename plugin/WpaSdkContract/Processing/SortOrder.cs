namespace Microsoft.Performance.SDK.Processing
{
    public enum SortOrder
    {
        None = 0,
        Ascending = 1,
        Descending = 2,
        Ascending_Abs = 3,
        Descending_Abs = 4,
    }
}
