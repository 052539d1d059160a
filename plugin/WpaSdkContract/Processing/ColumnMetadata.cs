using System;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>A column's identity: the GUID presets refer to, its name and description.</summary>
    public class ColumnMetadata
    {
        public ColumnMetadata(Guid guid, string name)
            : this(guid, name, name)
        {
        }

        public ColumnMetadata(Guid guid, string name, string description)
        {
            if (guid == Guid.Empty)
            {
                throw new ArgumentException("A column GUID may not be empty.", nameof(guid));
            }

            if (string.IsNullOrWhiteSpace(name))
            {
                throw new ArgumentException("A column name is required.", nameof(name));
            }

            this.Guid = guid;
            this.Name = name;
            this.Description = string.IsNullOrWhiteSpace(description) ? name : description;
        }

        public Guid Guid { get; }

        public string Name { get; }

        public string Description { get; }

        public string ShortDescription { get; set; }

        public bool IsPercent { get; set; }
    }
}
