namespace HiddenCost.PluginPackager;

// The two metadata files of a .ptix package, as the SDK's plugins system (Microsoft.Performance.Toolkit.Plugins.Core,
// namespace ...Core.Metadata; still marked preview) reads them: System.Text.Json with its default naming, so the
// property names below are the JSON field names, and a Version, Guid or Uri is a JSON string. Both files carry
// SchemaVersion 0.1, the only one the SDK's constructors accept.

/// <summary><c>metadata.json</c>: the plugin as a whole (the SDK's PluginMetadata).</summary>
public sealed record PluginMetadata(
    double SchemaVersion,
    PluginIdentity Identity,
    ulong InstalledSize,
    string DisplayName,
    string Description,
    string SdkVersion,
    string? ProjectUrl,
    IReadOnlyList<PluginOwnerInfo> Owners);

/// <summary>
/// Id (letters, digits, '.' and '-') and version. The version has three parts, so it reads both as the
/// System.Version the SDK's released metadata uses and as the semantic version of its later PluginVersion.
/// </summary>
public sealed record PluginIdentity(string Id, string Version);

public sealed record PluginOwnerInfo(string Name, string? Address, IReadOnlyList<string> EmailAddresses, IReadOnlyList<string> PhoneNumbers);

/// <summary><c>contentsmetadata.json</c>: what the plugin holds (the SDK's PluginContentsMetadata).</summary>
public sealed record PluginContentsMetadata(
    double SchemaVersion,
    IReadOnlyList<ProcessingSourceMetadata> ProcessingSources,
    IReadOnlyList<DataCookerMetadata> DataCookers,
    IReadOnlyList<TableMetadata> ExtensibleTables);

/// <summary>One processing source; <see cref="Version"/> is its assembly's file version, as the SDK's loader reports it.</summary>
public sealed record ProcessingSourceMetadata(
    Guid Guid,
    string Name,
    string Version,
    string Description,
    ProcessingSourceInfo AboutInfo,
    IReadOnlyList<TableMetadata> AvailableTables,
    IReadOnlyList<DataSourceMetadata> SupportedDataSources);

/// <summary>The processing source's about-information (GetAboutInfo), field for field.</summary>
public sealed record ProcessingSourceInfo(
    IReadOnlyList<ContactInfo> Owners,
    ProjectInfo ProjectInfo,
    LicenseInfo LicenseInfo,
    string? CopyrightNotice,
    IReadOnlyList<string> AdditionalInformation);

public sealed record ContactInfo(string? Name, string? Address, IReadOnlyList<string> EmailAddresses, IReadOnlyList<string> PhoneNumbers);

public sealed record ProjectInfo(string? Uri);

public sealed record LicenseInfo(string? Name, string? Uri, string? Text);

public sealed record TableMetadata(Guid Guid, string Name, string Description, string Category, bool IsMetadataTable);

/// <summary>A supported data source: for a file data source, its extension as the attribute declares it.</summary>
public sealed record DataSourceMetadata(string Name, string Description);

public sealed record DataCookerMetadata(string Name, string Description, string SourceParserId);
