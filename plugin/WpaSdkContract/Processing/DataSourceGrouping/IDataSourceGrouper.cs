using System.Collections.Generic;

namespace Microsoft.Performance.SDK.Processing.DataSourceGrouping
{
    /// <summary>
    /// Implemented by a processing source that says which of the data sources it supports can be processed together:
    /// the host then hands it only those groups (through the group overload of CreateProcessor), instead of any
    /// combination the user opened.
    /// </summary>
    public interface IDataSourceGrouper
    {
        IReadOnlyCollection<IDataSourceGroup> CreateValidGroups(IEnumerable<IDataSource> dataSources, ProcessorOptions options);
    }
}
