using System.Collections.Generic;

namespace Microsoft.Performance.SDK.Processing
{
    public interface IProcessingSourceTableProvider
    {
        IEnumerable<TableDescriptor> Discover(ITableConfigurationsSerializer tableConfigSerializer);
    }
}
