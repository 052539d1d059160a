namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>Where a processing source's project lives.</summary>
    public sealed class ProjectInfo
    {
        public string Uri { get; set; }
    }
}
