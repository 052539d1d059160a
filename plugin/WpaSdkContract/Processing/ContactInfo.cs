namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>Contact information of an owner of a processing source.</summary>
    public sealed class ContactInfo
    {
        public string Name { get; set; }

        public string Address { get; set; }

        public string[] EmailAddresses { get; set; }

        public string[] PhoneNumbers { get; set; }
    }
}
