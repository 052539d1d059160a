using System.Reflection;
using Microsoft.Performance.SDK.Processing;

namespace HiddenCost.Wpa.Tests.Contract;

/// <summary>
/// The contract compiles the plugin, but WPA runs it against the real SDK: a declaration that differs from the
/// real one compiles fine and then fails to load in WPA. These tests keep every declaration identical.
/// </summary>
[TestClass]
public sealed class ContractListingTests
{
    private static string ContractPath => typeof(ProcessingSource).Assembly.Location;

    private static Assembly PluginAssembly => typeof(HiddenCost.Wpa.HiddenCostProcessingSource).Assembly;

    [TestMethod]
    public void Built_contract_declares_nothing_the_SDK_1_2_16_listing_lacks()
    {
        var sdk = SdkApiListing.Sdk1216();
        var contract = SdkApiLister.ListFile(ContractPath);

        var violations = ContractCheck.Violations(contract, sdk);

        Assert.AreEqual(0, violations.Count, "not in the SDK 1.2.16 listing:\n" + string.Join("\n", violations));
        CollectionAssert.Contains(contract.ToList(),
            "Microsoft.Performance.SDK.Processing.CustomDataProcessor | method | protected | abstract | ProcessAsyncCore(System.IProgress`1<System.Int32> progress, System.Threading.CancellationToken cancellationToken) : System.Threading.Tasks.Task | - | extra=-");
    }

    [TestMethod]
    public void Built_contract_has_the_identity_of_the_real_SDK_1_2()
    {
        var sdk = SdkApiListing.Sdk1216();
        var name = AssemblyName.GetAssemblyName(ContractPath);

        Assert.AreEqual(sdk.HeaderValue("assembly"), name.FullName);
        Assert.AreEqual("Microsoft.Performance.SDK, Version=1.2.0.0, Culture=neutral, PublicKeyToken=null", name.FullName);
    }

    [TestMethod]
    public void Plugin_references_the_SDK_by_the_name_and_version_WPA_binds()
    {
        var reference = PluginAssembly.GetReferencedAssemblies()
            .Single(r => r.Name == "Microsoft.Performance.SDK");

        Assert.AreEqual(new Version(1, 2, 0, 0), reference.Version);
        Assert.AreEqual(0, reference.GetPublicKeyToken()?.Length ?? 0);
    }

    [TestMethod]
    public void Contract_declares_every_abstract_member_of_the_SDK_classes_the_plugin_derives_from()
    {
        var sdk = SdkApiListing.Sdk1216();
        var contract = SdkApiLister.ListFile(ContractPath).ToHashSet(StringComparer.Ordinal);
        var derivedFrom = new[] { typeof(ProcessingSource), typeof(CustomDataProcessor) };
        var implemented = new[] { typeof(IProcessingSourceTableProvider), typeof(Microsoft.Performance.SDK.Processing.DataSourceGrouping.IDataSourceGrouper) };

        var required = sdk.Entries.Where(line =>
        {
            var fields = SdkApiListing.Fields(line);
            if (fields[1] == "type") return false;
            return (derivedFrom.Any(t => t.FullName == fields[0]) && fields[3].Split(' ').Contains("abstract"))
                || implemented.Any(t => t.FullName == fields[0]);
        }).ToList();
        var missing = required.Where(line => !contract.Contains(line)).ToList();

        Assert.AreEqual(7, required.Count);
        Assert.AreEqual(0, missing.Count, "missing:\n" + string.Join("\n", missing));
    }

    [TestMethod]
    public void Plugin_derives_only_from_SDK_classes_whose_abstract_members_the_contract_declares()
    {
        var sdkAssembly = typeof(ProcessingSource).Assembly;
        var used = PluginAssembly.GetTypes()
            .SelectMany(t => Ancestors(t).Concat(t.GetInterfaces()))
            .Where(t => t.Assembly == sdkAssembly)
            .Select(t => t.FullName!)
            .Distinct()
            .Order(StringComparer.Ordinal)
            .ToList();

        CollectionAssert.AreEqual(
            new[]
            {
                "Microsoft.Performance.SDK.Processing.CustomDataProcessor",
                "Microsoft.Performance.SDK.Processing.DataSourceGrouping.IDataSourceGrouper",
                "Microsoft.Performance.SDK.Processing.ICustomDataProcessor",
                "Microsoft.Performance.SDK.Processing.IProcessingSourceTableProvider",
                "Microsoft.Performance.SDK.Processing.ProcessingSource",
            },
            used);
    }

