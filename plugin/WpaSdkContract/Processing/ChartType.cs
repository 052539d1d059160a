namespace Microsoft.Performance.SDK.Processing
{
    public enum ChartType
    {
        Line = 0,
        StackedLine = 1,
        StackedBars = 2,
        StateDiagram = 3,
        PointInTime = 4,
        Flame = 5,
    }
}
