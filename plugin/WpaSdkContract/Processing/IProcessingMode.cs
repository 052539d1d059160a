using System;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>How the data sources of a group are to be processed.</summary>
    public interface IProcessingMode
    {
        Guid Guid { get; }

        string Name { get; }

        string Description { get; }
    }
}
