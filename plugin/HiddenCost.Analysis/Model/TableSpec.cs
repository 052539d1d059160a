namespace HiddenCost.Analysis.Model;

/// <summary>
/// A table's identity and shape. The GUID, name and column GUIDs/names are a public contract.
/// </summary>
public sealed record TableSpec(
    Guid Id,
    string Name,
    string Description,
    string Category,
    IReadOnlyList<ColumnSpec> Columns,
    TableView DefaultView)
{
    /// <summary>The index of the column named <paramref name="name"/>; throws when absent.</summary>
    public int IndexOf(string name)
    {
        for (int i = 0; i < Columns.Count; i++)
            if (Columns[i].Name == name) return i;
        throw new ArgumentException($"table '{Name}' has no column '{name}'", nameof(name));
    }
}
