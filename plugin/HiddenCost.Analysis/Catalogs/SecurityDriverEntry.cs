namespace HiddenCost.Analysis.Catalogs;

/// <summary>
/// One kernel module of the security-driver catalogue.
/// </summary>
/// <param name="Module">The driver's file name as the catalogue spells it, e.g. <c>tedrdrv.sys</c>.</param>
/// <param name="Vendor">The company; several companies joined by " / " when Microsoft allocated one file name to several.</param>
/// <param name="Product">The product name when a public source names it; empty otherwise.</param>
/// <param name="Category">What the driver does: <c>EDR</c>, <c>anti-virus</c>, <c>activity monitor</c>, <c>encryption</c>, ...</param>
/// <param name="Altitudes">Minifilter altitudes Microsoft allocated to this file name; empty when it is not a listed minifilter.</param>
/// <param name="Sources">Codes of the public sources the entry comes from (see the data file's header), e.g. <c>ALT</c>.</param>
public sealed record SecurityDriverEntry(
    string Module,
    string Vendor,
    string Product,
    string Category,
    IReadOnlyList<string> Altitudes,
    IReadOnlyList<string> Sources)
{
    /// <summary>"Product (Vendor)" when the product is known, else the vendor: the label tables show.</summary>
    public string DisplayName => Product.Length > 0 ? $"{Product} ({Vendor})" : Vendor;
}
