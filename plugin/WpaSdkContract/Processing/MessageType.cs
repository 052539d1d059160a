namespace Microsoft.Performance.SDK.Processing
{
    public enum MessageType
    {
        Information = 0,
        Warning = 1,
        Error = 2,
    }
}
