using System.Text.RegularExpressions;

namespace HiddenCost.Packaging.Tests;

/// <summary>
/// The SDK plugins system's metadata files, transcribed field by field from the SDK's source
/// (microsoft-performance-toolkit-sdk, src/PluginsSystem/Microsoft.Performance.Toolkit.Plugins.Core/Metadata: the
/// [JsonConstructor] of PluginMetadata, PluginOwnerInfo, PluginContentsMetadata, ProcessingSourceMetadata,
/// ProcessingSourceInfo, ContactInfo, ProjectInfo, LicenseInfo, TableMetadata, DataSourceMetadata, DataCookerMetadata;
/// Core/PluginIdentity.cs). They are read with SerializationUtils.PluginsSystemSerializerDefaultOptions: System.Text.Json,
/// no naming policy (the names are the properties' own), System.Version, Guid and Uri as strings. Both constructors throw
/// on a SchemaVersion other than 0.1; PluginIdentity's id allows letters, digits, '.' and '-' (PluginIdentityTest).
/// This is written here from the SDK's source, not taken from our packager, so the two are checked against each other.
/// </summary>
internal static class PluginsSystemSchema
{
    private static readonly JsonNumber SchemaVersion = new(v => v.GetDouble() == 0.1, "0.1, the only schema version the SDK reads");
    private static readonly JsonString Text = new();
    private static readonly JsonString OptionalText = new(Nullable: true);
    private static readonly JsonArray OptionalTexts = new(Text, Nullable: true);
    private static readonly JsonString Version = new(Valid: v => System.Version.TryParse(v, out _), What: "a System.Version");
    private static readonly JsonString Guid = new(Valid: g => System.Guid.TryParse(g, out _), What: "a GUID");
    private static readonly JsonString OptionalUri = new(Nullable: true, Valid: u => Uri.TryCreate(u, UriKind.RelativeOrAbsolute, out _), What: "a URI");

    /// <summary>A plugin id: what PluginIdentity.HasValidId accepts in the SDK's tests.</summary>
    public static readonly Regex PluginId = new("^[A-Za-z0-9.-]+$");

    /// <summary>
    /// The plugin's version: a System.Version in the released metadata, a semantic version (NuGet's SemanticVersion) in
    /// the SDK's later PluginVersion; three numeric parts read as both.
    /// </summary>
    private static readonly JsonString PluginVersion = new(Valid: v => Regex.IsMatch(v, @"^\d+\.\d+\.\d+$"), What: "major.minor.patch");

    private static readonly JsonObject Contact = new(false,
        ("Name", OptionalText), ("Address", OptionalText), ("EmailAddresses", OptionalTexts), ("PhoneNumbers", OptionalTexts));

    private static readonly JsonObject Table = new(false,
        ("Guid", Guid), ("Name", Text), ("Description", Text), ("Category", Text), ("IsMetadataTable", new JsonBoolean()));

    public static readonly JsonObject Metadata = new(false,
        ("SchemaVersion", SchemaVersion),
        ("Identity", new JsonObject(false,
            ("Id", new JsonString(Valid: PluginId.IsMatch, What: "a plugin id")),
            ("Version", PluginVersion))),
        ("InstalledSize", new JsonNumber(v => v.TryGetUInt64(out _), "a byte count (ulong)")),
        ("DisplayName", Text),
        ("Description", Text),
        ("SdkVersion", Version),
        ("ProjectUrl", OptionalUri),
        ("Owners", new JsonArray(Contact, Nullable: true)));

    public static readonly JsonObject ContentsMetadata = new(false,
        ("SchemaVersion", SchemaVersion),
        ("ProcessingSources", new JsonArray(new JsonObject(false,
            ("Guid", Guid),
            ("Name", Text),
            ("Version", Version),
            ("Description", Text),
            ("AboutInfo", new JsonObject(true,
                ("Owners", new JsonArray(Contact, Nullable: true)),
                ("ProjectInfo", new JsonObject(true, ("Uri", OptionalText))),
                ("LicenseInfo", new JsonObject(true, ("Name", OptionalText), ("Uri", OptionalUri), ("Text", OptionalText))),
                ("CopyrightNotice", OptionalText),
                ("AdditionalInformation", OptionalTexts))),
            ("AvailableTables", new JsonArray(Table)),
            ("SupportedDataSources", new JsonArray(new JsonObject(false, ("Name", Text), ("Description", Text))))))),
        ("DataCookers", new JsonArray(new JsonObject(false, ("Name", Text), ("Description", Text), ("SourceParserId", Text)))),
        ("ExtensibleTables", new JsonArray(Table)));
}