    [TestMethod]
    public void Checker_reports_a_struct_declared_as_a_class()
    {
        var violations = Check("""
            namespace Microsoft.Performance.SDK
            {
                public sealed class Timestamp { public Timestamp(long nanoseconds) { } }
            }
            """);

        CollectionAssert.AreEqual(
            new[] { "Microsoft.Performance.SDK.Timestamp | type | public | class sealed | base=System.Object | implements=- | generic=- | extra=-" },
            violations.ToList());
    }

    [TestMethod]
    public void Checker_reports_init_where_the_SDK_has_set()
    {
        var violations = Check("""
            namespace Microsoft.Performance.SDK.Processing
            {
                public sealed class UIHints { public UIHints() { } public int Width { get; init; } public int SortPriority { get; set; } }
            }
            """);

        CollectionAssert.AreEqual(
            new[] { "Microsoft.Performance.SDK.Processing.UIHints | property | public | - | Width : System.Int32 | get;init | extra=-" },
            violations.ToList());
    }

    [TestMethod]
    public void Checker_reports_an_implicit_public_default_constructor_the_SDK_lacks()
    {
        var implicitConstructor = Check("""
            namespace Microsoft.Performance.SDK.Processing { public sealed class DataSourceInfo { } }
            """);
        var privateConstructor = Check("""
            namespace Microsoft.Performance.SDK.Processing { public sealed class DataSourceInfo { private DataSourceInfo() { } } }
            """);

        CollectionAssert.AreEqual(
            new[] { "Microsoft.Performance.SDK.Processing.DataSourceInfo | ctor | public | - | .ctor() | - | extra=-" },
            implicitConstructor.ToList());
        Assert.AreEqual(0, privateConstructor.Count);
    }

    [TestMethod]
    public void Checker_reports_a_changed_parameter_default()
    {
        var violations = Check("""
            namespace Microsoft.Performance.SDK.Extensibility { public struct DataCookerPath { } }
            namespace Microsoft.Performance.SDK.Processing
            {
                public enum TableLayoutStyle { None = 0, Graph = 1, Table = 2, GraphAndTable = 3 }
                public sealed class TableDescriptor
                {
                    public TableDescriptor(System.Guid guid, string name, string description, string category = "Misc",
                        bool isMetadataTable = false, TableLayoutStyle defaultLayout = TableLayoutStyle.GraphAndTable,
                        System.Collections.Generic.IEnumerable<Microsoft.Performance.SDK.Extensibility.DataCookerPath> requiredDataCookers = null) { }
                }
            }
            """);

        CollectionAssert.AreEqual(
            new[] { "Microsoft.Performance.SDK.Processing.TableDescriptor | ctor | public | - | .ctor(System.Guid guid, System.String name, System.String description, System.String category = \"Misc\", System.Boolean isMetadataTable = false, Microsoft.Performance.SDK.Processing.TableLayoutStyle defaultLayout = 3, System.Collections.Generic.IEnumerable`1<Microsoft.Performance.SDK.Extensibility.DataCookerPath> requiredDataCookers = null) | - | extra=-" },
            violations.ToList());
    }

    [TestMethod]
    public void Checker_accepts_fewer_interfaces_but_reports_one_the_SDK_type_lacks()
    {
        var fewer = Check("""
            namespace Microsoft.Performance.SDK
            {
                public readonly struct Timestamp : System.IEquatable<Timestamp>
                {
                    public Timestamp(long nanoseconds) { }
                    public bool Equals(Timestamp other) => true;
                }
            }
            """);
        var extra = Check("""
            namespace Microsoft.Performance.SDK
            {
                public readonly struct Timestamp : System.IDisposable
                {
                    public Timestamp(long nanoseconds) { }
                    public void Dispose() { }
                }
            }
            """);

        Assert.AreEqual(0, fewer.Count, string.Join("\n", fewer));
        CollectionAssert.AreEqual(
            new[]
            {
                "Microsoft.Performance.SDK.Timestamp | type | public | struct readonly | base=System.ValueType | implements=System.IDisposable | generic=- | extra=-",
                "Microsoft.Performance.SDK.Timestamp | method | public | - | Dispose() : System.Void | - | extra=-",
            },
            extra.ToList());
    }

    private static IReadOnlyList<string> Check(string source) =>
        ContractCheck.Violations(SdkApiLister.ListImage(InMemoryAssembly.Compile(source)), SdkApiListing.Sdk1216());

    private static IEnumerable<Type> Ancestors(Type type)
    {
        for (var ancestor = type.BaseType; ancestor is not null; ancestor = ancestor.BaseType)
            yield return ancestor;
    }
}
