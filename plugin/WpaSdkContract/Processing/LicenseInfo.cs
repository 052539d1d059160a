namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>The license a processing source is offered under.</summary>
    public sealed class LicenseInfo
    {
        public string Name { get; set; }

        public string Uri { get; set; }

        public string Text { get; set; }
    }
}
