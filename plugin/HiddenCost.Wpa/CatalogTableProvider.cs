using HiddenCost.Analysis.Model;
using HiddenCost.Wpa.Mapping;
using Microsoft.Performance.SDK.Processing;

namespace HiddenCost.Wpa;

/// <summary>Offers WPA every table of our catalog; the tables have no [Table] classes because one mapping builds them all.</summary>
internal sealed class CatalogTableProvider : IProcessingSourceTableProvider
{
    private readonly IReadOnlyList<TableSpec> _catalog;

    public CatalogTableProvider(IReadOnlyList<TableSpec> catalog) => _catalog = catalog;

    public IEnumerable<TableDescriptor> Discover(ITableConfigurationsSerializer tableConfigSerializer) =>
        _catalog.Select(TableDescriptors.For).ToList();
}
