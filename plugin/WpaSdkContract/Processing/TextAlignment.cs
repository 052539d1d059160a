namespace Microsoft.Performance.SDK.Processing
{
    public enum TextAlignment
    {
        Left = 0,
        Right = 1,
        Center = 2,
        Justify = 3,
    }
}
