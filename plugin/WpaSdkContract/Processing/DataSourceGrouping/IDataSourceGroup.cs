using System.Collections.Generic;

namespace Microsoft.Performance.SDK.Processing.DataSourceGrouping
{
    /// <summary>Data sources one processor takes together, and how.</summary>
    public interface IDataSourceGroup
    {
        IReadOnlyCollection<IDataSource> DataSources { get; }

        IProcessingMode ProcessingMode { get; }
    }
}
