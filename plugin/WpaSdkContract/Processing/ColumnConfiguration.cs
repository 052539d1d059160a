using System;

namespace Microsoft.Performance.SDK.Processing
{
    public sealed class ColumnConfiguration
    {
        public ColumnConfiguration(ColumnMetadata metadata)
            : this(metadata, UIHints.Default())
        {
        }

        public ColumnConfiguration(ColumnMetadata metadata, UIHints hints)
        {
            this.Metadata = metadata ?? throw new ArgumentNullException(nameof(metadata));
            this.DisplayHints = hints;
        }

        public ColumnMetadata Metadata { get; }

        public UIHints DisplayHints { get; }

        public override string ToString() => $"{this.Metadata.Name} [{this.Metadata.Guid}]";
    }
}
