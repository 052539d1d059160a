using System;
using System.Collections.Generic;

namespace Microsoft.Performance.SDK.Processing.DataSourceGrouping
{
    public sealed class DataSourceGroup : IDataSourceGroup
    {
        public DataSourceGroup(IReadOnlyCollection<IDataSource> dataSources, IProcessingMode processingMode)
        {
            this.DataSources = dataSources ?? throw new ArgumentNullException(nameof(dataSources));
            this.ProcessingMode = processingMode ?? throw new ArgumentNullException(nameof(processingMode));
        }

        public IReadOnlyCollection<IDataSource> DataSources { get; }

        public IProcessingMode ProcessingMode { get; }
    }
}
