using System;
using System.Collections.Generic;
using System.Linq;
using Microsoft.Performance.SDK.Processing.DataSourceGrouping;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>
    /// Base of a processing source. As in the SDK, the tables are discovered when the host hands over its
    /// application environment, through <see cref="CreateTableProvider"/>.
    /// </summary>
    public abstract class ProcessingSource
    {
        private readonly List<TableDescriptor> allTables = new List<TableDescriptor>();

        protected ProcessingSource()
        {
        }

        public IEnumerable<TableDescriptor> DataTables => this.allTables.Where(table => !table.IsMetadataTable).ToList();

        public IEnumerable<TableDescriptor> MetadataTables => this.allTables.Where(table => table.IsMetadataTable).ToList();

        protected IEnumerable<TableDescriptor> AllTables => this.allTables.ToList();

        /// <summary>The options the source declares; the host passes those set in <see cref="ProcessorOptions.Options"/>.</summary>
        public virtual IEnumerable<Option> CommandLineOptions => Enumerable.Empty<Option>();

        protected IApplicationEnvironment ApplicationEnvironment { get; private set; }

        protected ILogger Logger { get; private set; }

        public void SetApplicationEnvironment(IApplicationEnvironment applicationEnvironment)
        {
            this.ApplicationEnvironment = applicationEnvironment ?? throw new ArgumentNullException(nameof(applicationEnvironment));
            this.SetApplicationEnvironmentCore(applicationEnvironment);

            var provider = this.CreateTableProvider()
                ?? throw new InvalidOperationException($"{this.GetType().Name} returned a null table provider.");
            var seen = new HashSet<TableDescriptor>();
            this.allTables.Clear();
            foreach (var table in provider.Discover(applicationEnvironment.Serializer))
            {
                if (!seen.Add(table))
                {
                    throw new InvalidOperationException($"The table descriptor `{table}` appeared more than once in `{this.GetType()}`.");
                }

                this.allTables.Add(table);
            }
        }

        public void SetLogger(ILogger logger)
        {
            this.Logger = logger;
            this.SetLoggerCore(logger);
        }

        public bool IsDataSourceSupported(IDataSource dataSource)
        {
            if (dataSource == null)
            {
                return false;
            }

            try
            {
                return this.IsDataSourceSupportedCore(dataSource);
            }
            catch (Exception)
            {
                // The SDK treats a throwing check as "not supported"; so does the contract.
                return false;
            }
        }

        public ICustomDataProcessor CreateProcessor(IDataSource dataSource, IProcessorEnvironment processorEnvironment, ProcessorOptions options)
        {
            if (dataSource == null)
            {
                throw new ArgumentNullException(nameof(dataSource));
            }

            return this.CreateProcessor(new[] { dataSource }, processorEnvironment, options);
        }

        public ICustomDataProcessor CreateProcessor(IEnumerable<IDataSource> dataSources, IProcessorEnvironment processorEnvironment, ProcessorOptions options)
        {
            if (dataSources == null || dataSources.Any(source => source == null))
            {
                throw new ArgumentNullException(nameof(dataSources));
            }

            RequireEnvironment(processorEnvironment, options);

            return this.CreateProcessorCore(dataSources, processorEnvironment, options)
                ?? throw new InvalidOperationException("CreateProcessorCore is not allowed to return null.");
        }

        public ICustomDataProcessor CreateProcessor(IDataSourceGroup dataSourceGroup, IProcessorEnvironment processorEnvironment, ProcessorOptions options)
        {
            if (dataSourceGroup == null || dataSourceGroup.DataSources == null || dataSourceGroup.DataSources.Any(source => source == null))
            {
                throw new ArgumentNullException(nameof(dataSourceGroup));
            }

            RequireEnvironment(processorEnvironment, options);

            return this.CreateProcessorCore(dataSourceGroup, processorEnvironment, options)
                ?? throw new InvalidOperationException("CreateProcessorCore is not allowed to return null.");
        }

        public virtual void DisposeProcessor(ICustomDataProcessor processor)
        {
        }

        private static void RequireEnvironment(IProcessorEnvironment processorEnvironment, ProcessorOptions options)
        {
            if (processorEnvironment == null)
            {
                throw new ArgumentNullException(nameof(processorEnvironment));
            }

            if (options == null)
            {
                throw new ArgumentNullException(nameof(options));
            }
        }

        /// <summary>
        /// What WPA shows about the processing source. The SDK's default is a template ("&lt;Your Name Here&gt;", a
        /// placeholder project URI and license), shown as it is unless a plugin overrides this; the contract's default
        /// says nothing instead.
        /// </summary>
        public virtual ProcessingSourceInfo GetAboutInfo()
        {
            return new ProcessingSourceInfo
            {
                Owners = new ContactInfo[0],
                AdditionalInformation = new string[0],
            };
        }

        protected abstract ICustomDataProcessor CreateProcessorCore(IEnumerable<IDataSource> dataSources, IProcessorEnvironment processorEnvironment, ProcessorOptions options);

        /// <summary>
        /// As in the SDK: a processing source that groups its data sources (<see cref="IDataSourceGrouper"/>) must
        /// override this; one that does not has its groups processed as plain lists of data sources.
        /// </summary>
        protected virtual ICustomDataProcessor CreateProcessorCore(IDataSourceGroup dataSourceGroup, IProcessorEnvironment processorEnvironment, ProcessorOptions options)
        {
            if (this is IDataSourceGrouper)
            {
                throw new InvalidOperationException("A processing source that implements IDataSourceGrouper must override CreateProcessorCore(IDataSourceGroup, ...).");
            }

            return this.CreateProcessor(dataSourceGroup.DataSources, processorEnvironment, options);
        }

        protected abstract bool IsDataSourceSupportedCore(IDataSource dataSource);

        protected virtual void SetApplicationEnvironmentCore(IApplicationEnvironment applicationEnvironment)
        {
        }

        protected virtual void SetLoggerCore(ILogger logger)
        {
        }

        /// <summary>
        /// The SDK's default scans the plugin assembly for [Table] classes. The contract does not reproduce that
        /// scan: a plugin built against it must supply its tables by overriding this method.
        /// </summary>
        protected virtual IProcessingSourceTableProvider CreateTableProvider()
        {
            throw new NotSupportedException("The SDK contract discovers tables only through an overridden CreateTableProvider.");
        }
    }
}
