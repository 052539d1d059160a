namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>Roles that tell the host which columns place a row on the timeline.</summary>
    public static class ColumnRole
    {
        public const string StartTime = "StartTime";

        public const string EndTime = "EndTime";

        public const string Duration = "Duration";

        public const string ResourceId = "ResourceId";
    }
}
