namespace Microsoft.Performance.SDK.Processing
{
    public enum AggregationMode
    {
        None = 0,
        Average = 1,
        Sum = 2,
        Count = 3,
        Min = 4,
        Max = 5,
        UniqueCount = 6,
        Peak = 7,
        WeightedAverage = 8,
    }
}
