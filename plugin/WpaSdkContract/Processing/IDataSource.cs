using System;

namespace Microsoft.Performance.SDK.Processing
{
    public interface IDataSource
    {
        Uri Uri { get; }
    }
}
