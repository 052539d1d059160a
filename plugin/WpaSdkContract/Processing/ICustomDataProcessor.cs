using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>What the host drives: enable tables, process once, then build each enabled table.</summary>
    public interface ICustomDataProcessor
    {
        void EnableTable(TableDescriptor tableDescriptor);

        bool TryEnableTable(TableDescriptor tableDescriptor);

        IEnumerable<TableDescriptor> GetEnabledTables();

        Task ProcessAsync(IProgress<int> progress, CancellationToken cancellationToken);

        DataSourceInfo GetDataSourceInfo();

        bool DoesTableHaveData(TableDescriptor table);

        void BuildTable(TableDescriptor table, ITableBuilder tableBuilder);
    }
}
