using System.IO.Compression;
using System.Text.Json;
using HiddenCost.Analysis;
using HiddenCost.PluginPackager;
using HiddenCost.Wpa;

namespace HiddenCost.Packaging.Tests;

/// <summary>
/// The WPA plugin packages made from a `dotnet publish plugin/HiddenCost.Wpa` folder: the zip for `wpa -addsearchdir`
/// and the .ptix of the SDK's plugins system, whose metadata must have the SDK's schema and say what the plugin is.
/// </summary>
[TestClass]
public sealed class PluginPackageTests
{
    private static string _root = "";
    private static string _plugin = "";
    private static string _zip = "";
    private static string _ptix = "";

    [ClassInitialize]
    public static void PublishAndPack(TestContext _)
    {
        _root = DotnetCommand.NewTempFolder("plugin-package");
        _plugin = Path.Combine(_root, "plugin");
        DotnetCommand.Dotnet("publish", DotnetCommand.Project("plugin", "HiddenCost.Wpa", "HiddenCost.Wpa.csproj"),
            "--no-build", "-c", DotnetCommand.Configuration, "-o", _plugin, "-nologo");
        (_zip, _ptix) = Pack(Path.Combine(_root, "out"));
    }

    [ClassCleanup]
    public static void Remove()
    {
        if (Directory.Exists(_root)) Directory.Delete(_root, recursive: true);
    }

    private static (string Zip, string Ptix) Pack(string outDir)
    {
        Directory.CreateDirectory(outDir);
        var zip = Path.Combine(outDir, "plugin.zip");
        var ptix = Path.Combine(outDir, "plugin" + PluginPackageWriter.PtixExtension);
        PluginPackageWriter.WriteFolderZip(_plugin, zip);
        PluginPackageWriter.WritePtix(_plugin, ptix, PluginDescription.Metadata(_plugin), PluginDescription.Contents(_plugin));
        return (zip, ptix);
    }

    private static IReadOnlyList<string> PublishedFiles() =>
        Directory.GetFiles(_plugin, "*", SearchOption.AllDirectories)
            .Select(f => Path.GetRelativePath(_plugin, f).Replace('\\', '/'))
            .Order(StringComparer.Ordinal).ToList();

    private static JsonDocument ReadJson(ZipArchive zip, string name)
    {
        using var stream = zip.GetEntry(name)!.Open();
        return JsonDocument.Parse(stream);
    }

    [TestMethod]
    public void Ptix_holds_its_two_metadata_files_at_the_root_and_the_published_plugin_under_plugin()
    {
        using var zip = ZipFile.OpenRead(_ptix);

        var expected = new[] { "contentsmetadata.json", "metadata.json" }
            .Concat(PublishedFiles().Select(f => "plugin/" + f)).Order(StringComparer.Ordinal).ToList();
        CollectionAssert.AreEqual(expected, zip.Entries.Select(e => e.FullName).Order(StringComparer.Ordinal).ToList());
        CollectionAssert.Contains(expected, "plugin/" + PluginDescription.PluginAssemblyFileName);
        CollectionAssert.DoesNotContain(expected, "plugin/Microsoft.Performance.SDK.dll", "WPA supplies the SDK");
        foreach (var file in PublishedFiles())
            Assert.AreEqual(new FileInfo(Path.Combine(_plugin, file)).Length, zip.GetEntry("plugin/" + file)!.Length, file);
    }

    [TestMethod]
    public void Ptix_metadata_has_the_sdk_schema_and_names_the_plugin_its_version_sdk_and_size()
    {
        using var zip = ZipFile.OpenRead(_ptix);
        using var doc = ReadJson(zip, "metadata.json");
        var metadata = doc.RootElement;

        PluginsSystemSchema.Metadata.Check(metadata, "metadata.json");
        Assert.AreEqual("HiddenCost", metadata.GetProperty("Identity").GetProperty("Id").GetString());
        Assert.AreEqual(HiddenCostProcessingSource.ProductVersion, metadata.GetProperty("Identity").GetProperty("Version").GetString());
        Assert.AreEqual("1.2.0", metadata.GetProperty("SdkVersion").GetString(), "the contract's SDK, 1.2.0.0");
        Assert.AreEqual(HiddenCostProcessingSource.Name, metadata.GetProperty("DisplayName").GetString());
        var plugin = zip.Entries.Where(e => e.FullName.StartsWith("plugin/", StringComparison.Ordinal)).Sum(e => e.Length);
        Assert.AreEqual((ulong)plugin, metadata.GetProperty("InstalledSize").GetUInt64());
    }

