using System.Reflection;
using HiddenCost.Analysis;
using Microsoft.Performance.SDK.Processing;
using Microsoft.Performance.SDK.Processing.DataSourceGrouping;

namespace HiddenCost.Wpa;

/// <summary>
/// What WPA loads: claims <c>.etl</c> files, lists every table of <see cref="TableCatalog"/> before a trace is
/// opened, and hands each trace to a <see cref="HiddenCostDataProcessor"/>. WPA's own ETW processor claims
/// <c>.etl</c> too, so a launch names both: <c>-processors "Event Tracing for Windows","HiddenCost"</c>.
/// </summary>
[ProcessingSource(Id, Name, "Finds CPU that other software quietly burns: syscall hooks, spin-waits, directory-notify buffers, event-log rendering.")]
[FileDataSource(".etl", "Event Trace Log")]
public sealed class HiddenCostProcessingSource : ProcessingSource, IDataSourceGrouper
{
    /// <summary>Stable forever: WPA and saved sessions identify the processing source by it.</summary>
    public const string Id = "{01b637d0-ceb5-402a-b7e8-d23033493ea7}";

    /// <summary>The name <c>wpa -processors</c> takes.</summary>
    public const string Name = "HiddenCost";

    /// <summary>
    /// What WPA shows about the plugin: without this, the SDK's template text ("&lt;Your Name Here&gt;", a placeholder
    /// project and license). No project address or license is given: the plugin ships without either.
    /// </summary>
    public override ProcessingSourceInfo GetAboutInfo() => new()
    {
        Owners = [new ContactInfo { Name = "HiddenCost developers", EmailAddresses = [], PhoneNumbers = [] }],
        AdditionalInformation =
        [
            $"HiddenCost {ProductVersion}: finds CPU that other software quietly burns.",
            "Tables: " + string.Join(", ", TableCatalog.All.Select(t => t.Name)) + ".",
            "Reads .etl files with its own managed reader, on any OS; native names come from PDBs in the local folders and caches on _NT_SYMBOL_PATH (symbol servers only with the symbol-downloads option). Record with the profiles of " +
            "MultiProfile.wprp (for example wpr -start MultiProfile.wprp!SysCall); Trace Readiness says what a trace lacks.",
        ],
    };

    /// <summary>
    /// The one version of everything HiddenCost ships (HiddenCostVersion in Directory.Build.props), as `hiddencost
    /// --version` prints it. WPA's plugin list shows the assembly's file version, the same number with a fourth part.
    /// </summary>
    public static string ProductVersion { get; } =
        typeof(HiddenCostProcessingSource).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion
        ?? typeof(HiddenCostProcessingSource).Assembly.GetName().Version?.ToString() ?? "unknown";

    protected override bool IsDataSourceSupportedCore(IDataSource dataSource) =>
        dataSource is FileDataSource file && string.Equals(Path.GetExtension(file.FullPath), ".etl", StringComparison.OrdinalIgnoreCase);

    /// <summary>Off unless set: opening a trace downloads no PDBs unasked.</summary>
    public override IEnumerable<Option> CommandLineOptions => [WpaSymbols.AllowDownloads];

    /// <summary>
    /// Where the symbol path (<c>_NT_SYMBOL_PATH</c>) is read: the process's environment in WPA; tests give each source
    /// its own, so tests running at once never share a process-wide variable.
    /// </summary>
    internal Func<string, string?> EnvironmentVariable { get; set; } = Environment.GetEnvironmentVariable;

    protected override IProcessingSourceTableProvider CreateTableProvider() => new CatalogTableProvider(TableCatalog.All);

    /// <summary>
    /// One group per trace: a processor analyses one trace, so WPA given several opens a processor for each instead
    /// of handing all of them to one (which could only analyse the first and warn of the rest).
    /// </summary>
    public IReadOnlyCollection<IDataSourceGroup> CreateValidGroups(IEnumerable<IDataSource> dataSources, ProcessorOptions options) =>
        (dataSources ?? [])
            .Where(IsDataSourceSupported)
            .Select(source => (IDataSourceGroup)new DataSourceGroup([source], new DefaultProcessingMode()))
            .ToList();

    protected override ICustomDataProcessor CreateProcessorCore(
        IDataSourceGroup dataSourceGroup, IProcessorEnvironment processorEnvironment, ProcessorOptions options) =>
        CreateProcessorCore(dataSourceGroup.DataSources, processorEnvironment, options);

    protected override ICustomDataProcessor CreateProcessorCore(
        IEnumerable<IDataSource> dataSources, IProcessorEnvironment processorEnvironment, ProcessorOptions options) =>
        new HiddenCostDataProcessor(
            dataSources.OfType<FileDataSource>().Select(f => f.FullPath).ToList(),
            TableCatalog.All,
            WpaSymbols.For(options, EnvironmentVariable),
            options,
            ApplicationEnvironment,
            processorEnvironment);
}
