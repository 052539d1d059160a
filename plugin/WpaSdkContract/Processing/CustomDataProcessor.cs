using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>
    /// Base of a processor: tables are enabled before the single <see cref="ProcessAsync"/> call, and only
    /// enabled tables may be built afterwards (the order the host keeps).
    /// </summary>
    public abstract class CustomDataProcessor : ICustomDataProcessor
    {
        private readonly HashSet<TableDescriptor> enabledTables = new HashSet<TableDescriptor>();
        private bool processAsyncCalled;

        protected CustomDataProcessor(ProcessorOptions options, IApplicationEnvironment applicationEnvironment, IProcessorEnvironment processorEnvironment)
        {
            this.Options = options ?? throw new ArgumentNullException(nameof(options));
            this.ApplicationEnvironment = applicationEnvironment ?? throw new ArgumentNullException(nameof(applicationEnvironment));
            this.ProcessorEnvironment = processorEnvironment ?? throw new ArgumentNullException(nameof(processorEnvironment));
            this.Logger = processorEnvironment.CreateLogger(this.GetType());
            this.EnabledTables = new ReadOnlyHashSet<TableDescriptor>(this.enabledTables);
        }

        protected ProcessorOptions Options { get; }

        protected IApplicationEnvironment ApplicationEnvironment { get; }

        protected IProcessorEnvironment ProcessorEnvironment { get; }

        protected ILogger Logger { get; }

        protected ReadOnlyHashSet<TableDescriptor> EnabledTables { get; }

        public void EnableTable(TableDescriptor tableDescriptor)
        {
            if (tableDescriptor == null)
            {
                throw new ArgumentNullException(nameof(tableDescriptor));
            }

            lock (this.enabledTables)
            {
                if (this.processAsyncCalled)
                {
                    throw new InvalidOperationException("Tables may not be enabled after ProcessAsync has been called.");
                }

                this.enabledTables.Add(tableDescriptor);
            }
        }

        public bool TryEnableTable(TableDescriptor tableDescriptor)
        {
            try
            {
                this.EnableTable(tableDescriptor);
                return true;
            }
            catch (InvalidOperationException)
            {
                return false;
            }
            catch (ArgumentNullException)
            {
                return false;
            }
        }

        public IEnumerable<TableDescriptor> GetEnabledTables()
        {
            lock (this.enabledTables)
            {
                return this.enabledTables.ToList();
            }
        }

        public Task ProcessAsync(IProgress<int> progress, CancellationToken cancellationToken)
        {
            lock (this.enabledTables)
            {
                if (this.processAsyncCalled)
                {
                    throw new InvalidOperationException("ProcessAsync has already been called.");
                }

                this.processAsyncCalled = true;
            }

            return this.ProcessAsyncCore(progress, cancellationToken);
        }

        public abstract DataSourceInfo GetDataSourceInfo();

        public virtual bool DoesTableHaveData(TableDescriptor table) => true;

        public void BuildTable(TableDescriptor table, ITableBuilder tableBuilder)
        {
            if (table == null)
            {
                throw new ArgumentNullException(nameof(table));
            }

            if (tableBuilder == null)
            {
                throw new ArgumentNullException(nameof(tableBuilder));
            }

            if (!this.enabledTables.Contains(table))
            {
                throw new InvalidOperationException($"Table {table} was requested to be built but has not been enabled on processor {this.GetType()}.");
            }

            this.BuildTableCore(table, tableBuilder);
        }

        protected abstract Task ProcessAsyncCore(IProgress<int> progress, CancellationToken cancellationToken);

        protected abstract void BuildTableCore(TableDescriptor tableDescriptor, ITableBuilder tableBuilder);
    }
}
