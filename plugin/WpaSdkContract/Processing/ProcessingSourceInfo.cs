namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>What WPA shows about a processing source (its "about" information).</summary>
    public sealed class ProcessingSourceInfo
    {
        public ContactInfo[] Owners { get; set; }

        public ProjectInfo ProjectInfo { get; set; }

        public LicenseInfo LicenseInfo { get; set; }

        public string CopyrightNotice { get; set; }

        public string[] AdditionalInformation { get; set; }
    }
}
