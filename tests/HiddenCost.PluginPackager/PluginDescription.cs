using System.Diagnostics;
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using HiddenCost.Analysis;
using HiddenCost.Wpa;
using HiddenCost.Wpa.Mapping;
using Sdk = Microsoft.Performance.SDK.Processing;

namespace HiddenCost.PluginPackager;

/// <summary>
/// The metadata of the plugin packages, read from the plugin itself: the processing source's attributes and
/// about-information, the tables exactly as WPA is handed them (TableCatalog through the plugin's own mapping), and
/// from the published folder the version, the SDK version the plugin references and the installed size. Nothing
/// here is written twice.
/// </summary>
public static class PluginDescription
{
    public const string PluginId = "HiddenCost";
    public const double SchemaVersion = 0.1;

    /// <summary>The assembly WPA loads; its version and its reference to the SDK are read from the published copy.</summary>
    public const string PluginAssemblyFileName = "HiddenCost.Wpa.dll";

    public static PluginMetadata Metadata(string pluginFolder)
    {
        var source = SourceAttribute();
        var owners = AboutInfo().Owners ?? [];
        return new PluginMetadata(
            SchemaVersion,
            new PluginIdentity(PluginId, ProductVersion(pluginFolder)),
            InstalledSize(pluginFolder),
            source.Name,
            source.Description,
            ReferencedSdkVersion(pluginFolder),
            ProjectUrl: null, // the plugin names no project address (see HiddenCostProcessingSource.GetAboutInfo)
            owners.Select(o => new PluginOwnerInfo(o.Name, o.Address, o.EmailAddresses ?? [], o.PhoneNumbers ?? [])).ToList());
    }

    public static PluginContentsMetadata Contents(string pluginFolder)
    {
        var source = SourceAttribute();
        var about = AboutInfo();
        var tables = TableCatalog.All.Select(TableDescriptors.For)
            .Select(t => new TableMetadata(t.Guid, t.Name, t.Description, t.Category, t.IsMetadataTable))
            .ToList();
        var dataSources = typeof(HiddenCostProcessingSource).GetCustomAttributes<Sdk.FileDataSourceAttribute>()
            .Select(d => new DataSourceMetadata(d.FileExtension, d.Description))
            .ToList();
        var info = new ProcessingSourceInfo(
            (about.Owners ?? []).Select(o => new ContactInfo(o.Name, o.Address, o.EmailAddresses ?? [], o.PhoneNumbers ?? [])).ToList(),
            new ProjectInfo(about.ProjectInfo?.Uri),
            new LicenseInfo(about.LicenseInfo?.Name, about.LicenseInfo?.Uri, about.LicenseInfo?.Text),
            about.CopyrightNotice,
            about.AdditionalInformation ?? []);
        var processingSource = new ProcessingSourceMetadata(
            source.Guid, source.Name, FileVersion(pluginFolder), source.Description, info, tables, dataSources);
        // No data cookers and no extensible tables: every table is built by the processing source's own processor.
        return new PluginContentsMetadata(SchemaVersion, [processingSource], [], []);
    }

    private static Sdk.ProcessingSourceAttribute SourceAttribute() =>
        typeof(HiddenCostProcessingSource).GetCustomAttribute<Sdk.ProcessingSourceAttribute>()
        ?? throw new InvalidOperationException($"{nameof(HiddenCostProcessingSource)} has no [ProcessingSource]");

    private static Sdk.ProcessingSourceInfo AboutInfo() => new HiddenCostProcessingSource().GetAboutInfo();

    private static string PluginAssembly(string pluginFolder)
    {
        var path = Path.Combine(pluginFolder, PluginAssemblyFileName);
        if (!File.Exists(path)) throw new FileNotFoundException($"{pluginFolder} holds no {PluginAssemblyFileName}: not a published plugin folder", path);
        return path;
    }

    /// <summary>The one product version (HiddenCostVersion), as the build wrote it into the published plugin.</summary>
    private static string ProductVersion(string pluginFolder) =>
        FileVersionInfo.GetVersionInfo(PluginAssembly(pluginFolder)).ProductVersion
        ?? throw new InvalidDataException($"{PluginAssemblyFileName} carries no product version");

    /// <summary>What the SDK's loader reports as the processing source's version: its assembly's file version.</summary>
    private static string FileVersion(string pluginFolder) =>
        FileVersionInfo.GetVersionInfo(PluginAssembly(pluginFolder)).FileVersion
        ?? throw new InvalidDataException($"{PluginAssemblyFileName} carries no file version");

    /// <summary>
    /// The SDK version the plugin was built against (major.minor.patch of its reference to Microsoft.Performance.SDK):
    /// the plugins system refuses a plugin whose SDK is newer than the host's.
    /// </summary>
    private static string ReferencedSdkVersion(string pluginFolder)
    {
        using var stream = File.OpenRead(PluginAssembly(pluginFolder));
        using var pe = new PEReader(stream);
        var metadata = pe.GetMetadataReader();
        foreach (var handle in metadata.AssemblyReferences)
        {
            var reference = metadata.GetAssemblyReference(handle);
            if (metadata.GetString(reference.Name) == "Microsoft.Performance.SDK")
                return $"{reference.Version.Major}.{reference.Version.Minor}.{Math.Max(reference.Version.Build, 0)}";
        }
        throw new InvalidDataException($"{PluginAssemblyFileName} does not reference Microsoft.Performance.SDK");
    }

    /// <summary>The bytes the plugin takes once installed: every file of its folder.</summary>
    private static ulong InstalledSize(string pluginFolder) =>
        (ulong)Directory.EnumerateFiles(pluginFolder, "*", SearchOption.AllDirectories).Sum(f => new FileInfo(f).Length);
}
