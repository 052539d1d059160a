using System.Collections.Concurrent;
using System.Reflection;
using Microsoft.Performance.SDK.Processing;
using Microsoft.Performance.SDK.Processing.DataSourceGrouping;
using DataSourceAttribute = Microsoft.Performance.SDK.Processing.DataSourceAttribute;

namespace HiddenCost.Wpa.Tests.Host;

/// <summary>
/// One trace opened the way WPA opens it: the discovered processing source is created, given the host, asked
/// whether it takes the file, asked for the file's group, made to create a processor for it; every table it lists is enabled, the trace is
/// processed, and every table is built through a <see cref="RecordingTableBuilder"/> and every cell projected.
/// </summary>
public sealed class HostedTrace
{
    private HostedTrace(TestHost host, ProcessingSource source, IReadOnlyDictionary<string, RecordingTableBuilder> tables,
        IReadOnlyList<int> progress, DataSourceInfo timeline)
    {
        Host = host;
        Source = source;
        Tables = tables;
        Progress = progress;
        Timeline = timeline;
    }

    public TestHost Host { get; }
    public ProcessingSource Source { get; }
    public IReadOnlyDictionary<string, RecordingTableBuilder> Tables { get; }
    public IReadOnlyList<int> Progress { get; }
    public DataSourceInfo Timeline { get; }

    public RecordingTableBuilder this[string table] => Tables[table];

    /// <summary>The single processing source found in the test's output folder, which holds the built plugin.</summary>
    public static Type DiscoveredSource() => PluginDiscovery.ProcessingSources(AppContext.BaseDirectory).Single();

    public static ProcessingSource CreateSource(TestHost host)
    {
        var source = (ProcessingSource)Activator.CreateInstance(DiscoveredSource())!;
        source.SetApplicationEnvironment(host);
        source.SetLogger(host);
        return source;
    }

    /// <param name="enable">The names of the tables to enable (and build); every table the source lists when null.</param>
    /// <param name="environment">The environment variables the source sees (its symbol path); the process's when null.</param>
    public static HostedTrace Open(string path, IReadOnlyCollection<string>? enable = null, IReadOnlyDictionary<string, string>? environment = null)
    {
        var host = new TestHost();
        var source = CreateSource(host);
        if (environment is not null)
            ((HiddenCostProcessingSource)source).EnvironmentVariable = name => environment.GetValueOrDefault(name);
        var file = new FileDataSource(path);
        if (!source.GetType().GetCustomAttributes<DataSourceAttribute>().Any(a => a.Accepts(file)) || !source.IsDataSourceSupported(file))
            throw new AssertFailedException($"the processing source does not take {path}");

        // WPA 11.5 and later ask a processing source that groups its data sources for its groups, and hand it those.
        var grouper = source as IDataSourceGrouper ?? throw new AssertFailedException("the processing source does not group its data sources");
        var group = grouper.CreateValidGroups([file], ProcessorOptions.Default).Single();
        var processor = source.CreateProcessor(group, host, ProcessorOptions.Default);
        var enabled = source.DataTables.Where(table => enable is null || enable.Contains(table.Name)).ToArray();
        foreach (var table in enabled) processor.EnableTable(table);
        var progress = new RecordingProgress();
        processor.ProcessAsync(progress, CancellationToken.None).GetAwaiter().GetResult();

        var tables = new Dictionary<string, RecordingTableBuilder>();
        foreach (var table in enabled)
        {
            var builder = new RecordingTableBuilder();
            processor.BuildTable(table, builder);
            builder.ProjectEveryCell();
            tables.Add(table.Name, builder);
        }
        return new HostedTrace(host, source, tables, progress.Values, processor.GetDataSourceInfo());
    }

    private sealed class RecordingProgress : IProgress<int>
    {
        private readonly ConcurrentQueue<int> _values = new();
        public IReadOnlyList<int> Values => _values.ToArray();
        public void Report(int value) => _values.Enqueue(value);
    }
}