    [TestMethod]
    public void Ptix_contents_have_the_sdk_schema_and_list_every_table_of_the_model_as_wpa_gets_it()
    {
        using var zip = ZipFile.OpenRead(_ptix);
        using var doc = ReadJson(zip, "contentsmetadata.json");
        var contents = doc.RootElement;

        PluginsSystemSchema.ContentsMetadata.Check(contents, "contentsmetadata.json");
        var source = contents.GetProperty("ProcessingSources").EnumerateArray().Single();
        Assert.AreEqual(Guid.Parse(HiddenCostProcessingSource.Id), source.GetProperty("Guid").GetGuid());
        Assert.AreEqual("HiddenCost", source.GetProperty("Name").GetString());
        Assert.AreEqual(HiddenCostProcessingSource.ProductVersion + ".0", source.GetProperty("Version").GetString(), "the file version WPA shows");
        var dataSource = source.GetProperty("SupportedDataSources").EnumerateArray().Single();
        Assert.AreEqual("etl", dataSource.GetProperty("Name").GetString());
        var tables = source.GetProperty("AvailableTables").EnumerateArray().ToList();
        Assert.AreEqual(TableCatalog.All.Count, tables.Count);
        for (int i = 0; i < tables.Count; i++)
        {
            var spec = TableCatalog.All[i];
            Assert.AreEqual(spec.Id, tables[i].GetProperty("Guid").GetGuid(), spec.Name);
            Assert.AreEqual(spec.Name, tables[i].GetProperty("Name").GetString());
            Assert.AreEqual(spec.Description, tables[i].GetProperty("Description").GetString(), spec.Name);
            Assert.AreEqual(spec.Category, tables[i].GetProperty("Category").GetString(), spec.Name);
            Assert.IsFalse(tables[i].GetProperty("IsMetadataTable").GetBoolean(), spec.Name);
        }
        StringAssert.StartsWith(source.GetProperty("AboutInfo").GetProperty("AdditionalInformation")[0].GetString(),
            $"HiddenCost {HiddenCostProcessingSource.ProductVersion}: ");
    }

    [TestMethod]
    public void Schema_check_refuses_a_camel_case_field_a_missing_field_and_a_wrong_schema_version()
    {
        using var zip = ZipFile.OpenRead(_ptix);
        using var doc = ReadJson(zip, "metadata.json");
        var good = doc.RootElement.GetRawText();

        foreach (var bad in new[]
        {
            good.Replace("\"DisplayName\"", "\"displayName\""),
            good.Replace("\"SdkVersion\": \"1.2.0\",", ""),
            good.Replace("\"SchemaVersion\": 0.1", "\"SchemaVersion\": 0.2"),
            good.Replace("\"Id\": \"HiddenCost\"", "\"Id\": \"Hidden Cost\""),
        })
        {
            Assert.AreNotEqual(good, bad, "the replacement must change the document");
            using var changed = JsonDocument.Parse(bad);
            Assert.ThrowsExactly<AssertFailedException>(() => PluginsSystemSchema.Metadata.Check(changed.RootElement, "metadata.json"));
        }
    }

    [TestMethod]
    public void Plugin_zip_holds_exactly_the_published_plugin_folder()
    {
        using var zip = ZipFile.OpenRead(_zip);

        CollectionAssert.AreEqual(PublishedFiles().ToList(), zip.Entries.Select(e => e.FullName).ToList());
        foreach (var entry in zip.Entries)
            Assert.AreEqual(new FileInfo(Path.Combine(_plugin, entry.FullName)).Length, entry.Length, entry.FullName);
    }

    [TestMethod]
    public void The_same_plugin_folder_packs_to_the_same_bytes()
    {
        var (zip, ptix) = Pack(Path.Combine(_root, "again"));

        CollectionAssert.AreEqual(File.ReadAllBytes(_zip), File.ReadAllBytes(zip));
        CollectionAssert.AreEqual(File.ReadAllBytes(_ptix), File.ReadAllBytes(ptix));
    }
}
